// The verdict at the top of the overview: what the trace is bound by, its steps and
// phases, the top ops and kernels and the largest speed-of-light gaps, each a link to the
// view that shows it. Every number and sentence is the core's verdict sheet
// (core/analyses/verdict: finding, value, unit, words, view, target, target_group); this
// module only lays them out. Text from the trace (op and kernel names) is set as text.

import { findSheet, findColumn, cell } from '../sheet.mjs';
import { redraw, showView } from '../router.mjs';
import { viewState } from '../state.mjs';
import { el } from '../widgets.mjs';

const byId = (id) => document.getElementById(id);

// The view names as the sidebar shows them.
const VIEW_LABELS = {
  'launch-delays': 'Launch delays', 'critical-path': 'Critical path', collectives: 'Collectives', roofline: 'Roofline',
  kernels: 'Kernels', ops: 'Ops', sol: 'Speed of light', llm: 'LLM phases', cycles: 'Cycles', timeline: 'Time axis',
};

// The verdict's rows as {finding, value, unit, words, view, target, group}, in order.
export function verdictRows(sheets) {
  const sheet = findSheet(sheets, 'verdict');
  if (!sheet) return [];
  const col = (name) => findColumn(sheet, name);
  const [finding, value, unit, words, view, target, group] =
    ['finding', 'value', 'unit', 'words', 'view', 'target', 'target_group'].map(col);
  const rows = [];
  for (let r = 0; r < sheet.rows; r++)
    rows.push({ finding: cell(finding, r), value: cell(value, r), unit: cell(unit, r) ?? '', words: cell(words, r) ?? '',
      view: cell(view, r) ?? '', target: cell(target, r) ?? '', group: cell(group, r) ?? '' });
  return rows;
}

export function clearVerdict() {
  for (const id of ['verdict-headline', 'verdict-why', 'verdict-numbers', 'verdict-ops', 'verdict-kernels', 'verdict-gaps'])
    byId(id).replaceChildren();
  byId('verdict').hidden = true;
}

// Fills section#verdict from the report's sheets; hidden when the report has no verdict
// (a share link made before it existed).
export function renderVerdict(sheets) {
  clearVerdict();
  const rows = verdictRows(sheets);
  if (!rows.length) return;
  const find = (key) => rows.find((r) => r.finding === key);
  const headline = find('headline');
  byId('verdict-headline').append(finding(headline, headline?.words ?? ''));
  if (headline?.view) byId('verdict-headline').append(' ', viewLink(headline, `Why: ${VIEW_LABELS[headline.view] ?? headline.view}`));
  const why = find('bound_by');
  if (why) byId('verdict-why').append(finding(why, why.words));
  renderNumbers(rows);
  renderList('verdict-ops', rows.filter((r) => r.finding.startsWith('top_op.')));
  renderList('verdict-kernels', rows.filter((r) => r.finding.startsWith('top_kernel.')));
  renderList('verdict-gaps', rows.filter((r) => r.finding.startsWith('sol_gap.')));
  byId('verdict-gaps-box').hidden = !rows.some((r) => r.finding.startsWith('sol_gap.'));
  byId('verdict').hidden = false;
}

// The steps per phase as a small table (a row per phase), then the idle split and the
// SOL of the wall as terms; each number with its exact value, its sentence on hover.
const STEP_COLUMNS = [['steps', 'steps', ''], ['step_wall_ms', 'time per step (wall)', 'ms'],
  ['step_gpu_ms', 'GPU work per step', 'ms'], ['step_sol_ms', 'SOL per step', 'ms'],
  ['step_sol_efficiency_pct', 'SOL / wall', '%']];
const IDLE_TERMS = [['gpu_idle_pct', 'GPU idle'], ['idle_host_wait_ms', 'host wait'], ['idle_kernel_wait_ms', 'kernel wait'],
  ['idle_other_ms', 'other idle'], ['exposed_comm_ms', 'exposed communication'],
  ['sol_wall_efficiency_pct', 'SOL of the wall'], ['device', 'GPU model']];

function renderNumbers(rows) {
  const box = byId('verdict-numbers');
  const phases = rows.filter((r) => r.finding.startsWith('steps.')).map((r) => r.finding.slice('steps.'.length));
  if (phases.length) box.append(stepsTable(rows, phases));
  const dl = el('dl', 'verdict-terms');
  for (const [key, term] of IDLE_TERMS) {
    const row = rows.find((r) => r.finding === key);
    if (!row) continue;
    const dd = el('dd');
    dd.append(number(row));
    if (row.view) dd.append(' ', viewLink(row, '›', `${term}: open ${VIEW_LABELS[row.view] ?? row.view}`));
    dl.append(el('dt', '', term), dd);
  }
  box.append(dl);
}

