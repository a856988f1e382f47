// Showing report columns with their units and a sensible display precision. The unit
// is the core's (each column of the report model carries it: worker.mjs); column names
// are kept exactly as TraceLens writes them, so people can find them in its
// documentation, and the unit is shown next to the name when the name itself does not
// say it plainly (e.g. total_direct_kernel_time_sum is in µs). Only presentation: the
// values are never converted, so the page shows the numbers the CSVs hold.

// Whether the name already shows its unit to a reader (then the header adds nothing).
export function nameShowsUnit(columnName, unit) {
  if (!unit) return true;
  if (unit === '%') return /%/.test(columnName);
  if (unit === 'µs') return /\(µs\)|\(us\)/.test(columnName);
  if (unit === 'ms') return /_ms$|(^| )ms$/.test(columnName);
  if (unit === 'GFLOP') return false;
  return columnName.includes(unit.replace('FLOP/B', 'FLOPS/Byte'));
}

const formats = new Map();
function numberFormat(key, options) {
  let f = formats.get(key);
  if (!f) formats.set(key, (f = new Intl.NumberFormat('en-US', options)));
  return f;
}

// Shown text of a number: integers exactly; percentages with 2 decimals; other floats
// with 3 decimals (1 from 1,000 on), and 4 significant digits below 1 so that small
// throughputs and intensities do not all read 0.000. The exact value stays in
// <data value>.
export function formatNumber(x, type, unit) {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'NaN' : (x > 0 ? '∞' : '−∞');
  if (type === 'int') return numberFormat('int', { maximumFractionDigits: 0 }).format(x);
  if (type === 'bool') return x ? 'True' : 'False';
  const a = Math.abs(x);
  if (a === 0) return '0';
  if (unit === '%') return numberFormat('pct', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(x);
  if (a >= 1000) return numberFormat('big', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(x);
  if (a >= 1) return numberFormat('mid', { minimumFractionDigits: 3, maximumFractionDigits: 3 }).format(x);
  if (a >= 1e-4) return numberFormat('small', { maximumSignificantDigits: 4 }).format(x);
  return x.toExponential(3);
}
