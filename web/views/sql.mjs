// The SQL view: DuckDB (compiled to WebAssembly, views/sql-db.mjs) over every sheet of
// the shown report, each a table named as the sheet (ops_summary, kernel_summary,
// GEMM, ...). A query box (Ctrl+Enter runs it), saved examples, the tables with their
// columns (a click writes the name, quoted, into the query), the result as a sheet
// table (sort, filter, CSV) with its row count and time. DuckDB is imported only when
// this view is first opened. Names and values come from traces: set as text only.
//
// The tables are the sheets `sollens report` writes: the report's and, once computed,
// the speed of light's (sol_*; the page computes them when first asked for, so this view
// asks, and adds them when they come: the router draws this view again only for
// another or a recomputed report, which would lose the result shown).

import { app } from '../state.mjs';
import { createTable } from '../table.mjs';
import { el, resetSection } from '../widgets.mjs';
import { MAX_RESULT_ROWS, quoteIdentifier, startDatabase } from './sql-db.mjs';

// TraceLens's column names have spaces and parentheses: they are quoted with ".
export const EXAMPLES = [
  {
    id: 'top-kernels',
    label: 'Top 10 kernels by total GPU time',
    sql: `-- The 10 kernels with the most GPU time, over every op that launched them
SELECT "Kernel name",
       sum("Kernel duration (µs)_sum") AS "total (µs)",
       sum("Kernel duration (µs)_count")::BIGINT AS "launches",
       sum("Percent of kernels time (%)") AS "share of kernel time (%)"
FROM kernel_summary
GROUP BY "Kernel name"
ORDER BY "total (µs)" DESC, "Kernel name"
LIMIT 10;`,
  },
  {
    id: 'op-categories',
    label: 'GPU time per op category',
    sql: `-- Kernel time of the ops of each category, and per op call
SELECT "op category",
       "Count" AS "op calls",
       "total_direct_kernel_time_ms" AS "kernel time (ms)",
       "total_direct_kernel_time_ms" / "Count" * 1000 AS "per call (µs)",
       "Percentage (%)"
FROM ops_summary_by_category
ORDER BY "kernel time (ms)" DESC, "op category";`,
  },
  {
    id: 'gemm-roofline',
    label: 'GEMMs furthest from their roofline',
    sql: `-- Time each GEMM shape loses against its roofline estimate (needs a GPU with known peaks)
SELECT name, "param: M" AS M, "param: N" AS N, "param: K" AS K,
       name_count AS calls,
       "Kernel Time (µs)_mean" AS "measured (µs)",
       "Roofline Time (µs)_first" AS "roofline (µs)",
       ("Kernel Time (µs)_mean" - "Roofline Time (µs)_first") * name_count AS "time lost (µs)",
       "Pct Roofline_mean" AS "% of roofline",
       "Roofline Bound_first" AS bound
FROM GEMM
WHERE "Roofline Time (µs)_first" > 0
ORDER BY "time lost (µs)" DESC, name, M, N, K
LIMIT 10;`,
  },
  {
    id: 'short-kernels',
    label: 'Short kernels: their share of launches and time',
    sql: `-- Kernels shorter than the short-kernel threshold, against all kernels
SELECT sum("Short Kernel count")::BIGINT AS "short kernels",
       (SELECT sum("Kernel duration (µs)_count") FROM kernel_summary)::BIGINT AS "all kernels",
       100.0 * sum("Short Kernel count") /
         (SELECT sum("Kernel duration (µs)_count") FROM kernel_summary) AS "share of launches (%)",
       sum("Short Kernel duration (µs) sum") AS "short kernels' time (µs)",
       100.0 * sum("Short Kernel duration (µs) sum") /
         (SELECT sum("Kernel duration (µs)_sum") FROM kernel_summary) AS "share of kernel time (%)"
FROM short_kernels_summary;`,
  },
];

const DEFAULT_QUERY = EXAMPLES[0].sql;

