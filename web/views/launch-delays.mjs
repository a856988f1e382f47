// The launch-delays view: how long kernels wait between their launch call on the CPU
// and their start on the GPU, from HTA's cuda_kernel_launch_stats (rank, correlation,
// cpu_duration, gpu_duration, launch_delay; µs) and the core's
// cuda_kernel_launch_stats_other_apis (the same for launch calls HTA does not read):
// the delays' distribution (log-ish bins), the outliers by kind with the cutoffs used,
// the longest delays, the ATen ops with their kernels and delays
// (aten_op_kernels_and_delay), and launch call against kernel time (kernels whose launch
// costs more than the kernel).
// The bins only group the core's values to draw them.

import { createTable } from '../table.mjs';
import { cell, findColumn, findSheet } from '../sheet.mjs';
import { el, resetSection, tabs } from '../widgets.mjs';
import { fmtInt } from '../format.mjs';
import { binIndex, binValues, htaSheet, logEdges, missingNotice, plainTable, shareText, svg, svgImage, usText } from './hta-common.mjs';

// HTA's defaults (sollens report --hta-runtime-cutoff-us, --hta-launch-delay-cutoff-us),
// which the core uses unless the report was asked with others (the page's names of
// those options: htaRuntimeCutoffUs, htaLaunchDelayCutoffUs).
export const DEFAULT_CUTOFFS = { runtime: 50, launchDelay: 100 };
export function cutoffsOf(options = {}) {
  const asked = (name, fallback) => (options[name] === undefined || options[name] === null ? fallback : Number(options[name]));
  const runtime = asked('htaRuntimeCutoffUs', DEFAULT_CUTOFFS.runtime);
  const launchDelay = asked('htaLaunchDelayCutoffUs', DEFAULT_CUTOFFS.launchDelay);
  return { runtime, launchDelay, defaults: runtime === DEFAULT_CUTOFFS.runtime && launchDelay === DEFAULT_CUTOFFS.launchDelay };
}

const ABSENT = 'No kernel launches in this report: the trace has no kernel, memcpy or memset whose launch call is in it, e.g. a trace without GPU events.';
// HTA's launches (cudaLaunchKernel, cudaMemcpyAsync, cudaMemsetAsync), then those of the
// launch calls HTA does not read (cuLaunchKernel, hipLaunchKernel, cudaGraphLaunch, …),
// which the core adds with the same columns and launch_api.
const STATS = 'cuda_kernel_launch_stats';
const OTHER_APIS = 'cuda_kernel_launch_stats_other_apis';

export function render(section, context) {
  resetSection(section, 'Launch delays');
  section.append(el('p', 'detail', 'For every kernel, memcpy and memset: cpu_duration is its launch call on the CPU, gpu_duration the work on the GPU, launch_delay the wait from the end of the launch call to the start on the GPU; all in µs (HTA\'s cuda_kernel_launch_stats). A correlation id finds both events in the trace.'));
  const found = [htaSheet(context, STATS, ABSENT), htaSheet(context, OTHER_APIS, ABSENT)];
  const launches = found.map((f) => f.sheet).filter(Boolean);
  if (launches.length === 0) {
    const dropped = found.find((f) => /share link/.test(f.why));
    section.append(missingNotice((dropped ?? found[0]).why, 'no-launch-stats', found[0].pending));
    return;
  }
  for (const f of found) if (!f.sheet && /share link/.test(f.why)) section.append(missingNotice(`${f.why} What follows counts the other launches only.`, 'launch-dropped'));
  const total = launches.reduce((n, sheet) => n + sheet.rows, 0);
  section.append(launchCount(launches, total));
  const cutoffs = cutoffsOf(context.reportOptions);
  const values = (name) => launches.flatMap((sheet) => columnValues(sheet, name));

  section.append(el('h3', '', 'How long kernels wait to start'),
    el('p', 'detail', `A long launch delay means the kernel queued behind earlier GPU work: the CPU is running ahead of the GPU, which is what you want. Delays near zero mean each kernel started as soon as it was launched: if the GPU also idles between kernels, it is waiting for the CPU. The dashed line is the outlier cutoff (${usText(cutoffs.launchDelay)}).`));
  section.append(delayHistogram(values('launch_delay'), cutoffs.launchDelay));

  section.append(el('h3', '', 'Outliers'));
  section.append(outlierList(context, total, cutoffs));

  section.append(el('h3', '', 'Longest launch delays'),
    el('p', 'detail', 'Every launch, the longest launch_delay first (sort by another column with its header).'));
  const longest = (sheet) => createTable(sheet, { caption: sheet.name, sort: { column: 'launch_delay', descending: true } }).element;
  section.append(launches.length === 1 ? longest(launches[0])
    : tabs(launches.map((sheet) => ({ id: sheet.name, label: sheet.name, count: sheet.rows })), (item, panel) => {
      panel.append(longest(launches.find((sheet) => sheet.name === item.id)));
    }, { label: 'Launches by launch call', selected: context.state.launchTab, onSelect: (id) => { context.state.launchTab = id; } }).element);

  section.append(byAtenOp(context));

  section.append(el('h3', '', 'Launch call against kernel time'),
    el('p', 'detail', 'Each cell counts the launches with that launch call time (across) and GPU time (up). Below the diagonal the kernel ran for less time than its launch call took: launching it costs more than the work it does, so fusing or batching such kernels (or capturing them in a CUDA graph) saves CPU time per step.'));
  section.append(launchCostChart(values('cpu_duration'), values('gpu_duration')));
}

