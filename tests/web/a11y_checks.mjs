// Keyboard and screen-reader basics of every view, run by e2e_test.mjs on a loaded
// report: one h1 and no skipped heading level; every visible select, input and button
// has an accessible name; the sidebar marks the shown view (aria-current) and only
// it; no positive tabindex (the Tab order is the document's); Tab from the sidebar
// goes into the view, with a visible focus ring; a breadcrumb keeps the focus; the
// status line is a live region.
// The name computation is the simple part of accname (aria-labelledby, aria-label,
// <label>, title, text): enough for the page's own controls.

export function a11yChecks({ page, check }) {
  // Per view: the problems found (empty when the view passes).
  const audit = (view) => page.evaluate((v) => {
    const shown = (e) => e.getClientRects().length > 0 && !e.closest('[hidden]');
    const nameOf = (e) => {
      const by = e.getAttribute('aria-labelledby');
      if (by) return by.split(/\s+/).map((id) => document.getElementById(id)?.textContent ?? '').join(' ').trim();
      const aria = e.getAttribute('aria-label');
      if (aria && aria.trim()) return aria.trim();
      const labels = [...(e.labels ?? [])].map((l) => l.textContent.trim()).join(' ').trim();
      if (labels) return labels;
      if (e.tagName === 'BUTTON') return e.textContent.trim() || (e.title ?? '').trim();
      return (e.title ?? '').trim();
    };
    const problems = [];
    for (const e of document.querySelectorAll('select, input, textarea, button')) {
      if (e.type === 'hidden' || !shown(e)) continue;
      if (!nameOf(e)) problems.push(`unnamed <${e.tagName.toLowerCase()}${e.type ? ` type=${e.type}` : ''}> in ${e.closest('section, header, nav')?.className || 'page'}`);
    }
    const headings = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].filter(shown).map((h) => Number(h.tagName[1]));
    if (headings.filter((l) => l === 1).length !== 1 || headings[0] !== 1) problems.push(`headings start ${headings.slice(0, 3).join(',')} (one h1 first)`);
    headings.forEach((l, i) => {
      if (i && l > headings[i - 1] + 1) problems.push(`heading level jumps from h${headings[i - 1]} to h${l}`);
    });
    const current = [...document.querySelectorAll('nav [data-view][aria-current="page"]')].map((b) => b.dataset.view);
    if (current.length !== 1 || current[0] !== v) problems.push(`aria-current on ${current.join(',') || 'no button'}`);
    const positive = [...document.querySelectorAll('[tabindex]')].filter((e) => e.tabIndex > 0);
    if (positive.length) problems.push(`${positive.length} element(s) with a positive tabindex`);
    return { problems, headings: headings.join(' ') };
  }, view);

  return async function accessibility(label) {
    const views = await page.$$eval('nav [data-view]', (bs) => bs.map((b) => b.dataset.view));
    for (const view of views) {
      await page.click(`nav [data-view="${view}"]`);
      await page.waitForFunction((v) => {
        const s = document.querySelector(`section.view[data-view="${v}"]`);
        return s && !s.hidden && (s.classList.contains('placeholder') || v === 'overview' || s.querySelector('.sheet-table, .empty-state, .timeline-canvas'));
      }, view, { timeout: 15_000 });
      const { problems, headings } = await audit(view);
      check(problems.length === 0, `${label} a11y ${view}: names, headings (${headings}), aria-current${problems.length ? `: ${problems.join('; ')}` : ''}`);
    }

    // Keyboard: Tab from the sidebar's last button goes into the shown view, and the
    // focused element shows a ring.
    await page.click('nav [data-view="kernels"]');
    await page.focus(`nav [data-view="${views.at(-1)}"]`);
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const e = document.activeElement;
      const style = getComputedStyle(e);
      return { inMain: Boolean(e.closest('main')), visible: e.matches(':focus-visible'),
        ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0, what: `${e.tagName.toLowerCase()}.${e.className}` };
    });
    check(focused.inMain && focused.visible && focused.ring,
      `${label} a11y: Tab from the sidebar goes into the view (${focused.what}) with a visible focus ring`);
    // A breadcrumb used from the keyboard is drawn again: the focus goes to the crumb
    // that is now current, not back to the page's start.
    const ops = 'section[data-view="ops"]';
    await page.click('nav [data-view="ops"]');
    await page.click(`${ops} [role=tab][data-tab="drill"]`);
    await page.click(`${ops} .level-category tbody tr.data >> nth=0`);
    await page.focus(`${ops} .crumbs button`);
    await page.keyboard.press('Enter');
    const crumb = await page.evaluate(() => ({ current: document.activeElement.getAttribute('aria-current'), text: document.activeElement.textContent }));
    check(crumb.current === 'location' && crumb.text === 'All categories', `${label} a11y: Enter on a breadcrumb leaves the focus on the current crumb (${crumb.text})`);
    check(await page.evaluate(() => {
      const s = document.getElementById('status');
      return s.getAttribute('role') === 'status' && s.getAttribute('aria-live') === 'polite';
    }), `${label} a11y: the status line is a live region`);
    await page.click('nav [data-view="overview"]');
  };
}