export async function render(section, context) {
  resetSection(section, 'SQL');
  await loadStylesheet();
  const state = context.state;
  const panel = buildPanel(state);
  section.append(panel.intro, panel.element);
  panel.status.textContent = 'Starting DuckDB (its 34 MB WebAssembly module comes from this site, once per visit)…';
  let db;
  try {
    db = await startDatabase();
    if (!panel.element.isConnected) return;  // another trace was opened meanwhile
    panel.status.textContent = `Loading the report's ${context.report.sheets.length} sheets as tables…`;
    await syncTables(panel, db, context);
  } catch (e) {
    panel.status.textContent = '';
    showError(panel, `DuckDB could not be started: ${e?.message ?? e}`);
    return;
  }
  wireRunning(panel, db, context);
  watchLaterSheets(panel, db, context);
  // The query in the box (the first example, or the one last run here) runs at once:
  // the view opens on a result, and on the recomputed report's figures after a recompute.
  await runQuery(panel, db, context);
}

function loadStylesheet() {
  if (document.querySelector('link[data-view-css="sql"]')) return Promise.resolve();
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = new URL('sql.css', import.meta.url).href;
  link.dataset.viewCss = 'sql';
  return new Promise((resolve) => {
    link.addEventListener('load', resolve, { once: true });
    link.addEventListener('error', resolve, { once: true });  // unstyled is still usable
    document.head.append(link);
  });
}

// --- the panel's elements ------------------------------------------------------------
function buildPanel(state) {
  const intro = el('p', 'detail sql-intro',
    'Every sheet of this report is a table here, named as the sheet. DuckDB runs in this tab: nothing is uploaded. ' +
    'Names with spaces or parentheses go in double quotes, e.g. "Kernel duration (µs)_sum".');
  const element = el('div', 'sql-panel');
  const tables = el('aside', 'sql-tables');
  tables.setAttribute('aria-labelledby', 'sql-tables-title');
  const tablesTitle = el('h3', '', 'Tables');
  tablesTitle.id = 'sql-tables-title';
  const tableList = el('ul', 'sql-table-list');
  const laterNote = el('p', 'detail sql-later-note', '');
  laterNote.hidden = true;
  tables.append(tablesTitle, el('p', 'detail', 'Click a table to query it, a column to add its name.'), laterNote, tableList);

  const editor = el('div', 'sql-editor');
  const output = el('div', 'sql-output');
  const examples = exampleChooser();
  const queryLabel = el('label', 'sql-query-label', 'Query');
  queryLabel.htmlFor = 'sql-query';
  const query = el('textarea', 'sql-query');
  query.id = 'sql-query';
  query.rows = 12;
  query.spellcheck = false;
  query.autocomplete = 'off';
  query.setAttribute('aria-describedby', 'sql-keys');
  query.value = state.query ?? DEFAULT_QUERY;
  examples.select.value = EXAMPLES.find((x) => x.sql === query.value)?.id ?? '';
  const run = el('button', 'primary sql-run', 'Run');
  run.type = 'button';
  run.disabled = true;
  const keys = el('span', 'detail', 'Ctrl+Enter runs the query.');
  keys.id = 'sql-keys';
  const download = el('button', 'sql-download', 'Download CSV');
  download.type = 'button';
  download.disabled = true;
  download.title = 'Save the result as a CSV file';
  const actions = el('div', 'sql-actions');
  actions.append(run, keys, download);
  const status = el('p', 'status sql-status');
  status.setAttribute('role', 'status');
  // Not .error: that is the page's own error box (tests look for one in a view).
  const error = el('div', 'sql-error');
  error.setAttribute('role', 'alert');
  error.hidden = true;
  const skipped = el('p', 'notice sql-skipped');
  skipped.hidden = true;
  const result = el('div', 'sql-result');
  result.append(el('p', 'empty-state', 'The result of the query will be here.'));
  editor.append(examples.element, queryLabel, query, actions);
  output.append(status, error, skipped, result);
  element.append(editor, tables, output);
  return { intro, element, tableList, laterNote, examples: examples.select, query, run, download, status, error, skipped, result };
}

function exampleChooser() {
  const element = el('div', 'sql-examples');
  const label = el('label', '', 'Example queries ');
  const select = el('select');
  select.id = 'sql-example';
  label.htmlFor = select.id;
  const none = el('option', '', 'Choose one to put it in the query box…');
  none.value = '';
  select.append(none);
  for (const example of EXAMPLES) {
    const option = el('option', '', example.label);
    option.value = example.id;
    select.append(option);
  }
  element.append(label, select);
  return { element, select };
}

