// A table over one sheet of the report model (worker.mjs), for every view.
//
// Virtual scrolling: only the rows in sight (plus a few) are in the DOM, between two
// spacer rows whose heights stand for the rest, so 100,000 rows scroll as fast as 100.
// Rows have one fixed height (style.css) and columns fixed widths (table-layout:
// fixed, from the header and a sample of cells), so nothing moves while scrolling.
// Sorting (click a header; numbers numerically, strings by a collator; cells without
// a value last in both directions; ties keep the sheet's order) and filtering (a
// case-insensitive substring of any string column) only reorder row indices: the
// cells are the core's values, shown with units and sensible precision, with the
// exact value in <data value>. Text from the trace is set with textContent only.
//
//   const t = createTable(sheet, {caption, columns, onActivate, selectedRow, sort})
//   section.append(t.element)
// caption: text above the table. columns: the column names to show (default all).
// onActivate(row): rows become selectable (role=grid; click, Enter or Space), e.g.
// for a drill-down; row is the sheet's row index. sort: {column, descending}.

import { nameShowsUnit, formatNumber } from './units.mjs';

const OVERSCAN = 8;          // rows rendered above and below the visible ones
const MAX_CHARS = 44;        // widest column, in ch; longer text is cut with an ellipsis
const WIDTH_SAMPLE = 200;    // rows sampled for column widths
const FALLBACK_ROW_HEIGHT = 28;  // style.css's row height, until one can be measured
let tableCount = 0;

