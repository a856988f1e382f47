// The Holistic Trace Analysis views (web/views/critical-path.mjs, launch-delays.mjs)
// on hand-made reports (tests/web/support/hta_report.mjs, figures worked by hand there)
// opened from share links, as a link someone sent would open them:
//   - both paths, no CUDA sync events: the inferred path's verdict first, trusted, side
//     by side with HTA's; the trust line; both breakdown tables' rows (by keyboard too);
//     trace names with HTML shown as text; ?view= opens on the view and follows it;
//   - CUDA sync events in the trace: the trust line says where the two paths can differ;
//   - launch delays: the histogram's bins, the outliers by kind with the cutoffs, the
//     longest delays first, the launches shorter on the GPU than their launch call;
//   - the notices: a report without HTA sheets (--no-hta), HTA sheets without a critical
//     path or launches (a trace without GPU events), a sheet left out of a share link.
// Screenshots go to `screenshots` (hta-*.png).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseCsv } from './views_checks.mjs';
import { shareText } from '../../web/views/hta-common.mjs';
import { DELAY_BINS, HOSTILE, HTA_SHARES, SHORTER_THAN_LAUNCH, emptyHtaSheets, fullHtaSheets, loadedReport, sheet, summary } from './support/hta_report.mjs';

const TIMEOUT_MS = 15_000;
const CP = 'section.view[data-view="critical-path"]';
const LD = 'section.view[data-view="launch-delays"]';

