// The compare view: the shown trace (the variant) against another run (the baseline),
// as `sollens diff` compares them (core/api/compare.h): GPU time by type, ops ranked
// by their change (slower first), the op-tree diff with a drill-down by call path,
// and the cycle diff. Every number is the core's; this view only picks rows and
// orders tables. Op names, paths and file names come from traces: text only.

import { createTable } from '../table.mjs';
import { findSheet, findColumn, cell, rowsWhere, subsetSheet } from '../sheet.mjs';
import { formatNumber } from '../units.mjs';
import { el, resetSection } from '../widgets.mjs';

const PATH_SEPARATOR = ' > ';  // how the core joins an op-tree path's names
const DEFAULT_NAMES = ['baseline', 'variant'];

export function render(section, context) {
  resetSection(section, 'Compare');
  section.append(chooser(context));
  const { comparison } = context;
  if (!comparison && context.comparisonPending) {
    const p = el('p', 'empty-state', 'Comparing the two runs…');
    p.setAttribute('role', 'status');
    section.append(p);
    return;
  }
  if (!comparison) {
    section.append(el('p', context.comparisonError ? 'error' : 'empty-state', context.comparisonError ??
      'No second run yet. Compare this trace with another one (it becomes the baseline and the other the variant), ' +
      'or drop two traces on the page at once.'));
    return;
  }
  const sheets = comparison.sheets;
  // The runs' names in the compared columns (sollens diff --names; the core's defaults
  // baseline, variant): `${baseTag}::metric`, `metric__${tag}_diff`.
  const [baseTag, tag] = comparison.names ?? DEFAULT_NAMES;
  const labels = columnWords(baseTag, tag);
  const verdict = headline(findSheet(sheets, 'compare_verdict'));
  if (verdict) section.append(verdict);
  section.append(runs(comparison, context, findSheet(sheets, 'compare_runs')));
  timeline(section, findSheet(sheets, 'gpu_timeline'), labels, baseTag, tag);
  ops(section, findSheet(sheets, 'ops_summary'), findSheet(sheets, 'compare_runs'), labels, tag);
  opTree(section, findSheet(sheets, 'op_tree_diff'), labels, baseTag, tag, context.state, `${comparison.baseline}\u0001${comparison.variant}`);
  cycles(section, sheets, labels, tag);
}

// The headline the core words by the runs' names ("mi300x is 10.5 % faster than h100: …");
// null when the comparison has none (a link that left the sheet out).
function headline(sheet) {
  const text = sheet && sheet.rows ? cell(findColumn(sheet, 'headline'), 0) : null;
  if (text === null) return null;
  const p = el('p', 'compare-headline', text);
  const change = cell(findColumn(sheet, 'wall_time_change_pct'), 0);
  if (change !== null) p.dataset.changePct = String(change);
  return p;
}

// Column names in words: `${base}::m` → "m, base"; `m__${tag}_diff` → "m: change, base → tag";
// `m__${tag}_pct` → "m: change %". The CSV (and sollens diff's) keep the machine names,
// which --fail-if SHEET[KEY].COLUMN and scripts read.
const METRIC_WORDS = {
  'time ms': 'time', total_direct_kernel_time_ms: 'GPU kernel time', Count: 'calls', count: 'calls',
  gpu_time_us: 'GPU time', latency_us: 'latency', kernel_time_us: 'kernel time', avg_us: 'mean time',
  percent: 'share of total', type: 'part of GPU time', name: 'op', status: 'change', path: 'call path',
  share_of_total_pct: 'change as a share of the baseline\'s GPU time', total_subtree_kernel_time_ms: 'GPU time with callees',
  total_direct_kernel_time_sum: 'GPU kernel time (µs)', total_subtree_kernel_time_sum: 'GPU time with callees (µs)',
  Categories: 'categories', 'Percentage (%)': 'share of GPU time (%)', 'Cumulative Percentage (%)': 'cumulative share (%)',
  repetitions: 'repetitions', kernels: 'kernels', pattern: 'pattern', phase: 'phase', level: 'level', position: 'position',
  signature: 'kernel signature', kernel_name: 'kernel', depth: 'depth',
};
const metricWords = (m) => METRIC_WORDS[m] ?? m.replaceAll('_', ' ').replace(/ (ms|us|pct)$/, '');