export function createTable(sheet, options = {}) {
  const id = `sheet-table-${++tableCount}`;
  const columns = (options.columns ?? sheet.columns.map((c) => c.name))
    .map((name) => sheet.columns.find((c) => c.name === name))
    .filter(Boolean)
    .map((c) => ({ ...c, unit: c.unit ?? '' }));
  const activatable = typeof options.onActivate === 'function';

  // --- DOM ---------------------------------------------------------------------------
  const element = el('div', 'sheet-table');
  element.dataset.sheet = sheet.name;
  const toolbar = el('div', 'table-toolbar');
  const filterLabel = el('label', 'table-filter');
  filterLabel.append('Filter ');
  const filter = el('input');
  filter.type = 'search';
  filter.placeholder = 'text in any column';
  filter.setAttribute('aria-controls', id);
  // Several tables share a view: the name says which one this filters.
  filter.setAttribute('aria-label', `Filter ${options.caption ?? sheet.name}`);
  filter.spellcheck = false;
  filterLabel.append(filter);
  const count = el('output', 'row-count');
  count.setAttribute('aria-live', 'polite');
  const exports = el('span', 'table-export');
  const exportStatus = el('span', 'export-status');
  exportStatus.setAttribute('role', 'status');
  for (const [format, label] of [['csv', 'CSV'], ['arrow', 'Arrow']]) {
    const b = el('button');
    b.type = 'button';
    b.textContent = label;
    b.dataset.export = format;
    b.title = `Download the ${sheet.name} sheet as ${label}`;
    b.setAttribute('aria-label', b.title);
    b.addEventListener('click', () => exportSheet(format));
    exports.append(b);
  }
  exports.append(exportStatus);
  toolbar.append(filterLabel, count, exports);

  const scroller = el('div', 'table-scroll');
  const table = el('table');
  table.id = id;
  table.setAttribute('role', activatable ? 'grid' : 'table');
  table.setAttribute('aria-colcount', String(columns.length));
  if (activatable) table.setAttribute('aria-readonly', 'true');
  const caption = el('caption');
  caption.textContent = options.caption ?? sheet.name;
  scroller.setAttribute('role', 'region');
  scroller.setAttribute('aria-label', caption.textContent);
  if (!activatable) scroller.tabIndex = 0;  // arrow keys and Page Up/Down scroll it
  const colgroup = el('colgroup');
  const thead = el('thead');
  const headRow = el('tr');
  headRow.setAttribute('aria-rowindex', '1');
  const headers = columns.map((c, i) => {
    const th = el('th');
    th.scope = 'col';
    th.setAttribute('aria-colindex', String(i + 1));
    if (c.type !== 'string') th.className = 'num';
    const b = el('button', 'sort');
    b.type = 'button';
    const name = el('span', 'col-name');
    name.textContent = c.name;
    b.append(name);
    if (!nameShowsUnit(c.name, c.unit)) {
      const unit = el('span', 'col-unit');
      unit.textContent = c.unit;
      b.append(' ', unit);
    }
    b.title = `Sort by ${c.name}`;
    b.addEventListener('click', () => toggleSort(i));
    th.append(b);
    headRow.append(th);
    colgroup.append(el('col'));
    return th;
  });
  thead.append(headRow);
  const tbody = el('tbody');
  const topSpacer = spacerRow(columns.length);
  const bottomSpacer = spacerRow(columns.length);
  table.append(caption, colgroup, thead, tbody);
  scroller.append(table);
  element.append(toolbar, scroller);

  // --- state -------------------------------------------------------------------------
  let filtered = identity(sheet.rows);  // rows passing the filter, in sheet order
  let order = filtered;                 // ... sorted: what is shown, top to bottom
  let sortColumn = -1;
  let descending = false;
  let rowHeight = 0;
  let measured = false;                 // rowHeight measured on a row in the document
  let rendered = null;                  // [first, last) rendered positions
  let cursor = -1;                      // keyboard position (activatable tables)
  let selected = options.selectedRow ?? -1;
  let highlighted = -1;                 // a row shown from elsewhere (reveal)
  const collator = new Intl.Collator('en', { numeric: true });

  // --- sorting and filtering -------------------------------------------------------------
  function applySort() {
    if (sortColumn < 0) {
      order = filtered;
      return;
    }
    const c = columns[sortColumn];
    const sign = descending ? -1 : 1;
    const rows = Array.from(filtered);
    const valid = c.validity;
    if (c.type === 'string') {
      const rank = dictionaryRanks(c.dictionary, collator);
      const codes = c.codes;
      rows.sort((a, b) => {
        const na = !valid[a] || codes[a] < 0;
        const nb = !valid[b] || codes[b] < 0;
        if (na || nb) return na === nb ? a - b : (na ? 1 : -1);
        return (rank[codes[a]] - rank[codes[b]]) * sign || a - b;
      });
    } else {
      const v = c.values;
      rows.sort((a, b) => {
        // NaN sorts with the empty cells: it has no order.
        const na = !valid[a] || Number.isNaN(v[a]);
        const nb = !valid[b] || Number.isNaN(v[b]);
        if (na || nb) return na === nb ? a - b : (na ? 1 : -1);
        return (v[a] < v[b] ? -1 : v[a] > v[b] ? 1 : 0) * sign || a - b;
      });
    }
    order = Int32Array.from(rows);
  }

  function toggleSort(i) {
    if (sortColumn === i) descending = !descending;
    else {
      sortColumn = i;
      descending = columns[i].type !== 'string';  // largest first: what matters most
    }
    headers.forEach((th, j) => {
      if (j === sortColumn) th.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
      else th.removeAttribute('aria-sort');
    });
    applySort();
    refresh(true);
  }

  function applyFilter(query) {
    const q = query.trim().toLowerCase();
    if (!q) filtered = identity(sheet.rows);
    else {
      const tests = columns.filter((c) => c.type === 'string').map((c) => ({
        c, hit: Uint8Array.from(c.dictionary, (s) => (s.toLowerCase().includes(q) ? 1 : 0)),
      }));
      const rows = [];
      for (let r = 0; r < sheet.rows; r++) {
        for (const { c, hit } of tests) {
          const code = c.codes[r];
          if (code >= 0 && c.validity[r] && hit[code]) {
            rows.push(r);
            break;
          }
        }
      }
      filtered = Int32Array.from(rows);
    }
    applySort();
    refresh(true);
  }

  let filterTimer = 0;
  filter.addEventListener('input', () => {
    clearTimeout(filterTimer);
    filterTimer = setTimeout(() => applyFilter(filter.value), sheet.rows > 20000 ? 150 : 40);
  });
  filter.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      clearTimeout(filterTimer);
      applyFilter(filter.value);
    }
  });

  // --- rendering -----------------------------------------------------------------------
  function refresh(toTop) {
    const n = order.length;
    table.setAttribute('aria-rowcount', String(n + 1));
    count.textContent = n === sheet.rows ? rowsText(n) : `${fmtCount(n)} of ${rowsText(sheet.rows)}`;
    if (toTop) {
      scroller.scrollTop = 0;
      cursor = n ? 0 : -1;
    }
    rendered = null;
    render();
  }

  function render() {
    const n = order.length;
    if (!rowHeight) rowHeight = measureRowHeight();
    const top = Math.max(0, scroller.scrollTop - headerOffset());
    const visible = Math.ceil((scroller.clientHeight || 600) / rowHeight);
    const first = Math.max(0, Math.floor(top / rowHeight) - OVERSCAN);
    const last = Math.min(n, first + visible + 2 * OVERSCAN);
    if (rendered && rendered[0] === first && rendered[1] === last) return;
    rendered = [first, last];
    const hadFocus = tbody.contains(document.activeElement);
    const fragment = document.createDocumentFragment();
    topSpacer.firstChild.style.height = `${first * rowHeight}px`;  // CSSOM: allowed by the CSP
    bottomSpacer.firstChild.style.height = `${(n - last) * rowHeight}px`;
    fragment.append(topSpacer);
    for (let p = first; p < last; p++) fragment.append(dataRow(p));
    fragment.append(bottomSpacer);
    tbody.replaceChildren(fragment);
    if (n === 0) {
      const tr = el('tr', 'empty');
      const td = el('td');
      td.colSpan = columns.length;
      td.textContent = sheet.rows ? 'No row matches the filter.' : 'This sheet has no rows.';
      tr.append(td);
      tbody.replaceChildren(tr);
    }
    if (hadFocus && activatable) tbody.querySelector(`tr[data-pos="${cursor}"]`)?.focus({ preventScroll: true });
  }

  function dataRow(p) {
    const r = order[p];
    const tr = el('tr', 'data');
    tr.setAttribute('aria-rowindex', String(p + 2));
    tr.dataset.pos = String(p);
    tr.dataset.row = String(r);
    if (r === highlighted) tr.classList.add('highlight');
    if (activatable) {
      tr.tabIndex = p === cursor ? 0 : -1;
      tr.setAttribute('aria-selected', r === selected ? 'true' : 'false');
    }
    for (const c of columns) tr.append(dataCell(c, r));
    return tr;
  }

  function dataCell(c, r) {
    const td = el('td');
    if (c.type === 'string') {
      const code = c.codes[r];
      if (c.validity[r] && code >= 0) {
        const s = c.dictionary[code];
        td.textContent = s;
        if (s.length > 24) td.title = s;
      }
      return td;
    }
    td.className = 'num';
    if (!c.validity[r]) return td;
    const x = c.values[r];
    const data = document.createElement('data');
    data.value = String(x);
    data.textContent = formatNumber(x, c.type, c.unit);
    td.append(data);
    return td;
  }

  // Where the first row starts in the scrolled content: below the caption and header.
  const headerOffset = () => caption.offsetHeight + thead.offsetHeight;

  // One row's height, measured once with a real row so that CSS decides it.
  function measureRowHeight() {
    if (!order.length) return FALLBACK_ROW_HEIGHT;
    const probe = dataRow(0);
    tbody.replaceChildren(probe);
    const h = probe.getBoundingClientRect().height;
    tbody.replaceChildren();
    measured = h > 0;  // 0 while the table is not in the document
    return measured ? h : FALLBACK_ROW_HEIGHT;
  }

  // Column widths from the header and a sample of the shown text (ch units: a
  // monospace-ish estimate that is close enough with tabular numbers).
  function sizeColumns() {
    const sample = Math.min(sheet.rows, WIDTH_SAMPLE);
    let total = 0;
    columns.forEach((c, i) => {
      let widest = c.type === 'string' ? 6 : 5;
      for (let r = 0; r < sample; r++) {
        let len = 0;
        if (!c.validity[r]) continue;
        if (c.type === 'string') len = c.codes[r] >= 0 ? c.dictionary[c.codes[r]].length : 0;
        else len = formatNumber(c.values[r], c.type, c.unit).length;
        if (len > widest) widest = len;
      }
      const header = Math.min(c.name.length, 22) + (nameShowsUnit(c.name, c.unit) ? 0 : c.unit.length + 1);
      const ch = Math.min(MAX_CHARS, Math.max(widest, header) + 3);
      colgroup.children[i].style.width = `${ch}ch`;
      total += ch;
    });
    table.style.width = `${total}ch`;
  }

  // --- keyboard (activatable tables: roving focus over rows) ---------------------------
  function moveCursor(p) {
    const n = order.length;
    if (!n) return;
    cursor = Math.max(0, Math.min(n - 1, p));
    const y = cursor * rowHeight + headerOffset();  // the row's top in the scrolled content
    const sticky = thead.offsetHeight;               // the header row stays on top
    if (y < scroller.scrollTop + sticky) scroller.scrollTop = y - sticky;
    else if (y + rowHeight > scroller.scrollTop + scroller.clientHeight)
      scroller.scrollTop = y + rowHeight - scroller.clientHeight;
    rendered = null;
    render();
    for (const tr of tbody.querySelectorAll('tr.data')) tr.tabIndex = Number(tr.dataset.pos) === cursor ? 0 : -1;
    tbody.querySelector(`tr[data-pos="${cursor}"]`)?.focus({ preventScroll: true });
  }

  function activate(p) {
    if (p < 0 || p >= order.length) return;
    cursor = p;
    selected = order[p];
    for (const tr of tbody.querySelectorAll('tr.data'))
      tr.setAttribute('aria-selected', Number(tr.dataset.row) === selected ? 'true' : 'false');
    options.onActivate(selected);
  }

  if (activatable) {
    tbody.addEventListener('click', (e) => {
      const tr = e.target.closest('tr.data');
      if (tr) activate(Number(tr.dataset.pos));
    });
    tbody.addEventListener('keydown', (e) => {
      const page = Math.max(1, Math.floor(scroller.clientHeight / rowHeight) - 1);
      const moves = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page };
      if (e.key in moves) moveCursor(cursor + moves[e.key]);
      else if (e.key === 'Home') moveCursor(0);
      else if (e.key === 'End') moveCursor(order.length - 1);
      else if (e.key === 'Enter' || e.key === ' ') activate(cursor);
      else return;
      e.preventDefault();
    });
    tbody.addEventListener('focusin', (e) => {
      const tr = e.target.closest('tr.data');
      if (tr) cursor = Number(tr.dataset.pos);
    });
  }

  let frame = 0;
  scroller.addEventListener('scroll', () => {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      render();
    });
  });
  // Rendered before it is in the document, the table does not know its height yet:
  // render again once it has one.
  if (typeof ResizeObserver === 'function') {
    new ResizeObserver(() => {
      if (!measured) rowHeight = 0;  // measure again, now that CSS applies
      rendered = null;
      render();
    }).observe(scroller);
  }

  // --- export ----------------------------------------------------------------------------
  // export.mjs (CSV and Arrow writers, loaded on first use: the Arrow code is large)
  // exports the whole sheet as the core computed it, not the filtered view.
  async function exportSheet(format) {
    exportStatus.textContent = '';
    try {
      const module = await import('./export.mjs');
      await module.exportSheet(sheet, format);
    } catch (e) {
      exportStatus.textContent = `Export is not available: ${e?.message ?? e}`;
    }
  }

  if (options.sort) {
    const i = columns.findIndex((c) => c.name === options.sort.column);
    if (i >= 0) {
      sortColumn = i;
      descending = !options.sort.descending;
      toggleSort(i);
    }
  }
  sizeColumns();
  refresh(true);

  return {
    element,
    sheet,
    get order() { return order; },
    filter: (text) => {
      filter.value = text;
      applyFilter(text);
    },
    // Scrolls a sheet row into view and highlights it (e.g. the bubble clicked on a
    // chart); a filter that hides it is cleared.
    reveal(row) {
      let p = order.indexOf(row);
      if (p < 0) {
        filter.value = '';
        applyFilter('');
        p = order.indexOf(row);
      }
      if (p < 0) return;
      highlighted = row;
      scroller.scrollTop = Math.max(0, p * rowHeight + headerOffset() - thead.offsetHeight - rowHeight);
      rendered = null;
      render();
    },
  };
}

function el(tag, className) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  return e;
}

function spacerRow(span) {
  const tr = el('tr', 'spacer');
  tr.setAttribute('aria-hidden', 'true');
  const td = el('td');
  td.colSpan = span;
  tr.append(td);
  return tr;
}

const identity = (n) => {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
};

const countFormat = new Intl.NumberFormat('en-US');
const fmtCount = (n) => countFormat.format(n);
const rowsText = (n) => `${fmtCount(n)} row${n === 1 ? '' : 's'}`;

// Rank of each dictionary entry in collation order (computed once per column).
const ranks = new WeakMap();
function dictionaryRanks(dictionary, collator) {
  let rank = ranks.get(dictionary);
  if (rank) return rank;
  const idx = dictionary.map((_, i) => i).sort((a, b) => collator.compare(dictionary[a], dictionary[b]));
  rank = new Int32Array(dictionary.length);
  idx.forEach((d, i) => { rank[d] = i; });
  ranks.set(dictionary, rank);
  return rank;
}
