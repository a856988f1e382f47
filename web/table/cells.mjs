// A table's cells and its filler rows. Strings from the trace are set with
// textContent; numbers are shown with their unit and a sensible precision, with the
// exact value in <data value>.

import { cellText, isTimestamp, timestampTitle } from '../units.mjs';
import { el } from '../widgets.mjs';

// The cell of sheet row r in column c.
export function dataCell(c, r) {
  const td = el('td');
  if (c.type === 'string') {
    const code = c.codes[r];
    if (c.validity[r] && code >= 0) {
      const s = c.dictionary[code];
      // A worded name (c.display, e.g. a readable module path) keeps the sheet's on hover.
      const shown = c.display ? c.display(s) : s;
      td.textContent = shown;
      if (shown !== s) td.dataset.value = s;
      if (shown !== s || s.length > 24) td.title = s;
    }
    return td;
  }
  td.className = 'num';
  if (!c.validity[r]) return td;
  const x = c.values[r];
  const data = document.createElement('data');
  data.value = String(x);
  data.textContent = cellText(c, x);
  td.append(data);
  if (isTimestamp(c.unit)) td.title = timestampTitle(x);
  return td;
}

// A row of no content whose height (set by the virtual scroller) stands for rows
// that are not rendered.
export function spacerRow(span) {
  const tr = el('tr', 'spacer');
  tr.setAttribute('aria-hidden', 'true');
  const td = el('td');
  td.colSpan = span;
  tr.append(td);
  return tr;
}

// The one row of a table that shows no row, saying why.
export function emptyRow(span, text) {
  const tr = el('tr', 'empty');
  const td = el('td');
  td.colSpan = span;
  td.textContent = text;
  tr.append(td);
  return tr;
}
