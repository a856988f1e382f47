// The launch-delays view: how long kernels wait between their launch call on the CPU
// and their start on the GPU, from HTA's cuda_kernel_launch_stats (rank, correlation,
// cpu_duration, gpu_duration, launch_delay; µs): the delays' distribution (log-ish
// bins), the outliers by kind with the cutoffs used, the longest delays, and launch
// call against kernel time (kernels whose launch costs more than the kernel).
// The bins only group the core's values to draw them.

import { createTable } from '../table.mjs';
import { cell, findColumn } from '../sheet.mjs';
import { el, resetSection, tabs } from '../widgets.mjs';
import { fmtInt } from '../format.mjs';
import { binIndex, binValues, htaSheet, htaSheets, logEdges, missingNotice, plainTable, shareText, svg, svgImage, usText } from './hta-common.mjs';

// HTA's defaults (sollens report --hta-runtime-cutoff-us, --hta-launch-delay-cutoff-us):
// the page asks for reports with the defaults, and its report does not carry them.
export const DEFAULT_CUTOFFS = { runtime: 50, launchDelay: 100 };

const ABSENT = 'No kernel launches in this report: the trace has no kernel, memcpy or memset whose launch call (cudaLaunchKernel, cudaMemcpyAsync, cudaMemsetAsync) is in it, e.g. a trace without GPU events.';

export function render(section, context) {
  resetSection(section, 'Launch delays');
  section.append(el('p', 'detail', 'For every kernel, memcpy and memset: cpu_duration is its launch call on the CPU (cudaLaunchKernel, cudaMemcpyAsync, cudaMemsetAsync), gpu_duration the work on the GPU, launch_delay the wait from the end of the launch call to the start on the GPU; all in µs (HTA\'s cuda_kernel_launch_stats). A correlation id finds both events in the trace.'));
  const found = htaSheet(context, 'cuda_kernel_launch_stats', ABSENT);
  if (!found.sheet) {
    section.append(missingNotice(found.why, 'no-launch-stats'));
    return;
  }
  const stats = found.sheet;
  const cutoffs = context.htaCutoffs ?? DEFAULT_CUTOFFS;
  const values = (name) => columnValues(stats, name);
  const delays = values('launch_delay');

  section.append(el('h3', '', 'How long kernels wait to start'),
    el('p', 'detail', `A long launch delay means the kernel queued behind earlier GPU work: the CPU is running ahead of the GPU, which is what you want. Delays near zero mean each kernel started as soon as it was launched: if the GPU also idles between kernels, it is waiting for the CPU. The dashed line is the outlier cutoff (${usText(cutoffs.launchDelay)}).`));
  section.append(delayHistogram(delays, cutoffs.launchDelay));

  section.append(el('h3', '', 'Outliers'));
  section.append(outlierList(context, stats, cutoffs));

  section.append(el('h3', '', 'Longest launch delays'),
    el('p', 'detail', 'Every launch, the longest launch_delay first (sort by another column with its header).'));
  section.append(createTable(stats, { caption: 'cuda_kernel_launch_stats', sort: { column: 'launch_delay', descending: true } }).element);

  section.append(el('h3', '', 'Launch call against kernel time'),
    el('p', 'detail', 'Each cell counts the launches with that launch call time (across) and GPU time (up). Below the diagonal the kernel ran for less time than its launch call took: launching it costs more than the work it does, so fusing or batching such kernels (or capturing them in a CUDA graph) saves CPU time per step.'));
  section.append(launchCostChart(values('cpu_duration'), values('gpu_duration')));
}

function columnValues(sheet, name) {
  const column = findColumn(sheet, name);
  const out = [];
  if (!column) return out;
  for (let r = 0; r < sheet.rows; r++) {
    const v = cell(column, r);
    if (v !== null && Number.isFinite(v)) out.push(v);
  }
  return out;
}

