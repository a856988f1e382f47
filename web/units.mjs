// Showing report columns with their units and a sensible display precision. The unit
// is the core's (each column of the report model carries it: worker.mjs); column names
// are kept exactly as TraceLens writes them, so people can find them in its
// documentation, and the unit is shown next to the name when the name itself does not
// say it plainly (e.g. total_direct_kernel_time_sum is in µs). Only presentation: the
// values are never converted, so the page shows the numbers the CSVs hold.

// Whether the name already shows its unit to a reader (then the header adds nothing).
export function nameShowsUnit(columnName, unit) {
  if (!unit) return true;
  if (isTimestamp(unit)) return false;
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

// Timestamps: instants on the trace's clock (µs, as Kineto's ts), marked by the core
// with this unit (core/table Unit::kTimestamp). Where the trace's start is known they
// are shown in ms from it, as the page's time strips are, with the instant itself on
// hover; without it (a sheet of another trace's clock), as written.
export const TIMESTAMP_UNIT = 'timestamp µs';
export const isTimestamp = (unit) => unit === TIMESTAMP_UNIT;

// The unit a column's header shows. c: {unit, origin (the trace's start, µs, or undefined)}.
export function shownUnit(c) {
  if (!isTimestamp(c.unit)) return c.unit;
  return Number.isFinite(c.origin) ? 'ms from start' : 'µs, trace clock';
}

// The text a number cell shows (the exact value stays in <data value>).
export function cellText(c, x) {
  if (isTimestamp(c.unit) && Number.isFinite(c.origin) && Number.isFinite(x)) return formatNumber((x - c.origin) / 1000, 'float');
  return formatNumber(x, c.type, c.unit);
}

// A timestamp's hover: the instant as the trace holds it, and as a date where the
// trace's clock is the Unix epoch (recent Kineto), so that it can be found in logs.
export function timestampTitle(x) {
  const exact = `${numberFormat('exact', { maximumFractionDigits: 3 }).format(x)} µs on the trace's clock`;
  const EPOCH_2000_US = 946_684_800e6;
  const EPOCH_2100_US = 4_102_444_800e6;
  if (!(x >= EPOCH_2000_US && x < EPOCH_2100_US)) return exact;
  return `${exact} (${new Date(x / 1000).toISOString().replace('T', ' ').replace('Z', ' UTC')})`;
}