// HTA's aten_op_kernels_and_delay: the launches by the ATen op that made them, with
// the kernels' names (the launch sheets have only correlation ids).
function byAtenOp(context) {
  const wrap = el('div', 'by-aten-op');
  wrap.append(el('h3', '', 'By ATen op'),
    el('p', 'detail', 'Each ATen op with the kernels it launches (kernel_sequence), how often (occurrence_count), how long after the op starts its first kernel is launched (avg_aten_op_launch_delay: CPU time in the op before the launch) and from that launch call\'s start to the kernel\'s start on the GPU (avg_runtime_delay: the launch call plus the launch delay); µs, averages over the occurrences. The longest avg_runtime_delay first.'));
  const found = htaSheet(context, 'aten_op_kernels_and_delay', 'No ATen op in this report launches a kernel.');
  // The delays before the long kernel names, so that they are in sight without scrolling.
  const columns = ['aten_op_name', 'avg_runtime_delay', 'avg_aten_op_launch_delay', 'occurrence_count', 'kernel_sequence', 'rank'];
  const shown = found.sheet ? [...columns, ...found.sheet.columns.map((c) => c.name).filter((n) => !columns.includes(n))] : [];
  wrap.append(found.sheet ? createTable(found.sheet, { caption: found.sheet.name, columns: shown, sort: { column: 'avg_runtime_delay', descending: true } }).element
    : missingNotice(found.why));
  return wrap;
}

// How many launches, and by which calls.
function launchCount(launches, total) {
  const rowsOf = (name) => launches.find((sheet) => sheet.name === name)?.rows ?? 0;
  const hta = `by cudaLaunchKernel, cudaMemcpyAsync or cudaMemsetAsync (HTA's, ${STATS})`;
  const other = `by launch calls HTA does not read (cuLaunchKernel, hipLaunchKernel, cudaGraphLaunch, …: ${OTHER_APIS})`;
  const how = !rowsOf(OTHER_APIS) ? `all ${hta}.` : !rowsOf(STATS) ? `all ${other}.`
    : `${fmtInt(rowsOf(STATS))} ${hta} and ${fmtInt(rowsOf(OTHER_APIS))} ${other}; the charts and outliers count both.`;
  const p = el('p', 'launch-count');
  p.append(el('strong', '', `${fmtInt(total)} launches`), `: ${how}`);
  return p;
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
  // The axis always reaches past the cutoff, so that delays far below it show as such.
  const max = delays.reduce((m, v) => Math.max(m, v), Number.isFinite(cutoff) ? cutoff : 0);
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
  });
  // The axis is labelled at the bins' edges (the ranges are in the table and the titles).
  const every = bins.length > 14 ? 2 : 1;  // past 14 bins every other edge, or the labels touch
  bins.forEach((b, i) => {
    if (b.lo !== -Infinity && i % every === 0) image.append(svg('text', { x: i * bw, y: top + H + 14, 'text-anchor': i ? 'middle' : 'start' }, edgeLabel(b.lo)));
  });
  image.append(svg('text', { x: W, y: top + H + 14, 'text-anchor': 'end' }, edgeLabel(bins.at(-1).hi)));
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

