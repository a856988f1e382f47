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

// Module paths as a reader scans them. Kineto names a module frame by its class and an
// instance counter (LlamaForCausalLM_0.LlamaModel_0.LlamaDecoderLayer_3.LlamaMLP_3),
// never by attribute (model.layers.3.mlp), so no attribute name is made up here: the
// frames are joined with ›, a counter is dropped where it tells nothing (a class that
// only ever has instance 0; or one whose instance follows from its parent's, under a
// parent that shows its own index), and kept where layers repeat:
// LlamaModel › LlamaDecoderLayer 3 › LlamaMLP. Outer frames every path shares are left
// out but the innermost of them (LlamaForCausalLM_0 above), so the tail that tells the
// rows apart fits its column.
// paths: the column's strings; returns a Map from each to its shown text (strings
// that are not such paths, e.g. "(no module) GEMM", map to themselves).
const FRAME = /^(.+)_(\d+)$/;
export function readableModulePaths(paths) {
  const split = new Map();
  const counters = new Map();  // class → Map(parent path → Set of counters)
  for (const p of paths) {
    const frames = p.split('.').map((f) => FRAME.exec(f));
    if (frames.length < 1 || frames.some((m) => !m)) continue;
    split.set(p, frames);
    frames.forEach((m, i) => {
      const parent = frames.slice(0, i).map((f) => f[0]).join('.');
      if (!counters.has(m[1])) counters.set(m[1], new Map());
      const byParent = counters.get(m[1]);
      if (!byParent.has(parent)) byParent.set(parent, new Set());
      byParent.get(parent).add(m[2]);
    });
  }
  // Leading frames all paths share: all but the last of them are left out.
  const parsed = [...split.values()];
  let common = parsed.length > 1 ? Math.min(...parsed.map((f) => f.length)) : 0;
  for (const frames of parsed)
    while (common > 0 && frames.slice(0, common).some((f, i) => f[0] !== parsed[0][i][0])) common--;
  const skip = Math.max(0, common - 1);
  const onlyZero = (cls) => [...counters.get(cls).values()].every((s) => s.size === 1 && s.has('0'));
  const oneEach = (cls) => [...counters.get(cls).values()].every((s) => s.size === 1);
  const out = new Map();
  for (const p of paths) {
    const frames = split.get(p);
    if (!frames) {
      out.set(p, p);
      continue;
    }
    let indexShown = false;
    const words = frames.map(([, cls, n]) => {
      if (onlyZero(cls) || (indexShown && oneEach(cls))) return cls;
      indexShown = true;
      return `${cls} ${n}`;
    });
    out.set(p, words.slice(skip).join(' › '));
  }
  return out;
}