// --- the tables and their columns ------------------------------------------------------
// The sheets of the shown report as tables: its own and the speed of light's, read
// from the page's state each time (the SOL sheets come after the view was drawn).
function reportSheets(context) {
  const shown = app.report?.report === context.report ? app.report : null;
  const sol = shown ? shown.sol : context.sol;
  return [...context.report.sheets, ...(sol?.sheets ?? [])];
}

async function syncTables(panel, db, context) {
  const sheets = reportSheets(context);
  const skipped = await db.showSheets(context.report, sheets);
  if (!panel.element.isConnected) return;
  showSkipped(panel, skipped);
  await showTables(panel, db, sheets);
}

const LATER_POLL_MS = 250;
// Asks for the speed of light if no view has, and loads its sheets and HTA's (which
// follow the report) as each comes.
function watchLaterSheets(panel, db, context) {
  const solPending = () => Boolean(app.report?.solPending);
  const htaPending = () => Boolean(app.report?.htaPending);
  if (!context.sol && !solPending() && !context.shared) context.requestSol();
  const note = () => {
    const computing = [htaPending() && 'the Holistic Trace Analysis sheets', solPending() && 'the speed-of-light sheets (sol_*)'].filter(Boolean);
    panel.laterNote.hidden = computing.length === 0;
    panel.laterNote.textContent = computing.length ? `Computing ${computing.join(' and ')}: they are added when ready.` : '';
  };
  note();
  if (!solPending() && !htaPending()) return;
  let waitingFor = [solPending(), htaPending()].join();
  const timer = setInterval(async () => {
    if (!panel.element.isConnected || app.report?.report !== context.report) return clearInterval(timer);
    const now = [solPending(), htaPending()].join();
    if (now === waitingFor) return;
    waitingFor = now;
    note();
    if (!solPending() && !htaPending()) clearInterval(timer);
    await syncTables(panel, db, context);
  }, LATER_POLL_MS);
}

async function showTables(panel, db, sheets) {
  const rowsOf = new Map(sheets.map((s) => [s.name, s.rows]));
  const order = new Map(sheets.map((s, i) => [s.name, i]));
  const tables = (await db.tables()).sort((a, b) =>
    (order.get(a.name) ?? Infinity) - (order.get(b.name) ?? Infinity) || (a.name < b.name ? -1 : 1));
  panel.tableList.replaceChildren(...tables.map((t) => tableItem(panel, t, rowsOf.get(t.name))));
}

function tableItem(panel, table, rows) {
  const li = el('li', 'sql-table');
  li.dataset.table = table.name;
  const details = el('details');
  const summary = el('summary');
  const name = el('button', 'sql-name', table.name);
  name.type = 'button';
  name.title = `Query ${table.name}: SELECT * FROM ${quoteIdentifier(table.name)} LIMIT 100`;
  name.addEventListener('click', (e) => {
    e.preventDefault();  // a click on the name does not fold the columns out
    setQuery(panel, `SELECT *\nFROM ${quoteIdentifier(table.name)}\nLIMIT 100;`);
  });
  const count = rows === undefined ? `${table.columns.length} columns` : `${rows} rows, ${table.columns.length} columns`;
  summary.append(name, el('span', 'detail sql-count', count));
  const columns = el('ul', 'sql-columns');
  for (const column of table.columns) {
    const item = el('li');
    const b = el('button', 'sql-name', column.name);
    b.type = 'button';
    b.title = `Add ${quoteIdentifier(column.name)} to the query`;
    b.addEventListener('click', () => insertAtCursor(panel.query, quoteIdentifier(column.name)));
    item.append(b, ' ', el('span', 'sql-type', column.type));
    columns.append(item);
  }
  details.append(summary, columns);
  li.append(details);
  return li;
}

function setQuery(panel, sql) {
  panel.query.value = sql;
  panel.query.dispatchEvent(new Event('input'));
  panel.query.focus();
}

function insertAtCursor(textarea, text) {
  const { selectionStart: start, selectionEnd: end, value } = textarea;
  textarea.value = value.slice(0, start) + text + value.slice(end);
  textarea.selectionStart = textarea.selectionEnd = start + text.length;
  textarea.dispatchEvent(new Event('input'));
  textarea.focus();
}