// Bars of launches per bin of launch_delay, bars past the cutoff marked, and the bins
// as a table for those who cannot see the chart.
function delayHistogram(delays, cutoff) {
  const max = delays.reduce((m, v) => Math.max(m, v), 0);
  const bins = binValues(delays, logEdges(max, [cutoff]));
  const W = 800;
  const H = 150;
  const top = 16;
  const bottom = 34;
  const peak = bins.reduce((m, b) => Math.max(m, b.count), 0) || 1;
  const image = svgImage('histogram delay-histogram', W, H + top + bottom,
    `Histogram of launch delays: ${fmtInt(delays.length)} launches in ${bins.length} bins from ${bins[0].label} to ${bins.at(-1).label} µs (the table below lists them)`);
  const bw = W / bins.length;
  bins.forEach((b, i) => {
    const h = b.count ? Math.max(1.5, (b.count / peak) * H) : 0;
    const over = b.lo >= cutoff;
    if (h) {
      const rect = svg('rect', { x: i * bw + 1, y: top + H - h, width: Math.max(bw - 2, 1), height: h, class: over ? 'over-cutoff' : '' });
      rect.append(svg('title', {}, `${b.label} µs: ${fmtInt(b.count)} launches`));
      image.append(rect);
      image.append(svg('text', { x: i * bw + bw / 2, y: top + H - h - 3, 'text-anchor': 'middle', class: 'count' }, fmtInt(b.count)));
    }
    image.append(svg('text', { x: i * bw + bw / 2, y: top + H + 14, 'text-anchor': 'middle' }, b.label));
  });
  const cut = bins.findIndex((b) => b.lo === cutoff);
  if (cut > 0) {
    image.append(svg('line', { x1: cut * bw, x2: cut * bw, y1: 2, y2: top + H, class: 'cutoff' }));
    image.append(svg('text', { x: cut * bw + 4, y: 11, class: 'cutoff-label' }, `cutoff ${usText(cutoff)}`));
  }
  image.append(svg('text', { x: W / 2, y: top + H + 30, 'text-anchor': 'middle' }, 'launch_delay (µs)'));
  const figure = el('figure', 'chart histogram-figure');
  figure.append(image);
  const details = el('details', 'chart-numbers');
  details.append(el('summary', '', 'The bins as a table'),
    plainTable('Launches per launch_delay bin (µs; a bin holds its lower edge)', ['launch_delay (µs)', 'launches'],
      bins.map((b) => [b.label, fmtInt(b.count)]), 'numbers delay-bins'));
  figure.append(details);
  return figure;
}

// The outlier sheets of cuda_kernel_launch_stats are found by name (their kind is
// hta): runtime (the launch call) and launch-delay outliers, in HTA's definitions.
const OUTLIER_KINDS = [
  { id: 'runtime', test: /runtime|short/, text: (c) => `Launch call longer than ${usText(c.runtime)} while its kernel is shorter than the call (HTA's runtime outliers)` },
  { id: 'delay', test: /delay/, text: (c) => `Launch delay longer than ${usText(c.launchDelay)} (HTA's launch delay outliers)` },
];

function outlierSheets(sheets) {
  const candidates = htaSheets(sheets).filter((s) => /^cuda_kernel_launch/.test(s.name) && /outlier/.test(s.name));
  return OUTLIER_KINDS.map((k) => ({ ...k, sheet: candidates.find((s) => k.test.test(s.name.replace(/^cuda_kernel_launch_stats_?/, ''))) ?? null }));
}

function outlierList(context, stats, cutoffs) {
  const wrap = el('div', 'outliers');
  const kinds = outlierSheets(context.report.sheets).filter((k) => k.sheet);
  wrap.append(el('p', 'detail', `Cutoffs: launch call ${usText(cutoffs.runtime)}, launch delay ${usText(cutoffs.launchDelay)} (HTA's defaults; sollens report --hta-runtime-cutoff-us and --hta-launch-delay-cutoff-us change them).`));
  if (kinds.length === 0) {
    wrap.append(missingNotice('This report has no outlier sheets of cuda_kernel_launch_stats.'));
    return wrap;
  }
  const list = el('ul', 'outlier-counts');
  for (const k of kinds) {
    const li = el('li');
    li.dataset.kind = k.id;
    li.append(el('strong', '', `${fmtInt(k.sheet.rows)} of ${fmtInt(stats.rows)} launches (${shareText((100 * k.sheet.rows) / (stats.rows || 1))})`),
      `: ${k.text(cutoffs)}; sheet ${k.sheet.name}.`);
    list.append(li);
  }
  wrap.append(list);
  const remembered = context.state.outlierTab;
  wrap.append(tabs(kinds.map((k) => ({ id: k.id, label: k.sheet.name, count: k.sheet.rows })), (item, panel) => {
    const k = kinds.find((x) => x.id === item.id);
    panel.append(createTable(k.sheet, { caption: k.sheet.name, sort: { column: k.id === 'delay' ? 'launch_delay' : 'cpu_duration', descending: true } }).element);
  }, { label: 'Outlier sheets', selected: remembered, onSelect: (id) => { context.state.outlierTab = id; } }).element);
  return wrap;
}

