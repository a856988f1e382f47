// Activatable tables (role=grid): a row is chosen by click, Enter or Space, and the
// arrow keys, Page Up/Down, Home and End move a roving focus over the rows.

// tbody and body (virtual.mjs): the table's; order(): the shown sheet rows, top to
// bottom; state: the table's {cursor (the focused position), selected (sheet row)},
// kept up to date here; onActivate(row): a row was chosen.
export function wireSelection({ tbody, body, order, state }, onActivate) {
  const rowCount = () => order().length;
  function moveCursor(p) {
    const n = rowCount();
    if (!n) return;
    state.cursor = Math.max(0, Math.min(n - 1, p));
    body.scrollToShow(state.cursor);
    body.rerender();
    for (const tr of tbody.querySelectorAll('tr.data')) tr.tabIndex = Number(tr.dataset.pos) === state.cursor ? 0 : -1;
    tbody.querySelector(`tr[data-pos="${state.cursor}"]`)?.focus({ preventScroll: true });
  }

  function activate(p) {
    if (p < 0 || p >= rowCount()) return;
    state.cursor = p;
    state.selected = order()[p];
    for (const tr of tbody.querySelectorAll('tr.data'))
      tr.setAttribute('aria-selected', Number(tr.dataset.row) === state.selected ? 'true' : 'false');
    onActivate(state.selected);
  }

  tbody.addEventListener('click', (e) => {
    const tr = e.target.closest('tr.data');
    if (tr) activate(Number(tr.dataset.pos));
  });
  tbody.addEventListener('keydown', (e) => {
    const page = body.pageRows();
    const moves = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page };
    if (e.key in moves) moveCursor(state.cursor + moves[e.key]);
    else if (e.key === 'Home') moveCursor(0);
    else if (e.key === 'End') moveCursor(rowCount() - 1);
    else if (e.key === 'Enter' || e.key === ' ') activate(state.cursor);
    else return;
    e.preventDefault();
  });
  tbody.addEventListener('focusin', (e) => {
    const tr = e.target.closest('tr.data');
    if (tr) state.cursor = Number(tr.dataset.pos);
  });
}
