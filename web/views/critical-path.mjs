// The critical-path view: what the step is bound by. A verdict first (the largest class
// of the path and its share, in words), then HTA's path and the one sollens infers from
// the runtime's sync calls side by side (each a bar of its classes), a line saying which
// to trust, and each path's breakdown (one row per event or edge of the path).
// Sheets (HTA's names): critical_path_summary / critical_path_breakdown and
// critical_path_inferred_summary / critical_path_inferred_breakdown. Event names come
// from the trace: text only.

import { createTable } from '../table.mjs';
import { cell, findColumn, findSheet } from '../sheet.mjs';
import { el, resetSection, tabs } from '../widgets.mjs';
import { fmtInt } from '../format.mjs';
import { htaSheet, missingNotice, plainTable, shareText, svg, svgImage } from './hta-common.mjs';

// HTA's classes, in the bar's order, with what each means in words.
export const CLASSES = [
  { id: 'cpu_bound', label: 'CPU ops', verdict: 'CPU-bound',
    hint: 'The GPU waits for the CPU to issue work: fewer, larger kernels (fusion, torch.compile), CUDA graphs or less Python per step shorten this path.' },
  { id: 'gpu_compute_bound', label: 'GPU kernels', verdict: 'GPU-bound',
    hint: 'The kernels themselves set the pace: faster kernels, or less GPU work, shorten the step.' },
  { id: 'gpu_communication_bound', label: 'GPU communication (NCCL kernels)', verdict: 'Communication-bound',
    hint: 'Collectives set the pace: overlapping them with computation, or moving less data, shortens the step.' },
  { id: 'gpu_kernel_kernel_overhead', label: 'gaps between kernels', verdict: 'Bound by gaps between kernels',
    hint: 'The GPU idles between back-to-back kernels on a stream: fusing small kernels or CUDA graphs remove these gaps.' },
  { id: 'gpu_kernel_launch_overhead', label: 'kernel launch delays', verdict: 'Launch-bound',
    hint: 'Kernels wait between their launch call and their start: fewer launches (fusion, CUDA graphs) shorten this path.' },
  { id: '', label: 'zero-length dependencies', verdict: 'Dependencies', hint: '' },
];
const classOf = (id) => CLASSES.find((c) => c.id === id) ?? { id, label: id, verdict: `Bound by ${id}`, hint: '' };

const PATHS = [
  { id: 'inferred', summary: 'critical_path_inferred_summary', breakdown: 'critical_path_inferred_breakdown',
    title: 'Inferred path (with the runtime\'s sync calls)', short: 'inferred path' },
  { id: 'hta', summary: 'critical_path_summary', breakdown: 'critical_path_breakdown',
    title: 'HTA\'s path (sees CUDA sync events only)', short: 'HTA\'s path' },
];

const ABSENT = 'No critical path in this report: the trace has no GPU events, the chosen step was not found, or the report was made without one (the command line\'s sollens report --critical-path none).';

export function render(section, context) {
  resetSection(section, 'Critical path');
  section.append(el('p', 'detail', 'The longest chain of dependent work through the step: CPU ops, kernel launches, kernels and the waits between them (HTA\'s critical_path_analysis). Only what is on this path makes the step longer. It covers the second ProfilerStep where the trace has two or more, else the first, else the whole trace (the command-line tool chooses another with sollens report --critical-path, and writes the trace with the path drawn on it for Perfetto UI with --critical-path-trace).'));

  const hta = htaSheet(context, 'critical_path_summary', ABSENT);
  if (!hta.sheet) {
    section.append(missingNotice(hta.why, 'no-critical-path', hta.pending));
    return;
  }
  const inferredSheet = findSheet(context.report.sheets, 'critical_path_inferred_summary');
  const paths = PATHS.map((p) => ({ ...p, summary: findSheet(context.report.sheets, p.summary),
    breakdown: findSheet(context.report.sheets, p.breakdown) }))
    .filter((p) => p.summary && p.summary.rows > 0);
  const sync = syncEvents(context.info);
  // The inferred path is HTA's with the waits of the blocking calls that have no CUDA
  // sync event added (core/analyses/hta/critical_path): never less informed than HTA's.
  const trusted = inferredSheet?.rows ? 'inferred' : 'hta';
  paths.sort((a, b) => (a.id === trusted ? -1 : b.id === trusted ? 1 : 0));

  const main = paths[0];
  // With CUDA sync events the two paths are HTA's alike: neither is singled out.
  const source = paths.length < 2 ? null : sync ? `Read from the ${main.short}, which with this trace's CUDA sync events is HTA's own (below).`
    : `Read from the ${main.short}, the one to trust for this trace (below).`;
  section.append(verdictBlock(summaryShares(main.summary), source));
  section.append(trustNote(paths, trusted, sync));

  const sideBySide = el('div', 'cp-paths');
  for (const p of paths) sideBySide.append(pathCard(p, p.id === trusted && paths.length > 1 && !sync));
  section.append(sideBySide);

  section.append(el('h3', '', 'Breakdown'),
    el('p', 'detail', 'One row per event or edge of the path, in path order: s_name is the event; type says whether it is a CPU op or kernel (critical_path_operator) or an edge between two (a launch delay, a gap between kernels, a dependency, a sync: the CPU waiting for the GPU); duration in µs; bound_by its class. Sort by duration to find the longest stretches. HTA\'s internal ids (cat, event_idx, index) come last.'));
  section.append(breakdownTabs(context, paths));
}