function stepsTable(rows, phases) {
  const table = el('table', 'numbers verdict-steps');
  // Columns no phase has (SOL without a GPU model) are left out.
  const columns = STEP_COLUMNS.filter(([key]) => phases.some((p) => rows.some((r) => r.finding === `${key}.${p}`)));
  const head = el('tr');
  for (const text of ['phase', ...columns.map(([, label, unit]) => (unit ? `${label} (${unit})` : label))]) {
    const th = el('th', '', text);
    th.scope = 'col';
    head.append(th);
  }
  table.append(el('caption', '', 'Steps (repeating kernel patterns) per phase'));
  const thead = el('thead');
  thead.append(head);
  const tbody = el('tbody');
  for (const phase of phases) {
    const tr = el('tr');
    const name = el('th', '', phase);
    name.scope = 'row';
    tr.append(name);
    for (const [key] of columns) {
      const row = rows.find((r) => r.finding === `${key}.${phase}`);
      const td = el('td');
      if (row) td.append(number(row, false));  // the unit is in the column's header
      tr.append(td);
    }
    tbody.append(tr);
  }
  table.append(thead, tbody);
  const wrap = el('div', 'verdict-steps-box');
  const first = rows.find((r) => r.finding === `steps.${phases[0]}`);
  wrap.append(table);
  if (first?.view) wrap.append(viewLink(first, `Steps in ${VIEW_LABELS[first.view] ?? first.view}`));
  return wrap;
}

// A number of the verdict as the page shows numbers (three significant digits) with its
// unit, the exact value kept (data value=…) and the core's sentence on hover.
function number(row, withUnit = true) {
  const span = el('span', 'verdict-number');
  span.dataset.finding = row.finding;
  span.title = row.words;
  if (row.value === null || row.value === undefined) {
    span.textContent = row.words;
    return span;
  }
  const data = document.createElement('data');
  data.value = String(row.value);
  const unit = !withUnit || row.unit === 'count' || !row.unit ? '' : row.unit === '%' ? ' %' : ` ${row.unit}`;
  data.textContent = `${significant(row.value)}${unit}`;
  span.append(data);
  return span;
}

function significant(x) {
  const a = Math.abs(x);
  if (a >= 100 || a === 0 || Number.isInteger(x)) return Math.round(x).toLocaleString('en-US');
  if (a >= 10) return x.toFixed(1);
  if (a >= 1) return x.toFixed(2);
  return x.toPrecision(3);
}

// An ordered list of links: the row's sentence, a button that opens its view.
function renderList(id, rows) {
  const list = byId(id);
  for (const row of rows) {
    const li = el('li');
    const name = el('span', 'verdict-name', row.target);
    name.title = row.target;  // kernel names are long: the whole name on hover
    const rest = row.words.startsWith(`${row.target}: `) ? row.words.slice(row.target.length + 2) : row.words;
    li.append(viewLink(row, name), ' ', finding(row, rest));
    list.append(li);
  }
  if (!rows.length) list.append(el('li', 'none', 'none'));
}

// The finding's sentence, with its exact value for tests and copy (data value=…).
function finding(row, text) {
  const span = el('span', 'verdict-finding');
  if (!row) return span;
  span.dataset.finding = row.finding;
  if (row.value !== null && row.value !== undefined) {
    const data = document.createElement('data');
    data.value = String(row.value);
    data.textContent = text;
    span.append(data);
  } else {
    span.textContent = text;
  }
  return span;
}

// A button that opens the row's view and, where the view keeps a chosen row, chooses it.
function viewLink(row, content, ariaLabel) {
  const button = el('button', 'link-button verdict-link');
  button.type = 'button';
  button.dataset.view = row.view;
  button.dataset.finding = row.finding;
  if (typeof content === 'string') button.textContent = content;
  else button.append(content);
  const label = VIEW_LABELS[row.view] ?? row.view;
  button.setAttribute('aria-label', ariaLabel ?? (row.target ? `${row.target}: open in ${label}` : `Open ${label}`));
  button.addEventListener('click', () => openFinding(row));
  return button;
}

function openFinding(row) {
  if (row.view === 'ops' && row.target) {
    const state = viewState('ops');
    state.tab = 'drill';
    state.category = row.group || null;
    state.name = row.target;
    redraw('ops');
  } else if (row.view === 'sol' && row.target) {
    viewState('sol').tab = 'sol_by_function';
    redraw('sol');
  }
  showView(row.view);
}

