// Small DOM builders the views share: headings, paragraphs, tabs. Text is set with
// textContent only.

export function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

// Empties a view's section and gives it its heading again (the section is labelled
// by the heading's id, `${view}-title`, as in index.html).
export function resetSection(section, title) {
  const view = section.dataset.view;
  const h2 = el('h2', '', title);
  h2.id = `${view}-title`;
  section.replaceChildren(h2);
  return section;
}

// A tab list over items [{id, label, count?}]; show(item, panel) fills the panel the
// first time its tab is chosen (panels are kept, so a table keeps its scroll and
// filter). Arrow keys move between tabs (WAI-ARIA tabs pattern, automatic activation).
// selected: the tab to show first (the first one if there is no such tab, e.g. a
// remembered tab the recomputed report no longer has); onSelect(id) is told of every
// choice, so that a view can remember it across a recompute.
export function tabs(items, show, { label, selected, onSelect } = {}) {
  const wrap = el('div', 'tabset');
  const list = el('div', 'tabs');
  list.setAttribute('role', 'tablist');
  if (label) list.setAttribute('aria-label', label);
  const panels = new Map();
  const buttons = items.map((item, i) => {
    const b = el('button');
    b.type = 'button';
    b.setAttribute('role', 'tab');
    b.dataset.tab = item.id;
    b.id = `tab-${uid}-${i}`;
    b.append(item.label);
    if (item.count !== undefined) b.append(el('span', 'tab-count', `(${item.count})`));
    b.addEventListener('click', () => choose(item.id));
    b.addEventListener('keydown', (e) => {
      const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
      if (!step) return;
      e.preventDefault();
      const next = buttons[(i + step + buttons.length) % buttons.length];
      next.focus();
      choose(next.dataset.tab);
    });
    list.append(b);
    return b;
  });
  uid++;
  wrap.append(list);

  function choose(id) {
    const item = items.find((x) => x.id === id);
    if (!item) return;
    buttons.forEach((b) => {
      const on = b.dataset.tab === id;
      b.setAttribute('aria-selected', on ? 'true' : 'false');
      b.tabIndex = on ? 0 : -1;
    });
    for (const [pid, p] of panels) p.hidden = pid !== id;
    if (!panels.has(id)) {
      const button = buttons[items.indexOf(item)];
      const panel = el('div', 'tabpanel');
      panel.id = `${button.id}-panel`;
      panel.setAttribute('role', 'tabpanel');
      panel.setAttribute('aria-labelledby', button.id);
      button.setAttribute('aria-controls', panel.id);
      panel.dataset.tab = id;
      panels.set(id, panel);
      wrap.append(panel);
      show(item, panel);
    }
    onSelect?.(id);
  }
  const first = items.some((x) => x.id === selected) ? selected : items[0]?.id;
  if (first !== undefined) choose(first);
  return { element: wrap, choose };
}
let uid = 0;

// A labelled <select>; onChange(value).
export function select(labelText, options, value, onChange) {
  const label = el('label', 'select');
  label.append(`${labelText} `);
  const s = el('select');
  for (const [v, text] of options) {
    const o = el('option', '', text);
    o.value = v;
    s.append(o);
  }
  s.value = value;
  s.addEventListener('change', () => onChange(s.value));
  label.append(s);
  return label;
}