// Each path's breakdown in the table widget, a tab each (the trusted path's first).
function breakdownTabs(context, paths) {
  const withRows = paths.filter((p) => p.breakdown);
  if (withRows.length === 0) return missingNotice('This report has the summary of the path but not its breakdown.');
  return tabs(withRows.map((p) => ({ id: p.id, label: p.title, count: p.breakdown.rows })), (item, panel) => {
    const p = withRows.find((x) => x.id === item.id);
    const why = htaSheet(context, p.breakdown.name, 'This path has no events.');
    panel.append(why.sheet ? createTable(p.breakdown, { caption: p.breakdown.name, columns: breakdownColumns(p.breakdown) }).element
      : missingNotice(why.why));
  }, { label: 'Which path\'s breakdown', selected: context.state.breakdownTab, onSelect: (id) => { context.state.breakdownTab = id; } }).element;
}

// The breakdown's columns with what a reader scans first in front: the event, its kind,
// duration and class; HTA's internal ids (event_idx, index, cat) last. Any column the
// core adds is kept, after these.
const BREAKDOWN_ORDER = ['s_name', 'type', 'duration', 'bound_by', 'stream', 'pid', 'tid', 'cat', 'event_idx', 'index'];
function breakdownColumns(sheet) {
  const names = sheet.columns.map((c) => c.name);
  return [...BREAKDOWN_ORDER.filter((n) => names.includes(n)), ...names.filter((n) => !BREAKDOWN_ORDER.includes(n))];
}

// [{id, share}] of a summary sheet (bound_by, duration = % of the path), largest first.
export function summaryShares(sheet) {
  const by = findColumn(sheet, 'bound_by');
  const duration = findColumn(sheet, 'duration');
  const out = [];
  for (let r = 0; r < sheet.rows; r++) out.push({ id: cell(by, r) ?? '', share: cell(duration, r) ?? 0 });
  return out.sort((a, b) => b.share - a.share);
}

// Two classes this close (percentage points) are named together rather than one "bound".
const SPLIT_POINTS = 5;

// "CPU-bound: 97% of the critical path is CPU ops", the runner-up, and what it means.
export function verdictText(unordered) {
  const shares = [...unordered].sort((a, b) => b.share - a.share);
  const top = shares.find((s) => s.id !== '' && s.share > 0);
  if (!top) return { headline: 'The critical path has no length: every edge on it is zero-length.', detail: '', hint: '' };
  const c = classOf(top.id);
  const next = shares.find((s) => s !== top && s.id !== '' && s.share > 0);
  if (next && top.share - next.share < SPLIT_POINTS) {
    const n = classOf(next.id);
    return {
      headline: `Split between ${c.label} and ${n.label}: ${shareText(top.share)} and ${shareText(next.share)} of the critical path.`,
      detail: '', hint: `Neither alone sets the pace: shortening one leaves the other. ${c.hint} ${n.hint}`,
    };
  }
  return {
    headline: `${c.verdict}: ${shareText(top.share)} of the critical path is ${c.label}.`,
    detail: next ? `Next: ${classOf(next.id).label}, ${shareText(next.share)}.` : '',
    hint: c.hint,
  };
}

function verdictBlock(shares, source) {
  const { headline, detail, hint } = verdictText(shares);
  const box = el('div', 'cp-verdict');
  box.setAttribute('role', 'status');
  box.append(el('p', 'verdict', headline));
  const more = [detail, hint].filter(Boolean).join(' ');
  if (more) box.append(el('p', 'detail', more));
  if (source) box.append(el('p', 'detail cp-verdict-source', source));
  return box;
}