export function columnWords(baseTag, tag) {
  return (name) => {
    if (name.endsWith(`__${tag}_diff`)) return `${metricWords(name.slice(0, -`__${tag}_diff`.length))}: change, ${baseTag} → ${tag}`;
    if (name.endsWith(`__${tag}_pct`)) return `${metricWords(name.slice(0, -`__${tag}_pct`.length))}: change %`;
    for (const run of [baseTag, tag])
      if (name.startsWith(`${run}::`)) return `${metricWords(name.slice(run.length + 2))}, ${run}`;
    return metricWords(name);
  };
}

// "Compare with…": the shown trace becomes the baseline, the chosen file the variant.
function chooser(context) {
  const wrap = el('div', 'compare-chooser');
  const input = el('input');
  input.type = 'file';
  input.accept = '.json,.gz,application/json,application/gzip';
  input.hidden = true;
  input.id = 'compare-file-input';
  const button = el('button', '', 'Compare with…');
  button.type = 'button';
  button.id = 'compare-with';
  button.disabled = context.shared;
  button.addEventListener('click', () => input.click());
  input.addEventListener('change', () => {
    const file = input.files[0];
    input.value = '';
    if (file) context.openToCompare(file);
  });
  wrap.append(button, input, el('span', 'detail', context.shared
    ? ' This report came from a link: open its trace to compare it with another run.'
    : ` Opens another trace and compares it with ${context.name} (the baseline).`));
  return wrap;
}

// Which run is which: each run's name, role, device and file, its wall time and GPU
// time (the core's compare_runs), and a button to swap them.
function runs(comparison, context, facts) {
  const wrap = el('div', 'compare-runs');
  const names = comparison.names ?? DEFAULT_NAMES;
  const files = [comparison.baseline, comparison.variant];
  const cards = el('div', 'compare-run-cards');
  [0, 1].forEach((i) => cards.append(runCard(facts, i, names[i], files[i])));
  const swap = el('button', '', 'Swap baseline and variant');
  swap.type = 'button';
  swap.id = 'compare-swap';
  swap.disabled = context.shared;
  swap.addEventListener('click', () => {
    // Names given to the runs go with them; the default names stay in place.
    const given = names[0] !== DEFAULT_NAMES[0] || names[1] !== DEFAULT_NAMES[1];
    if (context.requestComparison({ swapped: !comparison.swapped, names: given ? [names[1], names[0]] : names }))
      swap.disabled = true;
  });
  wrap.append(cards, nameFields(comparison, names, context), swap, el('p', 'detail',
    `Changes are ${names[1]} − ${names[0]} (the variant − the baseline): positive is slower. Every compared sheet (also the per-op splits and the ` +
    'op-name diff) is written by sollens diff BASE NEW --names on the command line.'));
  return wrap;
}

// One run: its name and role, device, file, and its times as the core measured them.
function runCard(facts, i, name, file) {
  const card = el('section', 'compare-run');
  card.dataset.role = i === 0 ? 'baseline' : 'variant';
  const value = (column) => (facts && facts.rows > i ? cell(findColumn(facts, column), i) : null);
  const heading = el('h3', 'compare-run-name');
  const role = i === 0 ? 'baseline' : 'variant';
  heading.append(el('span', 'run-name', name));
  if (name !== role) heading.append(el('span', 'run-role', ` (the ${role})`));
  const device = el('p', 'compare-run-device', value('device') ?? 'device unknown');
  device.dataset.role = card.dataset.role;
  const list = el('dl', 'facts');
  const ms = (x) => (x === null ? '—' : `${formatNumber(x, 'float', 'ms')} ms`);
  const noLaunch = value('no_launch_in_trace');
  const noLaunchPct = value('no_launch_in_trace_pct');
  for (const [term, text, key, raw] of [
    ['File', file, 'file', null],
    ['Wall time (GPU, idle included)', ms(value('wall_time')), 'wall', value('wall_time')],
    ['GPU busy', ms(value('gpu_busy_time')), 'busy', value('gpu_busy_time')],
    ['GPU time (all kernels, memcpy, memset)', ms(value('gpu_time')), 'gpu', value('gpu_time')],
    ['Kernels with no launch in the trace', noLaunch === null ? '—'
      : `${ms(noLaunch)}${noLaunchPct === null ? '' : ` (${formatNumber(noLaunchPct, 'float', '%')} % of GPU time)`}`, 'no-launch', noLaunch],
  ]) {
    const dd = el('dd', '', text);
    dd.dataset.fact = key;
    if (raw !== null) dd.dataset.value = String(raw);  // the core's number, for checks
    list.append(el('dt', '', term), dd);
  }
  card.append(heading, device, list);
  return card;
}

