// The ops view: TraceLens's op sheets as a drill-down (category → op name → unique
// argument sets), and the perf-model sheets (unified_perf_summary, GEMM, SDPA_fwd, …)
// as tabs. Rows are the core's; the drill-down only picks rows of the next sheet.
// What is chosen (tab, category, op, perf sheet) is kept in context.state, so that a
// report recomputed for another device or with the corrected models shows the same.
// A toggle recomputes the report with recompute detection (TraceLens's
// --detect_recompute): the sheets then split each row by is_recompute.

import { createTable } from '../table.mjs';
import { findSheet, findColumn, cell, rowsWhere, subsetSheet, perfSheets } from '../sheet.mjs';
import { el, resetSection, tabs } from '../widgets.mjs';

export function render(section, context) {
  const sheets = context.report.sheets;
  const state = context.state ?? {};
  resetSection(section, 'Ops');
  section.append(recomputeToggle(context, state));
  const byCategory = findSheet(sheets, 'ops_summary_by_category');
  const models = modelSheets(sheets);
  if (!byCategory && models.length === 0) {
    section.append(el('p', 'empty-state',
      'This trace has no CPU ops (a GPU-only trace): TraceLens writes no ops sheets for it. See the Kernels view.'));
    return;
  }
  const items = [];
  if (byCategory) items.push({ id: 'drill', label: 'By category' });
  if (models.length) items.push({ id: 'models', label: 'Perf models', count: models.length });
  const t = tabs(items, (item, panel) => {
    if (item.id === 'drill') drillDown(panel, sheets, state);
    else modelTabs(panel, models, state);
  }, { label: 'Ops sheets', selected: state.tab, onSelect: (id) => { state.tab = id; } });
  section.append(t.element);
}

// Recompute detection: ops under torch.utils.checkpoint's recompute_fn python frames
// (activation checkpointing) are recompute. The box shows the report as it is; after
// the recompute the view is drawn again, and the box gets the focus back.
function recomputeToggle(context, state) {
  const wrap = el('div', 'controls recompute-controls');
  const label = el('label', 'recompute-toggle');
  const box = el('input');
  box.type = 'checkbox';
  box.checked = Boolean(context.report.detectRecompute);
  label.append(box, ' Split by recompute (TraceLens\'s --detect_recompute): an is_recompute column in the ops, perf-model and GPU timeline sheets, True for ops that activation checkpointing runs again in the backward pass');
  const status = el('span', 'detail recompute-status');
  status.setAttribute('role', 'status');
  box.addEventListener('change', () => {
    const wanted = box.checked;
    if (!context.requestReport({ detectRecompute: wanted })) {
      box.checked = !wanted;
      return;
    }
    state.focusRecompute = true;
    status.textContent = wanted ? 'Recomputing with recompute detection…' : 'Recomputing without recompute detection…';
  });
  if (state.focusRecompute) {
    state.focusRecompute = false;
    queueMicrotask(() => {
      if (document.activeElement === document.body || !document.activeElement) box.focus({ preventScroll: true });
    });
  }
  wrap.append(label, status);
  return wrap;
}

// unified_perf_summary first (every modeled op in one sheet), then the model sheets.
function modelSheets(sheets) {
  const unified = findSheet(sheets, 'unified_perf_summary');
  return [...(unified && unified.rows ? [unified] : []), ...perfSheets(sheets)];
}

function modelTabs(panel, models, state) {
  panel.append(el('p', 'detail',
    'One row per op name and parameters (perf-model sheets) or per unique argument set (unified_perf_summary); ' +
    'FLOPs, bytes and throughput as TraceLens models them.'));
  const t = tabs(models.map((s) => ({ id: s.name, label: s.name, count: s.rows })), (item, p) => {
    const sheet = models.find((s) => s.name === item.id);
    p.append(createTable(sheet, { caption: `${sheet.name}: perf model` }).element);
  }, { label: 'Perf-model sheets', selected: state.model, onSelect: (id) => { state.model = id; } });
  panel.append(t.element);
}