// How many CUDA sync events the trace has (cat cuda_sync), or null when unknown.
function syncEvents(info) {
  const categories = info?.eventsByCategory;
  if (!Array.isArray(categories)) return null;
  return categories.reduce((n, [cat, count]) => (cat === 'cuda_sync' ? n + count : n), 0);
}

// Which path to trust, and why, in one line (core/analyses/hta/README.md, "Which path
// to trust").
function trustNote(paths, trusted, sync) {
  let text;
  if (paths.length > 1 && sync) {
    text = `Both paths are HTA's here: this trace has ${fmtInt(sync)} CUDA sync events, which HTA's graph follows from the GPU back to the CPU; the inferred path only adds the waits of blocking calls that have no sync event.`;
  } else if (paths.length > 1) {
    text = `Trust the inferred path. This trace has no CUDA sync events${sync === null ? ' (or the report does not say)' : ''} (PyTorch records them only with enable_cuda_sync_events=True), so HTA's path cannot see the CPU waiting for the GPU: a wait in a sync call drops out and the step reads CPU-bound however long the GPU ran. The inferred path adds those waits from the runtime's blocking calls (cudaDeviceSynchronize, cudaStreamSynchronize, synchronous copies, …); it goes by timing, so a GPU event that happens to end inside a call that did not wait is taken as waited for.`;
  } else if (sync === 0) {
    text = 'Read this with care: the trace has no CUDA sync events, so HTA\'s path cannot see the CPU waiting for the GPU (a wait in a sync call counts as CPU work), and this report has no inferred path to compare with.';
  } else {
    text = 'Only HTA\'s path is in this report.';
  }
  if (paths.length > 1 && sameShares(paths[0].summary, paths[1].summary)) text += ' Here the two paths split the same way.';
  const p = el('p', 'notice cp-trust', text);
  p.setAttribute('role', 'note');
  return p;
}

// Whether two summaries give every class the same share, as the page shows it.
function sameShares(a, b) {
  const shown = (sheet) => summaryShares(sheet).map((x) => `${x.id}:${shareText(x.share)}`).sort().join();
  return shown(a) === shown(b);
}

// One path: its title, verdict, a bar of its classes and their shares as a table.
function pathCard(path, isTrusted) {
  const card = el('section', 'cp-path');
  const titleId = `cp-path-${path.id}`;
  card.setAttribute('aria-labelledby', titleId);
  const h3 = el('h3', '', path.title);
  h3.id = titleId;
  if (isTrusted) h3.append(' ', el('span', 'badge', 'trusted'));
  const shares = summaryShares(path.summary);
  card.append(h3, el('p', 'cp-card-verdict', verdictText(shares).headline), classBar(shares, path.title));
  const ordered = CLASSES.map((c) => shares.find((s) => s.id === c.id)).filter(Boolean)
    .concat(shares.filter((s) => !CLASSES.some((c) => c.id === s.id)));
  card.append(plainTable(`${path.summary.name} (% of the path)`, ['class (bound_by)', 'share of the path'],
    ordered.map((s) => [classCell(s.id), shareText(s.share)]), 'numbers cp-classes'));
  return card;
}

function classCell(id) {
  const span = el('span');
  const swatch = el('span', `swatch cp-${id || 'none'}`);
  swatch.setAttribute('aria-hidden', 'true');
  span.append(swatch, `${classOf(id).label} (${id || '""'})`);
  return span;
}

// One stacked bar of the classes (drawn left to right in CLASSES order).
function classBar(shares, title) {
  const W = 600;
  const H = 28;
  const image = svgImage('cp-bar', W, H, `${title}: ${shares.filter((s) => s.share > 0).map((s) => `${classOf(s.id).label} ${shareText(s.share)}`).join(', ')}`);
  let x = 0;
  const total = shares.reduce((t, s) => t + Math.max(0, s.share), 0) || 100;
  for (const c of [...CLASSES, ...shares.filter((s) => !CLASSES.some((k) => k.id === s.id))]) {
    const s = shares.find((v) => v.id === c.id);
    if (!s || !(s.share > 0)) continue;
    const w = Math.max(1, (s.share / total) * W);
    const rect = svg('rect', { x, y: 0, width: w, height: H, class: `cp-${c.id || 'none'}` });
    rect.append(svg('title', {}, `${classOf(c.id).label}: ${shareText(s.share)}`));
    image.append(rect);
    x += w;
  }
  const figure = el('figure', 'chart cp-bar-figure');
  figure.append(image);
  return figure;
}
