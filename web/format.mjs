// Formatting and DOM helpers shared by the page and its views. Everything here
// inserts text as text (textContent, attributes), never as HTML.

// A table row; strings and numbers become text nodes, nodes are appended as they are.
export function row(cells) {
  const tr = document.createElement('tr');
  for (const c of cells) {
    const td = document.createElement('td');
    if (c instanceof Node) td.append(c);
    else td.textContent = String(c);
    tr.append(td);
  }
  return tr;
}

// <data value="exact">shown</data>: the exact number stays machine-readable.
export function dataValue(exact, shown) {
  const el = document.createElement('data');
  el.value = String(exact);
  el.textContent = shown;
  return el;
}

const numberFormats = new Map();
export function fmtFixed(x, digits) {
  if (x == null || !Number.isFinite(x)) return '–';
  let f = numberFormats.get(digits);
  if (!f) numberFormats.set(digits, (f = new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })));
  return f.format(x);
}
const intFormat = new Intl.NumberFormat('en-US');
export function fmtInt(n) {
  return intFormat.format(n);
}
export function fmtBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 2 ** 20) return `${fmtFixed(n / 1024, 1)} KiB`;
  if (n < 2 ** 30) return `${fmtFixed(n / 2 ** 20, 1)} MiB`;
  return `${fmtFixed(n / 2 ** 30, 2)} GiB`;
}