// The runs' names in the compared columns, as sollens diff --names BASE,NEW.
function nameFields(comparison, names, context) {
  const form = el('form', 'compare-names');
  form.setAttribute('aria-label', 'Names of the runs');
  const field = (id, text, value) => {
    const label = el('label', '', text);
    label.htmlFor = id;
    const input = el('input');
    Object.assign(input, { id, type: 'text', value, required: true, spellcheck: false, disabled: context.shared });
    input.maxLength = 100;
    label.append(input);
    return [label, input];
  };
  const [baseLabel, baseInput] = field('compare-name-baseline', 'Baseline\'s name', names[0]);
  const [variantLabel, variantInput] = field('compare-name-variant', 'Variant\'s name', names[1]);
  const apply = el('button', '', 'Rename');
  apply.type = 'submit';
  apply.id = 'compare-rename';
  apply.disabled = context.shared;
  const problem = el('span', 'detail compare-names-problem');
  problem.setAttribute('role', 'status');
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const wanted = [baseInput.value.trim(), variantInput.value.trim()];
    // The core refuses the same names --names refuses; say why here at once.
    const why = !wanted[0] || !wanted[1] ? 'Give each run a name.' : wanted[0] === wanted[1] ? 'The two names must differ.'
      : wanted.some((n) => n.includes('::') || n.includes(',')) ? 'A name cannot contain "::" or a comma.' : '';
    problem.textContent = why;
    if (!why && context.requestComparison({ swapped: comparison.swapped, names: wanted })) apply.disabled = true;
  });
  form.append(baseLabel, variantLabel, apply, problem);
  return form;
}

function timeline(section, sheet, labels, baseTag, tag) {
  section.append(el('h3', '', 'GPU time'),
    el('p', 'detail', 'TraceLens\'s GPU timeline of each run: the GPU events launched from the trace only (the runs\' wall time above counts every GPU event).'));
  if (!sheet) return section.append(el('p', 'empty-state', 'One of the runs has no GPU timeline.'));
  const total = totalTime(sheet, baseTag, tag);
  if (total) section.append(total);
  section.append(createTable(sheet, { caption: `GPU time by part, ${baseTag} and ${tag}`, labels, sort: { column: `time ms__${tag}_diff`, descending: true } }).element);
}

// One line: the total time of both runs and its change, the core's numbers as shown.
function totalTime(sheet, baseTag, tag) {
  const [row] = rowsWhere(sheet, 'type', (v) => v === 'total_time');
  if (row === undefined) return null;
  const value = (name) => cell(findColumn(sheet, name), row);
  const [base, variant, diff, pct] = [`${baseTag}::time ms`, `${tag}::time ms`, `time ms__${tag}_diff`, `time ms__${tag}_pct`].map(value);
  if (base === null || variant === null) return null;
  const ms = (x) => formatNumber(x, 'float', 'ms');
  const change = `${diff > 0 ? '+' : ''}${ms(diff)} ms${pct === null ? '' : ` (${pct > 0 ? '+' : ''}${formatNumber(pct, 'float', '%')} %)`}`;
  const p = el('p', 'compare-total', `GPU timeline, first to last launched GPU event: ${baseTag} ${ms(base)} ms → ${tag} ${ms(variant)} ms, ${change}.`);
  p.dataset.diff = String(diff);
  return p;
}

function ops(section, sheet, facts, labels, tag) {
  section.append(el('h3', '', 'Ops that got slower'),
    el('p', 'detail', 'Every op name in either run, by the change of its GPU kernel time (slower first); an op in one run only has the other\'s columns empty. ' +
      'GPU time no op launched has a row of its own, so the ops add up to each run\'s GPU time.'));
  if (!sheet) return section.append(el('p', 'empty-state', 'One of the runs has no CPU ops (a GPU-only trace).'));
  section.append(unlaunchedNote(facts));
  const metric = 'total_direct_kernel_time_ms';
  const t = createTable(sheet, { caption: 'Ops compared', labels, sort: { column: `${metric}__${tag}_diff`, descending: true } });
  t.element.classList.add('compare-ops');
  section.append(t.element);
}

