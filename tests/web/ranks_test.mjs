// Several traces at once in the page, in Debian's headless Chromium (playwright-core),
// served by web/serve.mjs:
//   node tests/web/ranks_test.mjs [--site build/wasm/web] [--artifacts DIR]
// ranks     the eight PARAM DLRM rank traces dropped at once open the Ranks view: its
//           straggler table equals `sollens report DIR`'s straggler_summary.csv cell for
//           cell (build/native/sollens), each rank's stacked bar its gpu_timeline_ranks.csv
//           parts, the collective skew its nccl_implicit_sync.csv; a rank's own report
//           opens from the view and the view stays; the same folder chosen with the
//           folder picker gives the same straggler; two traces dropped ask, and
//           "Open them as ranks" gives two ranks
// compare   two traces dropped, "Compare them", the runs named main and pr (the columns
//           follow), "Copy link", the link opened in a fresh page: the same comparison
//           (names, total time change, every row of the ops table), nothing to recompute
// Prints "ranks: N passed, M failed"; screenshots go to --artifacts.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseCsv } from './views_checks.mjs';
import { repo, fixtures, defaultSite, gzOf, pathOptions, checks, startPageServer, CHROMIUM, launchChromium, readWholeTable as readTableRows, requireBuilt } from './support/harness.mjs';

const option = pathOptions();
const site = option('--site', defaultSite);
const artifacts = option('--artifacts', path.join(repo, 'build/wasm/web-artifacts'));
const TIMEOUT_MS = 60_000;
const RANKS = 'section.view[data-view="ranks"]';
const COMPARE = 'section.view[data-view="compare"]';
const dlrm = path.join(fixtures, 'param-dlrm-v100-8rank');
const dlrmFiles = readdirSync(dlrm).filter((f) => f.endsWith('.json.gz')).sort();
const cli = path.join(repo, 'build/native/sollens');

const { check, finish } = checks('ranks');
requireBuilt({ check, finish }, site, { cli });
mkdirSync(artifacts, { recursive: true });
const tmp = mkdtempSync(path.join(tmpdir(), 'sollens-ranks-'));

// The CLI's cross-rank sheets for the same eight files.
execFileSync(cli, ['report', dlrm, '--out', path.join(tmp, 'cli'), '--no-xlsx', '--no-json'], { stdio: ['ignore', 'ignore', 'pipe'] });
const cliSheet = (name) => parseCsv(readFileSync(path.join(tmp, 'cli', `${name}.csv`), 'utf8'));
const near = (a, b) => Math.abs(Number(a) - Number(b)) <= 1e-9 * Math.abs(Number(b)) + 1e-12;
const sameCell = (pageCell, csv) => (pageCell.value !== undefined ? csv !== '' && near(pageCell.value, csv) : pageCell.text === csv);