function drillDown(panel, sheets, state) {
  const byCategory = findSheet(sheets, 'ops_summary_by_category');
  const summary = findSheet(sheets, 'ops_summary');
  const unique = findSheet(sheets, 'ops_unique_args');
  const crumbs = el('ol', 'crumbs');
  crumbs.setAttribute('aria-label', 'Drill-down');
  const wrapCrumbs = el('nav');
  wrapCrumbs.setAttribute('aria-label', 'Ops drill-down');
  wrapCrumbs.append(crumbs);
  const level1 = el('div', 'level level-category');
  const level2 = el('div', 'level level-name');
  const level3 = el('div', 'level level-args');
  panel.append(el('p', 'detail',
    'Choose a category to see its ops, then an op to see its unique argument sets (click, or Enter on a row).'),
  wrapCrumbs, level1, level2, level3);

  let category = null;
  let name = null;
  const categoryColumn = findColumn(byCategory, 'op category');

  // A remembered choice that the recomputed report still has (rows are looked up by
  // their text: row numbers may differ).
  const categoryRow = state.category == null ? -1
    : rowsWhere(byCategory, 'op category', (v) => v === state.category)[0] ?? -1;
  level1.append(el('h3', '', 'Kernel time by op category'),
    createTable(byCategory, {
      caption: 'ops_summary_by_category',
      selectedRow: categoryRow,
      onActivate: (row) => chooseCategory(cell(categoryColumn, row)),
    }).element);

  function chooseCategory(c, restoring = false) {
    category = c;
    name = null;
    state.category = c;
    if (!restoring) state.name = null;
    level3.replaceChildren();
    level2.replaceChildren();
    if (category === null) return updateCrumbs();
    if (!summary) {
      level2.append(el('p', 'empty-state', 'No ops_summary sheet in this report.'));
      return updateCrumbs();
    }
    // ops_summary's Categories is the Python list repr of the categories of an op name.
    const rows = rowsWhere(summary, 'Categories', (v) => v !== null && pythonList(v).includes(category));
    const sub = subsetSheet(summary, rows, `ops_summary_${fileSafe(category)}`);
    const nameColumn = findColumn(sub, 'name');
    const nameRow = restoring && state.name != null ? rowsWhere(sub, 'name', (v) => v === state.name)[0] ?? -1 : -1;
    level2.append(el('h3', '', `Ops in category ${category}`),
      createTable(sub, {
        caption: `ops_summary rows of category ${category}`,
        selectedRow: nameRow,
        onActivate: (row) => chooseName(cell(nameColumn, row)),
      }).element);
    updateCrumbs();
    if (restoring) {
      if (nameRow >= 0) chooseName(state.name, true);
      else state.name = null;
    } else {
      level2.scrollIntoView({ block: 'nearest' });
    }
  }

  function chooseName(n, restoring = false) {
    name = n;
    state.name = n;
    level3.replaceChildren();
    if (name === null) return updateCrumbs();
    if (!unique) {
      level3.append(el('p', 'empty-state', 'No ops_unique_args sheet in this report.'));
      return updateCrumbs();
    }
    const sub = subsetSheet(unique, rowsWhere(unique, 'name', (v) => v === name), `ops_unique_args_${fileSafe(name)}`);
    level3.append(el('h3', '', `Unique argument sets of ${name}`),
      createTable(sub, { caption: `ops_unique_args rows of ${name}` }).element);
    updateCrumbs();
    if (!restoring) level3.scrollIntoView({ block: 'nearest' });
  }

  function updateCrumbs() {
    const parts = [['All categories', () => chooseCategory(null)]];
    if (category !== null) parts.push([category, () => chooseName(null)]);
    if (name !== null) parts.push([name, null]);
    crumbs.replaceChildren(...parts.map(([text, go], i) => {
      const li = el('li');
      if (i === parts.length - 1) {
        const span = el('span', '', text);
        span.setAttribute('aria-current', 'location');
        span.tabIndex = -1;  // focusable from script only: see below
        li.append(span);
      } else {
        const b = el('button', '', text);
        b.type = 'button';
        // The crumbs are drawn again, so the button goes: the keyboard focus moves to
        // the crumb that is now current (else it would fall back to the page's start).
        b.addEventListener('click', () => {
          go();
          crumbs.querySelector('[aria-current]')?.focus();
        });
        li.append(b);
      }
      return li;
    }));
  }
  updateCrumbs();
  if (categoryRow >= 0) chooseCategory(state.category, true);
  else state.category = null;
}

// A drill-down level is exported under its own name (e.g. ops_summary_GEMM), in
// characters every file system accepts.
const fileSafe = (text) => text.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 60);

// The strings of a Python list repr such as "['GEMM', 'elementwise']".
function pythonList(text) {
  const out = [];
  for (const m of text.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g))
    out.push((m[1] ?? m[2]).replace(/\\(.)/g, '$1'));
  return out;
}