// A heat map of launches by (launch call time, GPU time) in log-ish bins, the diagonal
// drawn, and the share of launches below it. The axes are labelled at the bins' edges.
function launchCostChart(cpu, gpu) {
  const n = Math.min(cpu.length, gpu.length);
  const edges = logEdges(Math.max(cpu.reduce((m, v) => Math.max(m, v), 0), gpu.reduce((m, v) => Math.max(m, v), 0)));
  const size = edges.length;  // [0, 1), [1, 2), …: negatives join the first bin
  const grid = Array.from({ length: size }, () => new Array(size).fill(0));
  let cheaper = 0;
  for (let i = 0; i < n; i++) {
    grid[binIndex(Math.max(0, cpu[i]), edges, 0, size)][binIndex(Math.max(0, gpu[i]), edges, 0, size)]++;
    if (gpu[i] < cpu[i]) cheaper++;
  }
  const labels = binValues([], edges).map((b) => b.label);
  const cell = Math.min(30, Math.floor(420 / size));
  const left = 56;
  const topPad = 8;
  const side = size * cell;
  const W = left + side + 16;
  const H = topPad + side + 40;
  const peak = Math.max(1, ...grid.flat());
  const image = svgImage('launch-cost', W, H, `Launches by launch call time (across) and GPU time (up): ${fmtInt(cheaper)} of ${fmtInt(n)} below the diagonal, the kernel shorter than its launch call`);
  image.append(svg('rect', { x: left, y: topPad, width: side, height: side, class: 'plot-area' }));
  for (let x = 0; x < size; x++) {
    for (let y = 0; y < size; y++) {
      const c = grid[x][y];
      if (!c) continue;
      const rect = svg('rect', { x: left + x * cell + 0.5, y: topPad + (size - 1 - y) * cell + 0.5, width: cell - 1, height: cell - 1,
        class: 'heat', 'fill-opacity': (0.2 + 0.8 * Math.log1p(c) / Math.log1p(peak)).toFixed(3) });
      rect.append(svg('title', {}, `launch call ${labels[x]} µs, GPU ${labels[y]} µs: ${fmtInt(c)} launches`));
      image.append(rect);
    }
  }
  image.append(svg('line', { x1: left, y1: topPad + side, x2: left + side, y2: topPad, class: 'diagonal' }));
  const every = Math.ceil(size / 12);
  [0, ...edges].forEach((edge, i) => {
    if (i % every && i !== size) return;
    const label = edgeLabel(edge);
    image.append(svg('text', { x: left + i * cell, y: topPad + side + 13, 'text-anchor': 'middle' }, label));
    image.append(svg('text', { x: left - 4, y: topPad + side - i * cell + 4, 'text-anchor': 'end' }, label));
  });
  image.append(svg('text', { x: left + side / 2, y: H - 6, 'text-anchor': 'middle' }, 'cpu_duration: the launch call (µs)'));
  const mid = topPad + side / 2;
  image.append(svg('text', { x: 10, y: mid, 'text-anchor': 'middle', transform: `rotate(-90 10 ${mid})` }, 'gpu_duration (µs)'));
  const figure = el('figure', 'chart launch-cost-figure');
  const caption = el('figcaption', 'launch-cost-summary');
  caption.append(el('strong', '', `${fmtInt(cheaper)} of ${fmtInt(n)} launches (${shareText((100 * cheaper) / (n || 1))})`),
    ' ran for less time on the GPU than their launch call took on the CPU (gpu_duration < cpu_duration). Darker cells hold more launches; hover a cell for its count.');
  figure.append(caption, image);
  return figure;
}

// An axis label at a bin edge: 0, 1, 2, 5, 10, …, 1 ms.
const edgeLabel = (us) => (us >= 1e6 ? `${us / 1e6} s` : us >= 1e3 ? `${us / 1e3} ms` : String(us));