export function htaChecks({ context, origin, repo, check, screenshots }) {
  let encodeShare;
  const linkTo = async (loaded, view) => {
    encodeShare ??= (await import(path.join(repo, 'web/share.mjs'))).encodeShare;
    const { url } = await encodeShare(loaded, `${origin}/`);
    // The link names the view the way the page's address does (router.mjs).
    return view ? url.replace('#', `?view=${view}#`) : url;
  };

  async function openPage(loaded, view, label) {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
    await page.goto(await linkTo(loaded, view));
    await page.waitForFunction(() => ['loaded', 'error'].includes(document.body.dataset.state), null, { timeout: TIMEOUT_MS });
    check(await page.evaluate(() => document.body.dataset.state) === 'loaded', `hta ${label}: the link opens`);
    return { page, errors };
  }

  // Shows a view by its nav button and waits for it to be drawn.
  const show = async (page, view) => {
    await page.click(`nav [data-view="${view}"]`);
    return drawn(page, view);
  };
  const drawn = (page, view) => page.waitForFunction((v) => {
    const s = document.querySelector(`section.view[data-view="${v}"]`);
    return s && !s.hidden && !s.classList.contains('placeholder') && s.querySelector('.cp-verdict, .sheet-table, .empty-state');
  }, view, { timeout: TIMEOUT_MS });

  const text = (page, selector) => page.locator(selector).first().innerText().then((t) => t.trim());
  const dataRows = (page, selector) => page.$$eval(`${selector} tbody tr.data`, (trs) => trs.map((tr) =>
    [...tr.cells].map((td) => td.querySelector('data')?.value ?? td.textContent)));

  // Headings in order under the page's h1, every control named, every chart named.
  async function accessible(page, view, label) {
    const problems = await page.evaluate((v) => {
      const section = document.querySelector(`section.view[data-view="${v}"]`);
      const out = [];
      const levels = [...section.querySelectorAll('h2, h3, h4')].filter((h) => h.offsetParent).map((h) => Number(h.tagName[1]));
      if (levels[0] !== 2) out.push(`first heading h${levels[0]}`);
      levels.forEach((l, i) => { if (i && l > levels[i - 1] + 1) out.push(`h${levels[i - 1]} then h${l}`); });
      for (const c of section.querySelectorAll('button, input, select, summary')) {
        const named = c.getAttribute('aria-label') || c.labels?.length || c.textContent.trim() || c.getAttribute('aria-labelledby');
        if (!named && c.offsetParent) out.push(`unnamed ${c.tagName.toLowerCase()}`);
      }
      for (const svg of section.querySelectorAll('svg')) if (svg.getAttribute('role') !== 'img' || !svg.querySelector(':scope > title')?.textContent) out.push('a chart without role=img and a title');
      for (const t of section.querySelectorAll('table')) if (!t.querySelector('caption')?.textContent) out.push('a table without a caption');
      return out;
    }, view);
    check(problems.length === 0, `hta ${label}: headings in order, controls, charts and tables named${problems.length ? `: ${problems.join('; ')}` : ''}`);
  }

  async function clean(page, errors, label) {
    const found = await page.evaluate(() => ({
      elements: document.querySelectorAll('main img, main script, main iframe').length, xss: window.__xss,
    }));
    check(found.elements === 0 && found.xss === undefined && errors.length === 0,
      `hta ${label}: nothing injected from trace text, no page errors${errors.length ? `: ${errors.join('; ')}` : ''}`);
  }

  // Both paths, no sync events: the inferred path is trusted.
  async function bothPaths() {
    const { page, errors } = await openPage(loadedReport('two-paths.json', fullHtaSheets()), 'critical-path', 'both paths');
    await drawn(page, 'critical-path');
    check(await page.locator(CP).isVisible(), 'hta both paths: ?view=critical-path opens the link on the critical-path view');
    check(await page.getAttribute('nav [data-view="critical-path"]', 'aria-current') === 'page', 'hta both paths: its nav button is current');
    const verdict = await text(page, `${CP} .cp-verdict .verdict`);
    check(verdict === 'GPU-bound: 62.5% of the critical path is GPU kernels.', `hta both paths: the verdict is the inferred path's: "${verdict}"`);
    const more = await text(page, `${CP} .cp-verdict .detail`);
    check(/^Next: CPU ops, 30%\./.test(more), `hta both paths: the runner-up is named: "${more}"`);
    const cards = await page.$$eval(`${CP} .cp-path`, (cs) => cs.map((c) => ({
      title: c.querySelector('h3').textContent, verdict: c.querySelector('.cp-card-verdict').textContent,
      rects: c.querySelectorAll('svg rect').length, svgName: c.querySelector('svg > title')?.textContent ?? '',
      classes: [...c.querySelectorAll('.cp-classes tbody tr')].map((tr) => [...tr.cells].map((td) => td.textContent)) })));
    check(cards.length === 2, `hta both paths: two paths side by side (${cards.length})`);
    check(/^Inferred path/.test(cards[0]?.title) && /trusted/.test(cards[0]?.title) && /^HTA's path/.test(cards[1]?.title) && !/trusted/.test(cards[1]?.title),
      `hta both paths: the inferred path first and marked trusted (${cards.map((c) => c.title).join(' | ')})`);
    check(cards[1]?.verdict === 'CPU-bound: 97% of the critical path is CPU ops.', `hta both paths: HTA's path's verdict: "${cards[1]?.verdict}"`);
    // Four classes with a length each: four bars; the zero-length class draws none.
    check(cards.every((c) => c.rects === 4) && /CPU ops 97%/.test(cards[1]?.svgName),
      `hta both paths: a bar per class with a length, named for screen readers (${cards.map((c) => c.rects).join(', ')}; "${cards[1]?.svgName}")`);
    check(JSON.stringify(cards[1]?.classes) === JSON.stringify([['CPU ops (cpu_bound)', '97%'], ['GPU kernels (gpu_compute_bound)', '2%'],
      ['gaps between kernels (gpu_kernel_kernel_overhead)', '0.8%'], ['kernel launch delays (gpu_kernel_launch_overhead)', '0.3%'],
      ['zero-length dependencies ("")', '0%']]), `hta both paths: HTA's classes and shares listed (${JSON.stringify(cards[1]?.classes)})`);
    const trust = await text(page, `${CP} .cp-trust`);
    check(/^Trust the inferred path\. This trace has no CUDA sync events/.test(trust) && !/split the same way/.test(trust),
      `hta both paths: one line says which path to trust: "${trust.slice(0, 80)}…"`);

    // Breakdown tables: the trusted path's first, the other by its tab (arrow key).
    const inferredRows = await dataRows(page, `${CP} .tabpanel[data-tab="inferred"] .sheet-table`);
    check(inferredRows.length === 4 && inferredRows.map((r) => r[2]).join() === '12,25,2,1',
      `hta both paths: the inferred breakdown's 4 rows in path order (durations ${inferredRows.map((r) => r[2]).join(', ')})`);
    await page.focus(`${CP} [role=tab][data-tab="inferred"]`);
    await page.keyboard.press('ArrowRight');
    const htaRows = await dataRows(page, `${CP} .tabpanel[data-tab="hta"] .sheet-table`);
    check(await page.locator(`${CP} .tabpanel[data-tab="hta"]`).isVisible() && htaRows.length === 5 && htaRows[0][0] === `aten::mm ${HOSTILE}`,
      `hta both paths: the arrow key shows HTA's breakdown, 5 rows, the event name with HTML as text (${htaRows[0]?.[0]})`);
    const headers = await page.$$eval(`${CP} .tabpanel[data-tab="hta"] thead th .col-name`, (ths) => ths.map((th) => th.textContent));
    check(headers.join() === 's_name,type,duration,bound_by,stream,pid,tid,cat,event_idx,index',
      `hta both paths: HTA's column names, the event, its kind, duration and class first (${headers.join(', ')})`);
    const durationHeader = await text(page, `${CP} .tabpanel[data-tab="hta"] thead th:nth-child(3)`);
    check(/µs/.test(durationHeader), `hta both paths: duration shows its unit (${durationHeader})`);
    await page.screenshot({ path: path.join(screenshots, 'hta-critical-path.png'), fullPage: true });
    await accessible(page, 'critical-path', 'critical path');
    await clean(page, errors, 'critical path');

    await launchDelays(page);
    await clean(page, errors, 'launch delays');
    await page.close();
  }

  async function launchDelays(page) {
    await show(page, 'launch-delays');
    check(new URL(page.url()).searchParams.get('view') === 'launch-delays' && page.url().includes('#report='),
      'hta launch delays: the address follows the shown view and keeps the report');
    const bins = await page.$$eval(`${LD} .delay-bins tbody tr`, (trs) => trs.map((tr) => [tr.cells[0].textContent, Number(tr.cells[1].textContent)]));
    check(JSON.stringify(bins) === JSON.stringify(DELAY_BINS), `hta launch delays: histogram bins ${JSON.stringify(bins)}`);
    const over = await page.locator(`${LD} .delay-histogram rect.over-cutoff`).count();
    check(over === 3 && await page.locator(`${LD} .delay-histogram line.cutoff`).count() === 1,
      `hta launch delays: the 3 bars (100–200, 200–500, 1–2 ms) at or past the 100 µs cutoff are marked, the cutoff drawn (${over})`);
    const count = await text(page, `${LD} .launch-count`);
    check(/^14 launches: 12 by cudaLaunchKernel, cudaMemcpyAsync or cudaMemsetAsync \(HTA's, cuda_kernel_launch_stats\) and 2 by launch calls HTA does not read/.test(count),
      `hta launch delays: the launches counted by kind of call: "${count.slice(0, 90)}…"`);
    const outliers = Object.fromEntries(await page.$$eval(`${LD} .outlier-counts li`, (lis) => lis.map((li) => [li.dataset.kind, li.textContent])));
    check(/^6 of 14 launches \(42\.9%\): kernel shorter than its launch call, the call at most 50 µs/.test(outliers.short ?? ''), `hta launch delays: short kernels counted with the cutoff: "${outliers.short}"`);
    check(/^2 of 14 launches \(14\.3%\): launch call longer than 50 µs/.test(outliers.runtime ?? ''), `hta launch delays: runtime outliers counted with the cutoff: "${outliers.runtime}"`);
    check(/^4 of 14 launches \(28\.6%\): launch delay longer than 100 µs/.test(outliers.delay ?? ''), `hta launch delays: launch-delay outliers counted with the cutoff: "${outliers.delay}"`);
    // 4 of 14 launches past the cutoff: not most, so no note that the queue explains them.
    check(await page.locator(`${LD} .queue-note`).count() === 0, 'hta launch delays: no queue note when few launches pass the cutoff');
    await page.click(`${LD} .outliers [role=tab][data-tab="delay"]`);
    const delayRows = await dataRows(page, `${LD} .outliers .tabpanel[data-tab="delay"] .sheet-table`);
    check(delayRows.map((r) => r[4]).join() === '1500,400,250,120', `hta launch delays: the delay outliers' table, longest first (${delayRows.map((r) => r[4]).join(', ')})`);
    const worst = await dataRows(page, `${LD} .sheet-table[data-sheet="cuda_kernel_launch_stats"]`);
    check(worst.length === 12 && worst.slice(0, 3).map((r) => r[4]).join() === '1500,250,120',
      `hta launch delays: the longest delays first (${worst.slice(0, 3).map((r) => r[4]).join(', ')} of ${worst.length})`);
    await page.click(`${LD} [role=tab][data-tab="cuda_kernel_launch_stats_other_apis"]`);
    const other = await dataRows(page, `${LD} .sheet-table[data-sheet="cuda_kernel_launch_stats_other_apis"]`);
    check(other.length === 2 && other[0][4] === '400' && other[0][5] === `cudaGraphLaunch${HOSTILE}`,
      `hta launch delays: the other launch calls' tab, longest first, launch_api as text (${other.map((r) => r[5]).join(', ')})`);
    const cost = await text(page, `${LD} .launch-cost-summary`);
    check(cost.startsWith(`${SHORTER_THAN_LAUNCH} of 14 launches (50%) ran for less time on the GPU than their launch call`),
      `hta launch delays: launches shorter than their launch call: "${cost}"`);
    const cells = await page.$$eval(`${LD} svg.launch-cost rect.heat title`, (ts) => ts.map((t) => Number(/: (\d+) launches$/.exec(t.textContent)[1])));
    check(cells.reduce((a, b) => a + b, 0) === 14, `hta launch delays: the heat map counts every launch once (${cells.join('+')})`);
    const cellRows = await page.$$eval(`${LD} .launch-cost-cells tbody tr`, (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));
    // Rows 0 and 11 (launch call 5 µs, kernel 2 µs) and row 6 (9 µs, 4 µs) share the cell 5–10 × 2–5.
    check(cellRows.length === cells.length && cellRows.some((r) => r.join() === '5–10,2–5,3'),
      `hta launch delays: the heat map's cells are listed as a table too (${cellRows.length} cells: ${cellRows.map((r) => r.join(" ")).join("; ")})`);
    // The ATen ops, the longest avg_runtime_delay (9.5 µs, layer_norm) first, names as text.
    const ops = await dataRows(page, `${LD} .sheet-table[data-sheet="aten_op_kernels_and_delay"]`);
    check(ops.length === 2 && ops[0][0] === `aten::layer_norm${HOSTILE}` && ops[0][1] === '9.5',
      `hta launch delays: the ATen ops' kernels and delays, the longest runtime delay first, in sight (${ops.map((r) => r.slice(0, 2).join(' ')).join(', ')})`);
    const headings = await page.$$eval(`${LD} h2, ${LD} h3`, (hs) => hs.map((h) => h.textContent));
    check(headings.join(' | ') === 'Launch delays | How long kernels wait to start | Outliers | Longest launch delays | By ATen op | Launch call against kernel time',
      `hta launch delays: headings (${headings.join(' | ')})`);
    check(await page.$$eval(`${LD} svg[role=img]`, (ss) => ss.every((s) => s.querySelector(':scope > title')?.textContent)),
      'hta launch delays: every chart has an accessible name');
    await page.screenshot({ path: path.join(screenshots, 'hta-launch-delays.png'), fullPage: true });
    await accessible(page, 'launch-delays', 'launch delays');
  }

  // CUDA sync events in the trace: the inferred path (HTA's plus the waits of calls with
  // no sync event) is still the one to trust; the line says the two differ only there.
  async function withSyncEvents() {
    // As with sync events both paths are HTA's: the inferred summary is HTA's own.
    const sheets = fullHtaSheets().map((s) => (s.name === 'critical_path_inferred_summary' ? summary(s.name, HTA_SHARES) : s));
    const { page, errors } = await openPage(loadedReport('synced.json', sheets, { sync: 5 }), 'critical-path', 'sync events');
    await drawn(page, 'critical-path');
    const verdict = await text(page, `${CP} .cp-verdict .verdict`);
    check(verdict === 'CPU-bound: 97% of the critical path is CPU ops.', `hta sync events: the verdict: "${verdict}"`);
    const trust = await text(page, `${CP} .cp-trust`);
    check(/^Both paths are HTA's here: this trace has 5 CUDA sync events.* Here the two paths split the same way\.$/.test(trust),
      `hta sync events: the trust line counts the sync events and says the paths agree: "${trust.slice(0, 70)}…${trust.slice(-40)}"`);
    check(/^Inferred path/.test(await text(page, `${CP} .cp-path h3`)) && await page.locator(`${CP} .badge`).count() === 0,
      'hta sync events: the inferred path first, neither marked trusted (both are HTA\'s)');
    const source = await text(page, `${CP} .cp-verdict-source`);
    check(/which with this trace's CUDA sync events is HTA's own/.test(source), `hta sync events: the verdict says where it is read from: "${source}"`);
    await clean(page, errors, 'sync events');
    await page.close();
  }

  // Only HTA's path (no inferred sheets) and no sync events: read with care.
  async function htaPathOnly() {
    const sheets = fullHtaSheets().filter((s) => !s.name.startsWith('critical_path_inferred'));
    const { page, errors } = await openPage(loadedReport('hta-only.json', sheets), 'critical-path', 'HTA path only');
    await drawn(page, 'critical-path');
    check(await page.locator(`${CP} .cp-path`).count() === 1 && await page.locator(`${CP} [role=tab]`).count() === 1,
      'hta HTA path only: one path, one breakdown');
    const trust = await text(page, `${CP} .cp-trust`);
    check(/^Read this with care: the trace has no CUDA sync events/.test(trust), `hta HTA path only: the missing sync events are pointed out: "${trust.slice(0, 70)}…"`);
    await page.screenshot({ path: path.join(screenshots, 'hta-critical-path-hta-only.png'), fullPage: true });
    await clean(page, errors, 'HTA path only');
    await page.close();
  }

  // The notices: no HTA sheets; HTA sheets but nothing to show; a sheet left out of a link.
  async function notices() {
    let { page, errors } = await openPage(loadedReport('no-hta.json', []), 'critical-path', 'no HTA sheets');
    await drawn(page, 'critical-path');
    let notice = await text(page, `${CP} .no-critical-path`);
    check(/^This report has no Holistic Trace Analysis \(HTA\) sheets, .*made with --no-hta/.test(notice), `hta no HTA sheets: critical path notice: "${notice.slice(0, 80)}…"`);
    await page.screenshot({ path: path.join(screenshots, 'hta-critical-path-absent.png'), fullPage: true });
    await show(page, 'launch-delays');
    notice = await text(page, `${LD} .no-launch-stats`);
    check(/^This report has no Holistic Trace Analysis \(HTA\) sheets/.test(notice), `hta no HTA sheets: launch delays notice: "${notice.slice(0, 60)}…"`);
    await clean(page, errors, 'no HTA sheets');
    await page.close();

    ({ page, errors } = await openPage(loadedReport('cpu-only.json', emptyHtaSheets()), 'launch-delays', 'no GPU events'));
    await drawn(page, 'launch-delays');
    notice = await text(page, `${LD} .no-launch-stats`);
    check(/^No kernel launches in this report/.test(notice), `hta no GPU events: launch delays notice: "${notice.slice(0, 60)}…"`);
    await show(page, 'critical-path');
    notice = await text(page, `${CP} .no-critical-path`);
    check(/^No critical path in this report: the trace has no GPU events/.test(notice), `hta no GPU events: critical path notice: "${notice.slice(0, 60)}…"`);
    await page.screenshot({ path: path.join(screenshots, 'hta-critical-path-no-gpu.png'), fullPage: true });
    await clean(page, errors, 'no GPU events');
    await page.close();

    // A link too big for HTA's launches: the sheet comes empty, named in "dropped"; the
    // other launch calls' sheet is still there.
    const cut = loadedReport('cut.json', fullHtaSheets().map((s) => (s.name === 'cuda_kernel_launch_stats'
      ? sheet(s.name, Object.fromEntries(s.columns.map((c) => [c.name, [c.type, c.unit, []]]))) : s)));
    cut.dropped = ['cuda_kernel_launch_stats'];
    ({ page, errors } = await openPage(cut, 'launch-delays', 'cut link'));
    await drawn(page, 'launch-delays');
    notice = await text(page, `${LD} .launch-dropped`);
    check(/^cuda_kernel_launch_stats was too big for the share link .* What follows counts the other launches only\.$/.test(notice),
      `hta cut link: the emptied sheet is explained: "${notice.slice(0, 70)}…"`);
    check(/^2 launches: all by launch calls HTA does not read/.test(await text(page, `${LD} .launch-count`)), 'hta cut link: the other launch calls are still shown');
    await clean(page, errors, 'cut link');
    await page.close();
  }

  // A real trace opened in `page` (its report is the core's): the view shows a verdict
  // with its breakdown, or says why it cannot; the launch delays likewise. With `gz` and
  // the CLI built, the page's figures are those of `sollens report`'s CSVs for the trace:
  // the trusted path's largest share, the breakdown's rows, the launches.
  async function realTrace(page, label, gz = null) {
    await page.waitForFunction(() => document.body.dataset.hta !== 'pending', null, { timeout: TIMEOUT_MS });
    await show(page, 'critical-path');
    // A module built before the HTA sheets has none: nothing to compare (said, not passed).
    const stale = await page.locator(`${CP} .no-critical-path`).count()
      && /no Holistic Trace Analysis/.test(await text(page, `${CP} .no-critical-path`));
    if (stale && gz) console.log(`(hta ${label}: the wasm module's report has no HTA sheets: rebuild it to compare the views with sollens report)`);
    const cli = gz && !stale ? cliSheets(gz) : null;
    const verdict = await page.locator(`${CP} .cp-verdict .verdict`).count() ? await text(page, `${CP} .cp-verdict .verdict`) : null;
    const notice = await page.locator(`${CP} .no-critical-path`).count() ? await text(page, `${CP} .no-critical-path`) : null;
    check((verdict && /^((CPU-bound|GPU-bound|Launch-bound|Communication-bound|Bound by .*): [\d.<]+% of the critical path is |Split between .*: [\d.<]+% and [\d.<]+% of the critical path)/.test(verdict)) || (notice && !verdict),
      `hta ${label}: the critical path view gives a verdict or says why not (${verdict ?? notice})`);
    if (verdict) {
      const tabCounts = await page.$$eval(`${CP} [role=tab] .tab-count`, (ts) => ts.map((t) => t.textContent));
      const rowCount = await text(page, `${CP} .tabpanel:not([hidden]) .row-count`);
      check(tabCounts.length >= 1 && tabCounts[0] === `(${rowCount.replace(/ rows?$/, '')})`,
        `hta ${label}: the shown breakdown has the rows its tab counts (${tabCounts[0]}, ${rowCount})`);
    }
    const trusted = cli?.get('critical_path_inferred_summary') ? 'critical_path_inferred' : 'critical_path';
    const summary = cli?.get(`${trusted}_summary`);
    if (summary) {
      const shares = summary.rows.filter((r) => r[0] !== '').map((r) => Number(r[1]));
      const top = Math.max(...shares);
      const rows = cli.get(`${trusted}_breakdown`)?.rows.length;
      const shownRows = verdict ? await text(page, `${CP} .tabpanel:not([hidden]) .row-count`) : '';
      check(Boolean(verdict) && verdict.includes(`: ${shareText(top)} `) && shownRows === `${rows.toLocaleString('en-US')} rows`,
        `hta ${label}: the verdict's share and the breakdown's rows are sollens report's ${trusted}_summary.csv (${shareText(top)}) and _breakdown.csv (${rows} rows): ${verdict ?? 'no verdict: rebuild the wasm module'}; ${shownRows}`);
    }
    await page.screenshot({ path: path.join(screenshots, `hta-${label}-critical-path.png`), fullPage: true });
    await show(page, 'launch-delays');
    const bins = await page.locator(`${LD} .delay-bins tbody tr`).count();
    const none = await page.locator(`${LD} .no-launch-stats`).count();
    check((bins > 0) !== (none > 0), `hta ${label}: the launch delays view draws its histogram (${bins} bins) or says why not`);
    if (cli?.get('cuda_kernel_launch_stats')) {
      const launches = ['cuda_kernel_launch_stats', 'cuda_kernel_launch_stats_other_apis'].reduce((n, name) => n + (cli.get(name)?.rows.length ?? 0), 0);
      const binned = (await page.$$eval(`${LD} .delay-bins tbody tr`, (trs) => trs.map((tr) => Number(tr.cells[1].textContent.replace(/,/g, '')))))
        .reduce((a, b) => a + b, 0);
      check(binned === launches, `hta ${label}: the histogram counts every launch of sollens report's launch sheets (${binned} of ${launches})`);
    }
    await page.screenshot({ path: path.join(screenshots, `hta-${label}-launch-delays.png`), fullPage: true });
  }

  // sollens report's CSVs of the HTA sheets these views read, by sheet name (null without
  // the CLI): {header, rows}.
  function cliSheets(gz) {
    const cli = path.join(repo, 'build/native/sollens');
    if (!existsSync(cli)) return null;
    const out = mkdtempSync(path.join(tmpdir(), 'sollens-hta-'));
    try {
      execFileSync(cli, ['report', gz, '--out', out, '--no-json', '--no-xlsx'], { stdio: ['ignore', 'ignore', 'pipe'] });
      const sheets = new Map();
      for (const f of readdirSync(out).filter((n) => /^(critical_path|cuda_kernel_launch)/.test(n) && n.endsWith('.csv')))
        sheets.set(f.replace(/\.csv$/, ''), parseCsv(readFileSync(path.join(out, f), 'utf8')));
      return sheets;
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }

  const all = async () => {
    await bothPaths();
    await withSyncEvents();
    await htaPathOnly();
    await notices();
  };
  all.realTrace = realTrace;
  return all;
}
