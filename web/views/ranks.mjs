// The ranks view: the rank traces of one run side by side, from the cross-rank sheets
// `sollens report A B … --out DIR` writes (core/api/ranks.h; the worker keeps only each
// rank's summary): GPU time per rank as stacked bars (gpu_timeline_ranks), the
// stragglers (straggler_summary), the skew of each collective (nccl_implicit_sync),
// the other cross-rank sheets, and each rank's own report one click away. The verdict
// comes first (straggler_verdict: which rank, by how much, in which collective), then a
// chart of how late each rank came (rank_lateness), where the straggler is the longest
// bar. Every number is the core's; file names come from the user: text only.

import { fmtFixed } from '../format.mjs';
import { cell, findColumn, findSheet } from '../sheet.mjs';
import { createTable } from '../table.mjs';
import { el, resetSection, tabs } from '../widgets.mjs';

const NS = 'http://www.w3.org/2000/svg';
// The parts of each rank's GPU time that add up to its total (the overview's colours).
const PARTS = [['computation_time', 'computation'], ['exposed_comm_time', 'exposed communication'],
  ['exposed_memcpy_time', 'exposed memcpy'], ['idle_time', 'idle']];
const OTHER_SHEETS = ['rank_lateness', 'straggler_verdict', 'nccl_summary_implicit_sync', 'nccl_summary_long', 'nccl_long', 'comm_comp_overlap',
  'idle_time_breakdown', 'rank_clocks'];

export function render(section, context) {
  resetSection(section, 'Ranks');
  const { ranks, sheets, simplifiedMode, metadataMismatches, skipped } = context.ranks;
  const from = [...new Set(ranks.map((r) => r.rankFrom))].join(', ');
  const about = el('p', 'detail ranks-about',
    `${ranks.length} ranks (numbered from ${from}); collectives matched ${simplifiedMode ? 'by order on one stream' : 'by process group and order'}.` +
    `${metadataMismatches ? ` ${metadataMismatches} rank(s) disagree on a collective's metadata: the first rank's is used.` : ''}` +
    `${skipped.length ? ` Set aside (Execution Traces): ${skipped.join(', ')}.` : ''}` +
    ' The same sheets as sollens report with several traces writes; only each rank\'s summary is kept here.');
  section.append(verdict(findSheet(sheets, 'straggler_verdict')));
  section.append(lateness(findSheet(sheets, 'rank_lateness'), findSheet(sheets, 'straggler_verdict')));
  stragglers(section, findSheet(sheets, 'straggler_summary'));
  section.append(about, pickers());
  section.append(el('h3', '', 'GPU time per rank'),
    el('p', 'detail', 'Each rank\'s GPU timeline from its first to its last GPU event (TraceLens\'s gpu_timeline, one bar per rank on one scale): the parts add up to the rank\'s total. ' +
      'A rank that waits for the straggler shows long exposed communication here: the longest bar is a rank that waited, not the one that was late.'));
  section.append(timelineBars(findSheet(sheets, 'gpu_timeline_ranks')));
  skew(section, findSheet(sheets, 'nccl_implicit_sync'));
  section.append(rankReports(ranks, context));
  const other = OTHER_SHEETS.map((name) => findSheet(sheets, name)).filter(Boolean);
  section.append(el('h3', '', 'The other cross-rank sheets'));
  section.append(tabs(other.map((s) => ({ id: s.name, label: s.name, count: s.rows })),
    (item, panel) => panel.append(createTable(findSheet(sheets, item.id), { caption: item.id }).element),
    { label: 'Cross-rank sheets', selected: context.state.tab, onSelect: (id) => { context.state.tab = id; } }).element);
}

// Another set of rank traces (open.mjs listens to these ids).
function pickers() {
  const p = el('p', 'rank-pickers');
  const files = el('button', '', 'Choose rank traces…');
  files.type = 'button';
  files.id = 'ranks-choose-files';
  const folder = el('button', '', 'Choose a folder…');
  folder.type = 'button';
  folder.id = 'ranks-choose-folder';
  const fileInput = el('input');
  Object.assign(fileInput, { type: 'file', id: 'ranks-file-input', accept: '.json,.gz,application/json,application/gzip', multiple: true, hidden: true });
  const folderInput = el('input');
  Object.assign(folderInput, { type: 'file', id: 'ranks-folder-input', hidden: true });
  folderInput.setAttribute('webkitdirectory', '');
  p.append(files, ' ', folder, fileInput, folderInput);
  return p;
}