const { server, origin } = await startPageServer(site);
let browser;
try {
  browser = await launchChromium();
  const pageErrors = [];
  const newPage = async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    const page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') pageErrors.push(`console: ${m.text()}`); });
    return page;
  };
  const page = await newPage();
  await page.goto(`${origin}/`);

  // Files dropped on the page at once (a DataTransfer built in the page); a file is a
  // path, or [path, the name to drop it under].
  const drop = (files) => page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const [name, b64] of list)
      dt.items.add(new File([Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0))], name, { type: 'application/gzip' }));
    for (const type of ['dragenter', 'dragover', 'drop'])
      document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, files.map((f) => (Array.isArray(f) ? f : [f, path.basename(f)])).map(([f, name]) => [name, readFileSync(f).toString('base64')]));
  const waitForLoad = async (name) => {
    await page.waitForFunction((n) => {
      const s = document.body.dataset.state;
      return s === 'error' || (s === 'loaded' && document.getElementById('trace-name').textContent === n);
    }, name, { timeout: TIMEOUT_MS });
    return page.evaluate(() => (document.getElementById('error').hidden ? 'loaded' : 'error'));
  };
  const waitForRanks = (count) => page.waitForFunction(([sel, n]) => {
    const s = document.querySelector(sel);
    return s && !s.hidden && s.querySelectorAll('.rank-list li').length === n && s.querySelector('.straggler-table tbody tr.data');
  }, [RANKS, count], { timeout: TIMEOUT_MS });
  const readTable = (selector, p = page) => readTableRows(p, selector);
  // The page's table equals the CLI's CSV: every column shown, row by row in order.
  const equalsCsv = (label, table, csv) => {
    let bad = 0;
    table.headers.forEach((h, c) => {
      const i = csv.header.indexOf(h);
      if (i < 0) { bad++; console.log(`  ${label}: no CLI column ${h}`); return; }
      table.rows.forEach((row, r) => {
        if (!sameCell(row[c], csv.rows[r]?.[i] ?? '')) {
          bad++;
          console.log(`  ${label}: row ${r} ${h}: page ${row[c].value ?? row[c].text} vs CLI ${csv.rows[r]?.[i]}`);
        }
      });
    });
    return bad === 0 && table.rows.length === csv.rows.length;
  };

  // --- the eight DLRM ranks dropped at once -------------------------------------------
  await drop(dlrmFiles.map((f) => path.join(dlrm, f)));
  await waitForRanks(8);
  check(await page.locator(RANKS).isVisible(), 'ranks: eight dropped traces open the Ranks view');
  const straggler = cliSheet('straggler_summary');
  const shownStraggler = await readTable(`${RANKS} .straggler-table`);
  check(shownStraggler.headers.length === straggler.header.length && equalsCsv('straggler', shownStraggler, straggler),
    `ranks: the straggler table equals sollens report's straggler_summary.csv (${shownStraggler.rows.length} rows, ${shownStraggler.headers.length} columns)`);
  check(/^Rank 7 is the straggler\b/.test(await page.textContent(`${RANKS} .ranks-verdict`)),
    `ranks: the verdict names rank 7 (${await page.textContent(`${RANKS} .ranks-verdict`)})`);

  const timeline = cliSheet('gpu_timeline_ranks');
  const bars = await page.$$eval(`${RANKS} .rank-bars g[data-rank]`, (gs) => gs.map((g) =>
    [g.dataset.rank, Object.fromEntries([...g.querySelectorAll('rect')].map((r) => [r.getAttribute('class').replace('part-', ''), r.dataset.ms]))]));
  let badBars = 0;
  for (const [rank, parts] of bars) {
    const row = timeline.rows.find((r) => r[0] === rank);
    for (const part of ['computation_time', 'exposed_comm_time', 'exposed_memcpy_time', 'idle_time']) {
      const want = row?.[timeline.header.indexOf(`${part} ms`)];
      if (!(Number(want) === 0 && parts[part] === undefined) && !near(parts[part], want)) {
        badBars++;
        console.log(`  bars: rank ${rank} ${part}: page ${parts[part]} vs CLI ${want}`);
      }
    }
  }
  check(bars.length === 8 && badBars === 0, `ranks: one stacked bar per rank (${bars.length}), its parts gpu_timeline_ranks.csv's`);

  const sync = cliSheet('nccl_implicit_sync');
  const skews = await page.$$eval(`${RANKS} .skew-bars li`, (lis) => lis.length);
  const shownSync = await readTable(`${RANKS} .sheet-table[data-sheet="nccl_implicit_sync"]`);
  check(skews === sync.rows.length && equalsCsv('skew', shownSync, sync),
    `ranks: the skew of each collective (${skews} bars) and its table equal nccl_implicit_sync.csv`);
  await page.screenshot({ path: path.join(artifacts, 'ranks.png'), fullPage: true });

  // A rank's own report, one click away; the Ranks view stays.
  await page.click(`${RANKS} .rank-list li[data-rank="7"] button`);
  check(await waitForLoad(dlrmFiles[7]) === 'loaded', `ranks: "Open rank 7's report" opens ${dlrmFiles[7]}`);
  check(await page.locator('section.view[data-view="overview"]').isVisible(), 'ranks: the rank\'s report shows its overview');
  await page.click('nav [data-view="ranks"]');
  await waitForRanks(8);
  check(/shown now/.test(await page.textContent(`${RANKS} .rank-list li[data-rank="7"]`)),
    'ranks: back in the Ranks view, rank 7 is marked as the report shown');

  // The folder picker, on the same folder (its other files are left out).
  await page.setInputFiles('#ranks-folder-input', dlrm);
  // Files from a folder are named by their path in it.
  await page.waitForFunction((sel) => document.querySelector(`${sel} .rank-list .rank-file`)?.textContent.startsWith('param-dlrm-v100-8rank/'),
    RANKS, { timeout: TIMEOUT_MS });
  await waitForRanks(8);
  const fromFolder = await readTable(`${RANKS} .straggler-table`);
  check(equalsCsv('straggler (folder)', fromFolder, straggler), 'ranks: a chosen folder gives the same straggler table');

  // Two traces: the page asks. Their names hold HTML, shown as text.
  const hostile = '<img src=x onerror="window.__xss=1">';
  await drop(dlrmFiles.slice(0, 2).map((f, i) => [path.join(dlrm, f), `${hostile}${i}.json.gz`]));
  await page.waitForSelector('#two-traces', { timeout: TIMEOUT_MS });
  check(await page.locator('#two-compare').isVisible() && await page.locator('#two-ranks').isVisible(),
    'two traces: the page asks whether to compare them or open them as ranks');
  await page.screenshot({ path: path.join(artifacts, 'two-traces.png') });
  await page.click('#two-ranks');
  await waitForRanks(2);
  check(await page.locator(`${RANKS} .skew-bars li`).count() > 0, 'two traces opened as ranks: two ranks, their collectives matched');
  check((await page.textContent(`${RANKS} .rank-list`)).includes(`${hostile}0.json.gz`) &&
    await page.evaluate(() => document.querySelectorAll('main img').length === 0 && window.__xss === undefined),
  'ranks: file names with HTML are shown as text, and nothing runs');

  // --- a comparison shared as a link ---------------------------------------------------
  const base = gzOf('tracelens-h100-bert-small');
  const variant = gzOf('tracelens-mi300x-bert-small');
  await drop([base, variant]);
  await page.waitForSelector('#two-compare', { timeout: TIMEOUT_MS });
  await page.click('#two-compare');
  const waitForComparison = (p, diffColumn) => p.waitForFunction(([sel, column]) => {
    const s = document.querySelector(sel);
    return s && !s.hidden && [...s.querySelectorAll('.compare-ops thead th')].some((h) => h.dataset.column === column);
  }, [COMPARE, diffColumn], { timeout: TIMEOUT_MS });
  await waitForComparison(page, 'total_direct_kernel_time_ms__variant_diff');
  await page.fill('#compare-name-baseline', 'main');
  await page.fill('#compare-name-variant', 'pr');
  await page.click('#compare-rename');
  await waitForComparison(page, 'total_direct_kernel_time_ms__pr_diff');
  check(await page.locator(`${COMPARE} .compare-ops thead th[data-column="main::total_direct_kernel_time_ms"]`).count() === 1,
    'compare: the runs named main and pr name the compared columns, as sollens diff --names main,pr');
  const before = { ops: await readTable(`${COMPARE} .compare-ops`), total: await page.getAttribute(`${COMPARE} .compare-total`, 'data-diff'),
    runs: await page.$$eval(`${COMPARE} .compare-runs dd`, (dds) => dds.map((d) => d.textContent)) };
  await page.click('#share-link');
  await page.waitForSelector('#share-panel:not([hidden])', { timeout: TIMEOUT_MS });
  const url = await page.inputValue('#share-url');
  check(url.startsWith(`${origin}/#report=`), `compare: Copy link makes a link (${url.length} characters)`);

  const fresh = await newPage();
  await fresh.goto(url);
  await waitForComparison(fresh, 'total_direct_kernel_time_ms__pr_diff');
  const sharedOps = await readTable(`${COMPARE} .compare-ops`, fresh);
  const flat = (t) => JSON.stringify({ headers: t.headers, rows: t.rows.map((r) => r.map((c) => c.value ?? c.text)) });
  check(flat(sharedOps) === flat(before.ops), `compare: the link shows the same ops table (${sharedOps.rows.length} rows)`);
  check(await fresh.getAttribute(`${COMPARE} .compare-total`, 'data-diff') === before.total &&
    JSON.stringify(await fresh.$$eval(`${COMPARE} .compare-runs dd`, (dds) => dds.map((d) => d.textContent))) === JSON.stringify(before.runs),
  `compare: the link shows the same runs and total time change (${before.runs.join(' → ')}, ${before.total} ms)`);
  check(await fresh.inputValue('#compare-name-baseline') === 'main' && await fresh.inputValue('#compare-name-variant') === 'pr',
    'compare: the link keeps the runs\' names');
  check(await fresh.locator('#compare-swap').isDisabled() && await fresh.locator('#compare-rename').isDisabled(),
    'compare: a comparison from a link has no traces behind it: swap and rename are off');
  await fresh.screenshot({ path: path.join(artifacts, 'compare-from-link.png'), fullPage: true });

  check(pageErrors.length === 0, `no page errors${pageErrors.length ? `: ${pageErrors.join('; ')}` : ''}`);
} catch (e) {
  check(false, `unexpected: ${e.stack ?? e}`);
} finally {
  await browser?.close();
  server.kill();
  rmSync(tmp, { recursive: true, force: true });
}
finish();
