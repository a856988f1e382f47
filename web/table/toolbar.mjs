// A table's toolbar: the filter field, the row count, and the sheet's export buttons.

import { el } from '../widgets.mjs';

// id: the table's id (the filter controls it); label: the table's name, for the
// filter's accessible name; onFilter(text): filter the rows (debounced while typing,
// at once on Enter).
export function createToolbar(sheet, { id, label, onFilter }) {
  const element = el('div', 'table-toolbar');
  const filterLabel = el('label', 'table-filter');
  filterLabel.append('Filter ');
  const filter = el('input');
  filter.type = 'search';
  filter.placeholder = 'text in any column';
  filter.setAttribute('aria-controls', id);
  // Several tables share a view: the name says which one this filters.
  filter.setAttribute('aria-label', `Filter ${label}`);
  filter.spellcheck = false;
  filterLabel.append(filter);
  const count = el('output', 'row-count');
  count.setAttribute('aria-live', 'polite');
  element.append(filterLabel, count, exportButtons(sheet));

  let filterTimer = 0;
  filter.addEventListener('input', () => {
    clearTimeout(filterTimer);
    filterTimer = setTimeout(() => onFilter(filter.value), sheet.rows > 20000 ? 150 : 40);
  });
  filter.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      clearTimeout(filterTimer);
      onFilter(filter.value);
    }
  });

  return {
    element,
    filter,
    // shown of all rows pass the filter.
    showCount(shown, all) {
      count.textContent = shown === all ? rowsText(shown) : `${fmtCount(shown)} of ${rowsText(all)}`;
    },
  };
}

const countFormat = new Intl.NumberFormat('en-US');
const fmtCount = (n) => countFormat.format(n);
const rowsText = (n) => `${fmtCount(n)} row${n === 1 ? '' : 's'}`;

// CSV and Arrow buttons. export.mjs (the writers, loaded on first use: the Arrow code
// is large) exports the whole sheet as the core computed it, not the filtered view.
function exportButtons(sheet) {
  const exports = el('span', 'table-export');
  const exportStatus = el('span', 'export-status');
  exportStatus.setAttribute('role', 'status');
  const exportSheet = async (format) => {
    exportStatus.textContent = '';
    try {
      const module = await import('../export.mjs');
      await module.exportSheet(sheet, format);
    } catch (e) {
      exportStatus.textContent = `Export is not available: ${e?.message ?? e}`;
    }
  };
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
  return exports;
}