// How much GPU time had no launch in each run's trace (compare_runs), in words.
function unlaunchedNote(facts) {
  const p = el('p', 'compare-unlaunched');
  if (!facts || !facts.rows) return p;
  const parts = [];
  for (let i = 0; i < facts.rows; i++) {
    const name = cell(findColumn(facts, 'run'), i);
    const ms = cell(findColumn(facts, 'no_launch_in_trace'), i);
    const pct = cell(findColumn(facts, 'no_launch_in_trace_pct'), i);
    parts.push(ms === null ? `${name}: not known (a stored report)`
      : `${name}: ${formatNumber(ms, 'float', 'ms')} ms${pct === null ? '' : ` (${formatNumber(pct, 'float', '%')} % of its GPU time)`}`);
  }
  p.textContent = `Kernels with no launch in the trace (no op to charge them to; in the row "(kernels with no launch in the trace)"): ${parts.join('; ')}.`;
  return p;
}

// The op-tree diff: the roots first, choosing a row shows the paths under it.
function opTree(section, sheet, labels, baseTag, tag, state, runsKey) {
  section.append(el('h3', '', 'Call paths'),
    el('p', 'detail', 'The two host call trees merged (ops matched by name in start order) with the GPU time launched under each path. ' +
      'Kernels with no launch in the trace are in no call path. Choose a row to see the paths under it.'));
  if (!sheet || !sheet.rows) return section.append(el('p', 'empty-state', 'The runs have no host call tree to compare.'));
  const pathColumn = findColumn(sheet, 'path');
  const depthColumn = findColumn(sheet, 'depth');
  const crumbs = el('ol', 'crumbs');
  const nav = el('nav');
  nav.setAttribute('aria-label', 'Call path drill-down');
  nav.append(crumbs);
  const level = el('div', 'level compare-tree');
  section.append(nav, level);

  const rowsUnder = (parent) => {
    const depth = parent === null ? 0 : cell(depthColumn, parent) + 1;
    const prefix = parent === null ? '' : cell(pathColumn, parent) + PATH_SEPARATOR;
    const rows = [];
    for (let r = 0; r < sheet.rows; r++)
      if (cell(depthColumn, r) === depth && cell(pathColumn, r).startsWith(prefix)) rows.push(r);
    return rows;  // the sheet's order: largest |change| first
  };

  const show = (trail) => {
    state.treeTrail = trail;
    crumbs.replaceChildren();
    const items = [{ label: 'All roots', trail: [] },
      ...trail.map((r, i) => ({ label: cell(findColumn(sheet, 'name'), r), trail: trail.slice(0, i + 1) }))];
    items.forEach((item, i) => {
      const li = el('li');
      if (i === items.length - 1) {
        const here = el('span', '', item.label);
        here.setAttribute('aria-current', 'location');
        li.append(here);
      } else {
        const b = el('button', '', item.label);
        b.type = 'button';
        b.addEventListener('click', () => show(item.trail));
        li.append(b);
      }
      crumbs.append(li);
    });
    const parent = trail.length ? trail.at(-1) : null;
    const rows = rowsUnder(parent);
    const caption = parent === null ? 'Call paths: the root ops' : `Call paths under ${cell(pathColumn, parent)}`;
    level.replaceChildren(createTable(subsetSheet(sheet, rows), {
      caption,
      labels,
      columns: ['name', 'status', `gpu_time_us__${tag}_diff`, `gpu_time_us__${tag}_pct`, 'share_of_total_pct',
        `${baseTag}::gpu_time_us`, `${tag}::gpu_time_us`, `${baseTag}::count`, `${tag}::count`, 'path'],
      onActivate: (row) => {
        if (rowsUnder(rows[row]).length) show([...trail, rows[row]]);
      },
    }).element);
  };
  // The chosen path stays through a redraw of the same comparison, not a swap.
  if (state.treeRuns !== runsKey) state.treeTrail = [];
  state.treeRuns = runsKey;
  show((state.treeTrail ?? []).filter((r) => r < sheet.rows));
}

function cycles(section, sheets, labels, tag) {
  section.append(el('h3', '', 'Cycles'),
    el('p', 'detail', 'Repeating kernel patterns paired between the runs: latency per step or layer, then per position in the repeating unit.'));
  const diff = findSheet(sheets, 'cycle_diff');
  if (!diff || !diff.rows) return section.append(el('p', 'empty-state', 'No repeating pattern to pair between the runs.'));
  section.append(createTable(diff, { caption: 'Steps and layers compared', labels, sort: { column: `latency_us__${tag}_diff`, descending: true } }).element);
  const positions = findSheet(sheets, 'cycle_positions_diff');
  if (positions && positions.rows) section.append(createTable(positions, { caption: 'Positions in the repeating unit compared', labels }).element);
}
