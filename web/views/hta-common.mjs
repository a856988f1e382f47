// What the Holistic Trace Analysis views (views/critical-path.mjs, views/launch-delays.mjs)
// share: finding HTA's sheets (kind 'hta'), saying plainly why one is missing, shares
// in words, log-ish bins for drawing and small SVG builders. Drawing only: every
// number in a sheet is the core's; the bins here only group values to draw them.

import { el } from '../widgets.mjs';
import { findSheet } from '../sheet.mjs';

export const SVG_NS = 'http://www.w3.org/2000/svg';

export const htaSheets = (sheets) => (sheets ?? []).filter((s) => s.kind === 'hta');

// The sheet `name`, or why it is not there, as {sheet} or {why}: HTA's sheets are still
// being computed (they follow the report) or failed, the report has no HTA
// sheets at all (--no-hta, or a report from before them), the sheet was left empty to
// fit a share link, or the analysis itself gave nothing (`absent` says what that
// means for this sheet).
export function htaSheet(context, name, absent) {
  const sheets = context.report?.sheets ?? [];
  if (context.htaPending) {
    return { why: 'Computing the Holistic Trace Analysis (HTA) sheets, which this view reads: they follow the report, and this view fills in when they are done.', pending: true };
  }
  if (context.htaError) return { why: context.htaError };
  if (htaSheets(sheets).length === 0) {
    return { why: 'This report has no Holistic Trace Analysis (HTA) sheets, which this view reads: it was made with --no-hta, or by a sollens from before them (a share link made with an older page, say).' };
  }
  const sheet = findSheet(sheets, name);
  if (sheet && sheet.rows === 0 && droppedFromLink(context, name)) {
    return { why: `${name} was too big for the share link this report came from, so it is empty here. Open the trace itself to see it.` };
  }
  if (!sheet || sheet.rows === 0) return { why: absent };
  return { sheet };
}

const droppedFromLink = (context, name) => (context.dropped ?? []).includes(name);

// A notice in place of a part of a view; one that says the sheets are being computed
// (htaSheet's `pending`) is a live region, and is replaced when they come.
export const missingNotice = (text, className = '', pending = false) => {
  const p = el('p', `empty-state ${pending ? 'hta-pending ' : ''}${className}`.trim(), text);
  p.setAttribute('role', pending ? 'status' : 'note');
  return p;
};

// A percentage in words: one decimal, none when it is whole ("97%", "99.9%"), and
// "<0.1%" for a share too small to show rather than a misleading 0.
export function shareText(percent) {
  if (!Number.isFinite(percent)) return '–';
  if (percent > 0 && percent < 0.05) return '<0.1%';
  return `${percent.toFixed(1).replace(/\.0$/, '')}%`;
}

// A duration in µs as people read it: "80 µs", "2.5 ms", "1.2 s".
export function usText(us) {
  if (!Number.isFinite(us)) return '–';
  const trim = (x) => String(Number(x.toPrecision(3)));
  if (Math.abs(us) >= 1e6) return `${trim(us / 1e6)} s`;
  if (Math.abs(us) >= 1e3) return `${trim(us / 1e3)} ms`;
  return `${trim(us)} µs`;
}

// Bin edges for durations in µs: 1, 2, 5, 10, 20, 50, … up past `max`, with the
// cutoffs added as edges, so that a cutoff always falls between two bars.
export function logEdges(max, cutoffs = []) {
  const edges = new Set([1, ...cutoffs.filter((c) => Number.isFinite(c) && c > 0)]);
  for (let decade = 1; decade <= Math.max(max, 1) * 10 && decade < 1e12; decade *= 10)
    for (const m of [1, 2, 5]) if (decade * m > 1) edges.add(decade * m);
  const sorted = [...edges].sort((a, b) => a - b);
  const last = sorted.findIndex((e) => e > max);
  return last < 0 ? sorted : sorted.slice(0, last + 1);
}

// Bins over `edges`: [below 0] (only when some value is negative), [0, e0), [e0, e1), …
// Each bin {lo, hi, count, label}; values past the last edge land in the last bin.
export function binValues(values, edges) {
  const bins = [];
  let negative = 0;
  for (const v of values) if (v < 0) negative++;
  if (negative) bins.push({ lo: -Infinity, hi: 0, count: 0, label: '< 0' });
  let lo = 0;
  for (const hi of edges) {
    bins.push({ lo, hi, count: 0, label: lo === 0 && hi === 1 ? '< 1' : `${edgeText(lo)}–${edgeText(hi)}` });
    lo = hi;
  }
  const first = negative ? 1 : 0;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    bins[binIndex(v, edges, first, bins.length)].count++;
  }
  return bins;
}

export function binIndex(v, edges, first = 0, count = edges.length + first) {
  if (v < 0) return 0;
  let i = 0;
  while (i < edges.length && v >= edges[i]) i++;
  return Math.min(first + i, count - 1);
}

// An edge as a short label: 500 → "500", 1000 → "1 ms", 20000 → "20 ms".
function edgeText(us) {
  if (us >= 1e6) return `${us / 1e6} s`;
  if (us >= 1e3) return `${us / 1e3} ms`;
  return String(us);
}

export function svg(tag, attributes = {}, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

// An <svg role=img> with its accessible name as its first child, <title>.
export function svgImage(className, width, height, name) {
  const root = svg('svg', { class: className, viewBox: `0 0 ${width} ${height}`, role: 'img' });
  root.append(svg('title', {}, name));
  return root;
}

// A small plain table (caption, header, rows of text), for a chart's numbers.
export function plainTable(caption, header, rows, className = 'numbers') {
  const table = el('table', className);
  table.append(el('caption', '', caption));
  const head = el('tr');
  for (const h of header) {
    const th = el('th', '', h);
    th.scope = 'col';
    head.append(th);
  }
  const thead = el('thead');
  thead.append(head);
  const tbody = el('tbody');
  for (const r of rows) {
    const tr = el('tr');
    for (const c of r) tr.append(c instanceof Node ? wrap(c) : el('td', '', String(c)));
    tbody.append(tr);
  }
  table.append(thead, tbody);
  return table;
}
const wrap = (node) => {
  const td = el('td');
  td.append(node);
  return td;
};