// HTA's three outlier plots, as the core's sheets (over all launches: HTA's and the
// other launch calls').
const OUTLIER_KINDS = [
  { id: 'short', sheet: 'cuda_kernel_launch_short_kernels', sort: 'cpu_duration',
    text: (c) => `kernel shorter than its launch call, the call at most ${usText(c.runtime)} (HTA's short GPU kernels)` },
  { id: 'runtime', sheet: 'cuda_kernel_launch_runtime_outliers', sort: 'cpu_duration',
    text: (c) => `launch call longer than ${usText(c.runtime)} (HTA's runtime outliers)` },
  { id: 'delay', sheet: 'cuda_kernel_launch_delay_outliers', sort: 'launch_delay',
    text: (c) => `launch delay longer than ${usText(c.launchDelay)} (HTA's launch delay outliers)` },
];

function outlierList(context, total, cutoffs) {
  const wrap = el('div', 'outliers');
  const kinds = OUTLIER_KINDS.map((k) => ({ ...k, found: findSheet(context.report.sheets, k.sheet) })).filter((k) => k.found);
  wrap.append(el('p', 'detail', `Cutoffs: launch call ${usText(cutoffs.runtime)}, launch delay ${usText(cutoffs.launchDelay)} (${cutoffs.defaults ? 'HTA\'s defaults' : 'as the report was asked'}; the command-line tool changes them: sollens report --hta-runtime-cutoff-us, --hta-launch-delay-cutoff-us).`));
  if (kinds.length === 0) {
    wrap.append(missingNotice('This report has no outlier sheets of the launches.'));
    return wrap;
  }
  const list = el('ul', 'outlier-counts');
  for (const k of kinds) {
    const li = el('li');
    li.dataset.kind = k.id;
    li.append(el('strong', '', `${fmtInt(k.found.rows)} of ${fmtInt(total)} launches (${shareText((100 * k.found.rows) / (total || 1))})`),
      `: ${k.text(cutoffs)}; sheet ${k.sheet}.`);
    list.append(li);
  }
  wrap.append(list);
  const delayed = kinds.find((k) => k.id === 'delay')?.found.rows ?? 0;
  if (delayed > total / 2) {
    wrap.append(el('p', 'detail queue-note', 'Most launches wait longer than the cutoff: the GPU sets the pace and the CPU queues work ahead of it, so these are not launch problems (the critical path tells the same).'));
  }
  wrap.append(tabs(kinds.map((k) => ({ id: k.id, label: k.sheet, count: k.found.rows })), (item, panel) => {
    const k = kinds.find((x) => x.id === item.id);
    const why = htaSheet(context, k.sheet, 'No launch is an outlier of this kind.');
    panel.append(why.sheet ? createTable(k.found, { caption: k.sheet, sort: { column: k.sort, descending: true } }).element : missingNotice(why.why));
  }, { label: 'Outlier sheets', selected: context.state.outlierTab, onSelect: (id) => { context.state.outlierTab = id; } }).element);
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
  // Drawn at its own size (a few bins must not blow the labels up), at most the page's width.
  image.setAttribute('width', String(Math.round(W * 1.3)));
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
  figure.append(caption, image, cellsTable(grid, labels));
  return figure;
}

// The heat map's cells with launches, as a table (keyboard and screen readers).
function cellsTable(grid, labels) {
  const rows = [];
  grid.forEach((column, x) => column.forEach((c, y) => {
    if (c) rows.push([labels[x], labels[y], fmtInt(c)]);
  }));
  const details = el('details', 'chart-numbers');
  details.append(el('summary', '', 'The cells as a table'),
    plainTable('Launches per launch call time and GPU time bin (µs; a bin holds its lower edge)', ['cpu_duration (µs)', 'gpu_duration (µs)', 'launches'],
      rows, 'numbers launch-cost-cells'));
  return details;
}

// An axis label at a bin edge: 0, 1, 2, 5, 10, …, 1 ms.
const edgeLabel = (us) => (us >= 1e6 ? `${us / 1e6} s` : us >= 1e3 ? `${us / 1e3} ms` : String(us));
