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
  section.append(runs(comparison, context));
  timeline(section, findSheet(sheets, 'gpu_timeline'), baseTag, tag);
  ops(section, findSheet(sheets, 'ops_summary'), tag);
  opTree(section, findSheet(sheets, 'op_tree_diff'), baseTag, tag, context.state, `${comparison.baseline}\u0001${comparison.variant}`);
  cycles(section, sheets, tag);
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

// Which run is which, and a button to swap them.
function runs(comparison, context) {
  const wrap = el('div', 'compare-runs');
  const list = el('dl', 'facts');
  for (const [term, name] of [['Baseline', comparison.baseline], ['Variant', comparison.variant]]) {
    list.append(el('dt', '', term), el('dd', '', name));
  }
  const names = comparison.names ?? DEFAULT_NAMES;
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
  wrap.append(list, nameFields(comparison, names, context), swap, el('p', 'detail',
    'Changes are the variant − the baseline: positive is slower. Every compared sheet (also the per-op splits and the ' +
    'op-name diff) is written by sollens diff BASE NEW on the command line.'));
  return wrap;
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

function timeline(section, sheet, baseTag, tag) {
  section.append(el('h3', '', 'GPU time'));
  if (!sheet) return section.append(el('p', 'empty-state', 'One of the runs has no GPU timeline.'));
  const total = totalTime(sheet, baseTag, tag);
  if (total) section.append(total);
  section.append(createTable(sheet, { caption: 'gpu_timeline (compared)', sort: { column: `time ms__${tag}_diff`, descending: true } }).element);
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
  const p = el('p', 'compare-total', `Total time: ${ms(base)} ms → ${ms(variant)} ms, ${change}: the variant is ${diff > 0 ? 'slower' : diff < 0 ? 'faster' : 'as fast'}.`);
  p.dataset.diff = String(diff);
  return p;
}

function ops(section, sheet, tag) {
  section.append(el('h3', '', 'Ops that got slower'),
    el('p', 'detail', 'Every op name in either run, by the change of its GPU kernel time (slower first); an op in one run only has the other\'s columns empty.'));
  if (!sheet) return section.append(el('p', 'empty-state', 'One of the runs has no CPU ops (a GPU-only trace).'));
  const metric = 'total_direct_kernel_time_ms';
  const t = createTable(sheet, { caption: 'ops_summary (compared)', sort: { column: `${metric}__${tag}_diff`, descending: true } });
  t.element.classList.add('compare-ops');
  section.append(t.element);
}

// The op-tree diff: the roots first, choosing a row shows the paths under it.
function opTree(section, sheet, baseTag, tag, state, runsKey) {
  section.append(el('h3', '', 'Call paths'),
    el('p', 'detail', 'The two host call trees merged (ops matched by name in start order) with the GPU time launched under each path. ' +
      'Choose a row to see the paths under it.'));
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
    const caption = parent === null ? 'op_tree_diff: root ops' : `op_tree_diff under ${cell(pathColumn, parent)}`;
    level.replaceChildren(createTable(subsetSheet(sheet, rows), {
      caption,
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

function cycles(section, sheets, tag) {
  section.append(el('h3', '', 'Cycles'),
    el('p', 'detail', 'Repeating kernel patterns paired between the runs: latency per step or layer, then per position in the repeating unit.'));
  const diff = findSheet(sheets, 'cycle_diff');
  if (!diff || !diff.rows) return section.append(el('p', 'empty-state', 'No repeating pattern to pair between the runs.'));
  section.append(createTable(diff, { caption: 'cycle_diff', sort: { column: `latency_us__${tag}_diff`, descending: true } }).element);
  const positions = findSheet(sheets, 'cycle_positions_diff');
  if (positions && positions.rows) section.append(createTable(positions, { caption: 'cycle_positions_diff' }).element);
}