function showSkipped(panel, skipped) {
  panel.skipped.hidden = skipped.length === 0;
  panel.skipped.textContent = skipped.length
    ? `Not loaded as tables: ${skipped.map((s) => `${s.name} (${s.reason})`).join('; ')}`
    : '';
}

// --- running a query ---------------------------------------------------------------------
function wireRunning(panel, db, context) {
  const state = context.state;
  panel.query.addEventListener('input', () => {
    state.query = panel.query.value;
    // The list names the example in the box, and no longer once it is edited.
    if (EXAMPLES.find((x) => x.id === panel.examples.value)?.sql !== panel.query.value) panel.examples.value = '';
  });
  panel.download.addEventListener('click', () => downloadResult(panel));
  panel.examples.addEventListener('change', () => {
    const example = EXAMPLES.find((x) => x.id === panel.examples.value);
    if (example) {
      panel.query.value = example.sql;
      state.query = example.sql;
    }
  });
  const run = () => runQuery(panel, db, context);
  panel.run.addEventListener('click', run);
  panel.query.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      run();
    }
  });
  panel.run.disabled = false;
}

async function runQuery(panel, db, context) {
  const sql = panel.query.value;
  if (!sql.trim() || panel.run.disabled) return;
  panel.run.disabled = true;
  panel.error.hidden = true;
  panel.status.textContent = 'Running…';
  const t0 = performance.now();
  try {
    await db.showSheets(context.report, reportSheets(context));  // a recomputed speed of light
    const { sheet, totalRows } = await db.query(sql);
    const ms = performance.now() - t0;
    if (!panel.element.isConnected) return;
    showResult(panel, sheet, totalRows, ms);
    await showTables(panel, db, reportSheets(context));  // the query may have made or dropped one
  } catch (e) {
    if (!panel.element.isConnected) return;
    panel.status.textContent = '';
    showError(panel, e?.message ?? String(e));
    // The last result would read as this query's.
    panel.result.replaceChildren(el('p', 'empty-state', 'No result: the query failed.'));
    panel.resultSheet = null;
    panel.download.disabled = true;
  } finally {
    panel.run.disabled = false;
    panel.element.dataset.runs = String(Number(panel.element.dataset.runs ?? 0) + 1);  // for the page test
  }
}

const countFormat = new Intl.NumberFormat('en-US');
const msFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

function showResult(panel, sheet, totalRows, ms) {
  const rows = `${countFormat.format(totalRows)} row${totalRows === 1 ? '' : 's'}`;
  const capped = totalRows > sheet.rows ? ` (the first ${countFormat.format(MAX_RESULT_ROWS)} shown)` : '';
  panel.status.textContent = `${rows}${capped} in ${msFormat.format(ms)} ms.`;
  panel.status.dataset.rows = String(totalRows);
  panel.status.dataset.ms = String(ms);
  panel.resultSheet = sheet.columns.length ? sheet : null;
  panel.download.disabled = !panel.resultSheet;
  if (!panel.resultSheet) {
    panel.result.replaceChildren(el('p', 'empty-state', 'The statement returned no columns.'));
    return;
  }
  const table = createTable(sheet, { caption: 'Query result' });
  panel.result.replaceChildren(table.element);
}

// The result as the CLI writes a sheet's CSV (export.mjs); the rows shown, all of them
// up to MAX_RESULT_ROWS.
async function downloadResult(panel) {
  if (!panel.resultSheet) return;
  const { exportSheet } = await import('../export.mjs');
  await exportSheet(panel.resultSheet, 'csv');
}

function showError(panel, message) {
  // DuckDB's message points at the error with a caret under the query's line: kept as
  // preformatted text so that it lines up.
  const pre = el('pre', 'sql-error-text', withoutRepeats(message));
  panel.error.replaceChildren(el('strong', '', 'The query failed'), pre);
  panel.error.hidden = false;
}

// DuckDB-Wasm repeats the message's last paragraph (the line with its caret): once is enough.
function withoutRepeats(message) {
  const paragraphs = String(message).split(/\n\n/);
  return paragraphs.filter((p, i) => p !== paragraphs[i - 1]).join('\n\n');
}
