// Virtual scrolling of a table's body: only the rows in sight (plus a few) are in the
// DOM, between two spacer rows whose heights stand for the rest, so 100,000 rows
// scroll as fast as 100. Rows have one fixed height (style.css), measured once on a
// real row so that CSS decides it.

import { spacerRow, emptyRow } from './cells.mjs';

const OVERSCAN = 8;              // rows rendered above and below the visible ones
const FALLBACK_ROW_HEIGHT = 28;  // style.css's row height, until one can be measured

// parts: the table's {scroller, caption, thead, tbody}; span: its column count.
// rowCount(): how many rows are shown; makeRow(p): the <tr> at position p;
// emptyText(): what the body says with no row; focusedPosition(): the row to give
// the focus back to when rendering took it away (null: none).
export function createVirtualBody({ scroller, caption, thead, tbody }, span, { rowCount, makeRow, emptyText, focusedPosition }) {
  const topSpacer = spacerRow(span);
  const bottomSpacer = spacerRow(span);
  let rowHeight = 0;
  let measured = false;  // rowHeight measured on a row in the document
  let rendered = null;   // [first, last) rendered positions

  // Where the first row starts in the scrolled content: below the caption and header.
  const headerOffset = () => caption.offsetHeight + thead.offsetHeight;

  function measureRowHeight() {
    if (!rowCount()) return FALLBACK_ROW_HEIGHT;
    const probe = makeRow(0);
    tbody.replaceChildren(probe);
    const h = probe.getBoundingClientRect().height;
    tbody.replaceChildren();
    measured = h > 0;  // 0 while the table is not in the document
    return measured ? h : FALLBACK_ROW_HEIGHT;
  }

  // Renders the rows in sight, unless they are already.
  function render() {
    const n = rowCount();
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
    for (let p = first; p < last; p++) fragment.append(makeRow(p));
    fragment.append(bottomSpacer);
    tbody.replaceChildren(fragment);
    if (n === 0) tbody.replaceChildren(emptyRow(span, emptyText()));
    const focused = focusedPosition();
    if (hadFocus && focused !== null) tbody.querySelector(`tr[data-pos="${focused}"]`)?.focus({ preventScroll: true });
  }

  // Renders again (the rows or their order changed).
  function rerender() {
    rendered = null;
    render();
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
      rerender();
    }).observe(scroller);
  }

  return {
    rerender,
    // Rows in one page of the scroller (for Page Up / Page Down).
    pageRows: () => Math.max(1, Math.floor(scroller.clientHeight / rowHeight) - 1),
    // Scrolls as little as needed for the row at position p to be in sight below the
    // header row, which stays on top.
    scrollToShow(p) {
      const y = p * rowHeight + headerOffset();  // the row's top in the scrolled content
      const sticky = thead.offsetHeight;
      if (y < scroller.scrollTop + sticky) scroller.scrollTop = y - sticky;
      else if (y + rowHeight > scroller.scrollTop + scroller.clientHeight)
        scroller.scrollTop = y + rowHeight - scroller.clientHeight;
    },
    // Scrolls the row at position p to just below the top (one row above it in sight).
    scrollNear(p) {
      scroller.scrollTop = Math.max(0, p * rowHeight + headerOffset() - thead.offsetHeight - rowHeight);
    },
  };
}