// One stacked bar per rank, all on the scale of the longest total.
function timelineBars(sheet) {
  const figure = el('figure', 'chart rank-bars');
  if (!sheet || !sheet.rows) {
    figure.append(el('p', 'empty-state', 'No GPU timeline in these traces.'));
    return figure;
  }
  const rankColumn = findColumn(sheet, 'rank');
  const ms = (part, row) => cell(findColumn(sheet, `${part} ms`), row) ?? 0;
  const longest = Math.max(...Array.from({ length: sheet.rows }, (_, r) => ms('total_time', r)), 1e-12);
  const BAR = 22;
  const GAP = 6;
  const LABEL = 70;
  const WIDTH = 600;
  const svg = document.createElementNS(NS, 'svg');
  const height = sheet.rows * (BAR + GAP);
  svg.setAttribute('viewBox', `0 0 ${LABEL + WIDTH} ${height}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-labelledby', 'rank-bars-title');
  svg.style.height = `${height}px`;
  const title = document.createElementNS(NS, 'title');
  title.id = 'rank-bars-title';
  title.textContent = 'GPU time per rank: computation, exposed communication, exposed memcpy and idle';
  svg.append(title);
  for (let r = 0; r < sheet.rows; r++) {
    const y = r * (BAR + GAP);
    const label = document.createElementNS(NS, 'text');
    label.setAttribute('x', '0');
    label.setAttribute('y', String(y + BAR * 0.72));
    label.setAttribute('class', 'rank-label');
    label.textContent = `rank ${cell(rankColumn, r)}`;
    const g = document.createElementNS(NS, 'g');
    g.dataset.rank = String(cell(rankColumn, r));
    g.append(label);
    let x = LABEL;
    for (const [part, name] of PARTS) {
      const width = (ms(part, r) / longest) * WIDTH;
      if (width <= 0) continue;
      const rect = document.createElementNS(NS, 'rect');
      rect.setAttribute('x', String(x));
      rect.setAttribute('y', String(y));
      rect.setAttribute('width', String(width));
      rect.setAttribute('height', String(BAR));
      rect.setAttribute('class', `part-${part}`);
      rect.dataset.ms = String(ms(part, r));
      const tip = document.createElementNS(NS, 'title');
      tip.textContent = `rank ${cell(rankColumn, r)}, ${name}: ${fmtFixed(ms(part, r), 3)} ms of ${fmtFixed(ms('total_time', r), 3)} ms`;
      rect.append(tip);
      g.append(rect);
      x += width;
    }
    svg.append(g);
  }
  const legend = el('ul', 'legend');
  for (const [part, name] of PARTS) {
    const li = el('li');
    const swatch = el('span', `swatch part-${part}`);
    swatch.setAttribute('aria-hidden', 'true');
    li.append(swatch, name);
    legend.append(li);
  }
  const caption = el('figcaption');
  caption.append(legend);
  figure.append(svg, caption);
  const table = createTable(sheet, { caption: 'gpu_timeline_ranks',
    columns: ['rank', ...PARTS.map(([part]) => `${part} ms`), 'total_time ms', 'total_comm_time ms', 'idle_time %'] });
  const wrap = el('div');
  wrap.append(figure, table.element);
  return wrap;
}

// The core's sentence: the straggler, how long the others waited for it, where.
function verdict(sheet) {
  const text = sheet && sheet.rows ? cell(findColumn(sheet, 'verdict'), 0) : null;
  const p = el('p', 'ranks-verdict', text ?? 'No collective is matched across these ranks: no straggler to name.');
  if (text) p.dataset.rank = String(cell(findColumn(sheet, 'rank'), 0));
  return p;
}

// How late each rank started the collectives, summed (rank_lateness), the straggler's
// bar marked: the latest rank is the longest bar.
function lateness(sheet, verdictSheet) {
  const figure = el('figure', 'chart rank-lateness');
  if (!sheet || !sheet.rows) return figure;
  const straggler = verdictSheet && verdictSheet.rows ? cell(findColumn(verdictSheet, 'rank'), 0) : null;
  const rankColumn = findColumn(sheet, 'rank');
  const lateColumn = findColumn(sheet, 'late_ms');
  const longest = Math.max(...Array.from({ length: sheet.rows }, (_, r) => cell(lateColumn, r) ?? 0), 1e-12);
  const heading = el('figcaption', 'chart-title', 'How late each rank started the collectives: Σ (its start − the first rank\'s start), ms. The straggler is the longest bar.');
  const list = el('ol', 'lateness-bars');
  list.setAttribute('aria-label', 'How late each rank started the collectives, in ms');
  for (let r = 0; r < sheet.rows; r++) {
    const rank = cell(rankColumn, r);
    const value = cell(lateColumn, r) ?? 0;
    const li = el('li', rank === straggler ? 'straggler' : '');
    li.dataset.rank = String(rank);
    const track = el('span', 'skew-track');
    const bar = el('span', 'skew-bar');
    bar.style.width = `${(value / longest) * 100}%`;
    bar.setAttribute('aria-hidden', 'true');
    track.append(bar);
    li.append(el('span', 'skew-label', `rank ${rank}${rank === straggler ? ' (straggler)' : ''}`), track,
      el('span', 'skew-value', `${fmtFixed(value, 3)} ms`));
    list.append(li);
  }
  figure.append(heading, list);
  return figure;
}

function stragglers(section, sheet) {
  section.append(el('h3', '', 'Stragglers'),
    el('p', 'detail', 'Per rank, how long it waited for the others at the implicit-sync collectives (TraceLens\'s straggler_summary): the rank with the least total wait arrived last most often and is listed first.'));
  if (!sheet || !sheet.rows) return section.append(el('p', 'empty-state', 'No collective is matched across these ranks.'));
  const t = createTable(sheet, { caption: 'straggler_summary' });
  t.element.classList.add('straggler-table');
  section.append(t.element);
}

// The skew of each collective: how much later the last rank started it than the first.
function skew(section, sheet) {
  section.append(el('h3', '', 'Collective skew'),
    el('p', 'detail', 'Each implicit-sync collective matched across the ranks (TraceLens\'s nccl_implicit_sync): skew in start time = the last rank\'s start − the first\'s, in µs; comm_latency = the fastest rank\'s kernel.'));
  if (!sheet || !sheet.rows) return section.append(el('p', 'empty-state', 'No implicit-sync collective (all-reduce, all-gather, reduce-scatter, all-to-all) is matched across these ranks.'));
  const skewColumn = findColumn(sheet, 'skew in start time');
  const idColumn = findColumn(sheet, 'collective_id');
  const nameColumn = findColumn(sheet, 'Collective name');
  const largest = Math.max(...Array.from({ length: sheet.rows }, (_, r) => cell(skewColumn, r) ?? 0), 1e-12);
  const list = el('ol', 'skew-bars');
  list.setAttribute('aria-label', 'Skew in start time per collective');
  for (let r = 0; r < sheet.rows; r++) {
    const value = cell(skewColumn, r) ?? 0;
    const li = el('li');
    const label = el('span', 'skew-label', `${cell(idColumn, r)} ${cell(nameColumn, r) ?? 'Unknown'}`);
    const bar = el('span', 'skew-bar');
    bar.style.width = `${(value / largest) * 100}%`;
    bar.setAttribute('aria-hidden', 'true');
    const track = el('span', 'skew-track');
    track.append(bar);
    li.append(label, track, el('span', 'skew-value', `${fmtFixed(value, value >= 100 ? 0 : 1)} µs`));
    list.append(li);
  }
  section.append(list, createTable(sheet, { caption: 'nccl_implicit_sync',
    columns: ['collective_id', 'Collective name', 'dtype', 'Full msg size (MB)', 'comm_latency', 'skew in start time',
      'earliest arrival rank', 'avg_wait_time', 'skew in end time', 'algo bw (GB/s)', 'bus bw (GB/s)'] }).element);
}

// Each rank's own report: the file is read again and shown as one trace is.
function rankReports(ranks, context) {
  const wrap = el('div', 'rank-reports');
  wrap.append(el('h3', '', 'Each rank\'s report'),
    el('p', 'detail', 'Opens the rank\'s trace as a report of its own (the Ranks view stays, one click away in the menu).'));
  const list = el('ul', 'rank-list');
  for (const r of ranks) {
    const li = el('li');
    li.dataset.rank = String(r.rank);
    const b = el('button', '', `Open rank ${r.rank}'s report`);
    b.type = 'button';
    b.addEventListener('click', () => context.openRank(r.file));
    li.append(b, ' ', el('span', 'rank-file', r.file));
    if (context.shownName === r.file) li.append(' ', el('span', 'detail', '(shown now)'));
    list.append(li);
  }
  wrap.append(list);
  return wrap;
}
