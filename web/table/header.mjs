// A table's header row (one sort button per column, with its unit) and its column
// widths. Text is set with textContent only.

import { nameShowsUnit, cellText, shownUnit } from '../units.mjs';
import { el } from '../widgets.mjs';

const MAX_CHARS = 44;        // widest column, in ch; longer text is cut with an ellipsis
const WIDTH_SAMPLE = 200;    // rows sampled for column widths

// onSort(i): the header of column i was clicked.
export function createHeader(columns, onSort) {
  const colgroup = el('colgroup');
  const thead = el('thead');
  const headRow = el('tr');
  headRow.setAttribute('aria-rowindex', '1');
  const headers = columns.map((c, i) => {
    const th = headerCell(c, i, () => onSort(i));
    headRow.append(th);
    colgroup.append(el('col'));
    return th;
  });
  thead.append(headRow);
  return {
    colgroup,
    thead,
    // Marks the sorted column (aria-sort), or none with sortColumn -1.
    showSort(sortColumn, descending) {
      headers.forEach((th, j) => {
        if (j === sortColumn) th.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
        else th.removeAttribute('aria-sort');
      });
    },
  };
}

function headerCell(c, i, onClick) {
  const th = el('th');
  th.scope = 'col';
  th.setAttribute('aria-colindex', String(i + 1));
  if (c.type !== 'string') th.className = 'num';
  const b = el('button', 'sort');
  b.type = 'button';
  const name = el('span', 'col-name');
  name.textContent = c.label;
  b.append(name);
  if (!nameShowsUnit(c.label, c.unit)) {
    const unit = el('span', 'col-unit');
    unit.textContent = shownUnit(c);
    b.append(' ', unit);
  }
  th.dataset.column = c.name;
  // Worded columns keep their sheet name on hover: the CSV's column.
  b.title = `Sort by ${c.label}${c.label === c.name ? '' : ` (${c.name} in the CSV)`}`;
  b.addEventListener('click', onClick);
  th.append(b);
  return th;
}

// Column widths (table-layout: fixed, so nothing moves while scrolling) from the
// header and a sample of the shown text, in ch units: a monospace-ish estimate that
// is close enough with tabular numbers.
export function sizeColumns(sheet, columns, colgroup, table) {
  const sample = Math.min(sheet.rows, WIDTH_SAMPLE);
  let total = 0;
  columns.forEach((c, i) => {
    let widest = c.type === 'string' ? 6 : 5;
    for (let r = 0; r < sample; r++) {
      let len = 0;
      if (!c.validity[r]) continue;
      if (c.type === 'string') len = c.codes[r] >= 0 ? (c.display?.(c.dictionary[c.codes[r]]) ?? c.dictionary[c.codes[r]]).length : 0;
      else len = cellText(c, c.values[r]).length;
      if (len > widest) widest = len;
    }
    const header = Math.min(c.label.length, 22) + (nameShowsUnit(c.label, c.unit) ? 0 : shownUnit(c).length + 1);
    const ch = Math.min(MAX_CHARS, Math.max(widest, header) + 3);
    colgroup.children[i].style.width = `${ch}ch`;
    total += ch;
  });
  table.style.width = `${total}ch`;
}
