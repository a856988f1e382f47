// A table over one sheet of the report model (worker.mjs), for every view: a toolbar
// (filter, row count, CSV/Arrow export; table/toolbar.mjs), a header of sort buttons
// (table/header.mjs), and a virtually scrolled body (table/virtual.mjs) of the rows
// the filter lets through in the chosen order (table/order.mjs). The cells are the
// core's values, shown with units and sensible precision, with the exact value in
// <data value> (table/cells.mjs). Text from the trace is set with textContent only.
//
//   const t = createTable(sheet, {caption, columns, onActivate, selectedRow, sort})
//   section.append(t.element)
// caption: text above the table. columns: the column names to show (default all).
// onActivate(row): rows become selectable (role=grid; click, Enter or Space, see
// table/selection.mjs), e.g. for a drill-down; row is the sheet's row index.
// sort: {column, descending}.
// traceStartUs: the trace's start (µs, info.firstTsUs): timestamp columns (unit
// 'timestamp µs') are shown in ms from it, the instant on hover.
// labels(name): the header's words for a column (undefined: its name); the name stays
// on hover. display: {column name: (text) => shown text}, e.g. readable module paths.

import { el } from './widgets.mjs';
import { dataCell } from './table/cells.mjs';
import { createHeader, sizeColumns } from './table/header.mjs';
import { createRowOrder } from './table/order.mjs';
import { wireSelection } from './table/selection.mjs';
import { createToolbar } from './table/toolbar.mjs';
import { createVirtualBody } from './table/virtual.mjs';

let tableCount = 0;

export function createTable(sheet, options = {}) {
  const id = `sheet-table-${++tableCount}`;
  const label = options.caption ?? sheet.name;
  const columns = (options.columns ?? sheet.columns.map((c) => c.name))
    .map((name) => sheet.columns.find((c) => c.name === name))
    .filter(Boolean)
    .map((c) => ({
      ...c,
      unit: c.unit ?? '',
      label: options.labels?.(c.name) ?? c.name,
      origin: options.traceStartUs,
      display: options.display?.[c.name],
    }));
  const activatable = typeof options.onActivate === 'function';
  const rows = createRowOrder(sheet, columns);
  const state = {
    cursor: -1,                             // keyboard position (activatable tables)
    selected: options.selectedRow ?? -1,    // the chosen sheet row
    highlighted: -1,                        // a row shown from elsewhere (reveal)
  };

  const toolbar = createToolbar(sheet, { id, label, onFilter: filter });
  const header = createHeader(columns, toggleSort);
  const parts = tableElements(id, label, columns.length, activatable, header);
  const element = el('div', 'sheet-table');
  element.dataset.sheet = sheet.name;
  element.append(toolbar.element, parts.scroller);

  const body = createVirtualBody(parts, columns.length, {
    rowCount: () => rows.order.length,
    makeRow: dataRow,
    emptyText: () => (sheet.rows ? 'No row matches the filter.' : 'This sheet has no rows.'),
    focusedPosition: () => (activatable ? state.cursor : null),
  });
  if (activatable) wireSelection({ tbody: parts.tbody, body, order: () => rows.order, state }, options.onActivate);

  // The rows changed (filter, sort): show them from the top.
  function refresh() {
    const n = rows.order.length;
    parts.table.setAttribute('aria-rowcount', String(n + 1));
    toolbar.showCount(n, sheet.rows);
    parts.scroller.scrollTop = 0;
    state.cursor = n ? 0 : -1;
    body.rerender();
  }

  function toggleSort(i) {
    rows.toggleSort(i);
    header.showSort(rows.sortColumn, rows.descending);
    refresh();
  }

  function filter(text) {
    rows.filter(text);
    refresh();
  }

  function dataRow(p) {
    const r = rows.order[p];
    const tr = el('tr', 'data');
    tr.setAttribute('aria-rowindex', String(p + 2));
    tr.dataset.pos = String(p);
    tr.dataset.row = String(r);
    if (r === state.highlighted) tr.classList.add('highlight');
    if (activatable) {
      tr.tabIndex = p === state.cursor ? 0 : -1;
      tr.setAttribute('aria-selected', r === state.selected ? 'true' : 'false');
    }
    for (const c of columns) tr.append(dataCell(c, r));
    return tr;
  }

  const sortColumn = options.sort ? columns.findIndex((c) => c.name === options.sort.column) : -1;
  if (sortColumn >= 0) {
    rows.sortBy(sortColumn, Boolean(options.sort.descending));
    header.showSort(rows.sortColumn, rows.descending);
  }
  sizeColumns(sheet, columns, header.colgroup, parts.table);
  refresh();

  return {
    element,
    sheet,
    get order() { return rows.order; },
    filter: (text) => {
      toolbar.filter.value = text;
      filter(text);
    },
    // Scrolls a sheet row into view and highlights it (e.g. the bubble clicked on a
    // chart); a filter that hides it is cleared.
    reveal(row) {
      let p = rows.order.indexOf(row);
      if (p < 0) {
        toolbar.filter.value = '';
        filter('');
        p = rows.order.indexOf(row);
      }
      if (p < 0) return;
      state.highlighted = row;
      body.scrollNear(p);
      body.rerender();
    },
  };
}

// The scrolled region and the table in it, with its caption and header.
function tableElements(id, label, span, activatable, header) {
  const scroller = el('div', 'table-scroll');
  const table = el('table');
  table.id = id;
  table.setAttribute('role', activatable ? 'grid' : 'table');
  table.setAttribute('aria-colcount', String(span));
  if (activatable) table.setAttribute('aria-readonly', 'true');
  const caption = el('caption');
  caption.textContent = label;
  scroller.setAttribute('role', 'region');
  scroller.setAttribute('aria-label', caption.textContent);
  if (!activatable) scroller.tabIndex = 0;  // arrow keys and Page Up/Down scroll it
  const tbody = el('tbody');
  table.append(caption, header.colgroup, header.thead, tbody);
  scroller.append(table);
  return { scroller, table, caption, thead: header.thead, tbody };
}
