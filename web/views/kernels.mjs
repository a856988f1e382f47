// The kernels view: kernel_summary (every GPU kernel by parent op, name and stream),
// then the short-kernel study: short_kernel_histogram (drawn as bars and listed) and
// short_kernels_summary. Kernel names come from the trace: text only.

import { createTable } from '../table.mjs';
import { findSheet, findColumn, cell } from '../sheet.mjs';
import { el, resetSection } from '../widgets.mjs';
import { formatNumber } from '../units.mjs';

const SVG = 'http://www.w3.org/2000/svg';

export function render(section, context) {
  const sheets = context.report.sheets;
  resetSection(section, 'Kernels');

  const summary = findSheet(sheets, 'kernel_summary');
  section.append(el('h3', '', 'Kernel summary'),
    el('p', 'detail', 'Every kernel grouped by parent op category, parent op, kernel name and stream; durations are plain sums of the kernels\' dur (TraceLens kernel_summary).'));
  section.append(summary ? createTable(summary, { caption: 'Kernels by parent op, kernel name and stream (TraceLens kernel_summary)' }).element
    : el('p', 'empty-state', 'No kernels in this trace.'));

  const histogram = findSheet(sheets, 'short_kernel_histogram');
  section.append(el('h3', '', 'Short kernels'),
    el('p', 'detail', 'Kernels shorter than 10 µs: how their durations spread (equal-width bins from the shortest to the longest), and where they come from.'));
  if (histogram && histogram.rows) {
    section.append(histogramChart(histogram), createTable(histogram, { caption: 'Short kernels per duration bin (short_kernel_histogram)' }).element);
  } else {
    section.append(el('p', 'empty-state', 'No kernel in this trace is shorter than 10 µs.'));
  }
  const short = findSheet(sheets, 'short_kernels_summary');
  if (short && short.rows) section.append(createTable(short, { caption: 'Short kernels by parent op (short_kernels_summary)' }).element);
}

// Bars of count per bin (drawing only: the bins and counts are the core's).
function histogramChart(sheet) {
  const start = findColumn(sheet, 'bin_start');
  const end = findColumn(sheet, 'bin_end');
  const count = findColumn(sheet, 'count');
  const unit = start?.unit ?? '';  // the core's: µs
  const n = sheet.rows;
  let max = 0;
  for (let r = 0; r < n; r++) max = Math.max(max, cell(count, r) ?? 0);
  const W = 800;
  const H = 120;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H + 18}`);
  svg.setAttribute('class', 'histogram');
  svg.setAttribute('role', 'img');
  const title = document.createElementNS(SVG, 'title');
  title.textContent = `Histogram of short kernel durations, ${n} bins (the table below lists them)`;
  svg.append(title);
  const bw = W / n;
  for (let r = 0; r < n; r++) {
    const c = cell(count, r) ?? 0;
    if (!c) continue;
    const h = max ? Math.max(1, (c / max) * H) : 0;
    const rect = document.createElementNS(SVG, 'rect');
    rect.setAttribute('x', String(r * bw));
    rect.setAttribute('y', String(H - h));
    rect.setAttribute('width', String(Math.max(bw - 0.5, 0.5)));
    rect.setAttribute('height', String(h));
    const t = document.createElementNS(SVG, 'title');
    t.textContent = `${formatNumber(cell(start, r), 'float', unit)}–${formatNumber(cell(end, r), 'float', unit)} ${unit}: ${c} kernels`;
    rect.append(t);
    svg.append(rect);
  }
  for (const [r, anchor] of [[0, 'start'], [n - 1, 'end']]) {
    const label = document.createElementNS(SVG, 'text');
    label.setAttribute('x', anchor === 'start' ? '0' : String(W));
    label.setAttribute('y', String(H + 14));
    label.setAttribute('text-anchor', anchor);
    label.textContent = `${formatNumber(cell(anchor === 'start' ? start : end, r), 'float', unit)} ${unit}`;
    svg.append(label);
  }
  const figure = el('figure', 'chart histogram-figure');
  figure.append(svg);
  return figure;
}
