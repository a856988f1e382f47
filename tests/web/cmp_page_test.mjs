// Comparisons that read themselves and the Ranks view's verdict, in Debian's headless
// Chromium (playwright-core), served by web/serve.mjs, checked against the CLI
// (build/native/sollens):
//   node tests/web/cmp_page_test.mjs [--site build/wasm/web] [--artifacts DIR] [--screenshots DIR]
// names     the H100 and MI300X bert-small traces (the same file name) compared: each run's
//           card shows its name and the device its trace names (sollens diff's
//           compare_runs.csv), the headline is compare_verdict.csv's; renamed h100 and
//           mi300x, the headline follows (`sollens diff --names h100,mi300x`); no header
//           cell of the view shows a raw column name (`::`, `__…_diff`)
// unlaunched the hand-made pair of tests/fixtures/synthetic/compare: the baseline's card
//           shows the GPU time with no launch in the trace as compare_runs.csv, and the ops
//           table has its row, equal to sollens diff's ops_summary.csv
// ranks     the eight PARAM DLRM ranks: the verdict is straggler_verdict.csv's sentence, in
//           the first 800 px; the first chart's longest bar is the straggler's, its values
//           rank_lateness.csv's
// Prints "cmp: N passed, M failed"; screenshots go to --screenshots.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseCsv } from './views_checks.mjs';
import { repo, fixtures, defaultSite, gzOf, pathOptions, checks, startPageServer, CHROMIUM, launchChromium, readWholeTable, requireBuilt } from './support/harness.mjs';

const option = pathOptions();
const site = option('--site', defaultSite);
const screenshots = option('--screenshots', option('--artifacts', path.join(repo, 'build/wasm/web-screenshots')));
const TIMEOUT_MS = 60_000;
const COMPARE = 'section.view[data-view="compare"]';
const RANKS = 'section.view[data-view="ranks"]';
const cli = path.join(repo, 'build/native/sollens');
const synthetic = path.join(repo, 'tests/fixtures/synthetic/compare');
const dlrm = path.join(fixtures, 'param-dlrm-v100-8rank');

const { check, finish } = checks('cmp');
requireBuilt({ check, finish }, site, { cli });
mkdirSync(screenshots, { recursive: true });
const tmp = mkdtempSync(path.join(tmpdir(), 'sollens-cmp-'));

// `sollens diff BASE NEW [--names A,B]`'s sheets, by name.
const cliDiff = (base, variant, names) => {
  const out = path.join(tmp, `diff-${Math.random().toString(36).slice(2)}`);
  execFileSync(cli, ['diff', base, variant, '--out', out, ...(names ? ['--names', names] : [])], { stdio: ['ignore', 'ignore', 'pipe'] });
  return (sheet) => parseCsv(readFileSync(path.join(out, `${sheet}.csv`), 'utf8'));
};
const value = (csv, row, column) => csv.rows[row][csv.header.indexOf(column)];
const near = (a, b) => Math.abs(Number(a) - Number(b)) <= 1e-9 * Math.abs(Number(b)) + 1e-12;

const { server, origin } = await startPageServer(site);
let browser;
try {
  browser = await launchChromium();
  const pageErrors = [];
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') pageErrors.push(`console: ${m.text()}`); });
  await page.goto(`${origin}/`);

  const waitForLoad = (name) => page.waitForFunction((n) => {
    const s = document.body.dataset.state;
    return s === 'error' || (s === 'loaded' && document.getElementById('trace-name').textContent === n);
  }, name, { timeout: TIMEOUT_MS });
  // The comparison drawn with the runs named `names`.
  const waitForNames = (names) => page.waitForFunction(([sel, [a, b]]) => {
    const s = document.querySelector(sel);
    const shown = [...(s?.querySelectorAll('.compare-run .run-name') ?? [])].map((n) => n.textContent);
    return s && !s.hidden && s.querySelector('.compare-ops') && shown[0] === a && shown[1] === b;
  }, [COMPARE, names], { timeout: TIMEOUT_MS });
  const compare = async (base, variant) => {
    await page.setInputFiles('#file-input', base);
    await waitForLoad(path.basename(base));
    await page.click('nav [data-view="compare"]');
    await page.setInputFiles('#compare-file-input', variant);
    await waitForNames(['baseline', 'variant']);
  };
  const rename = async (a, b) => {
    await page.fill('#compare-name-baseline', a);
    await page.fill('#compare-name-variant', b);
    await page.click('#compare-rename');
    await waitForNames([a, b]);
  };
  const cards = () => page.$$eval(`${COMPARE} .compare-run`, (cs) => cs.map((c) => ({
    name: c.querySelector('.run-name').textContent, device: c.querySelector('.compare-run-device').textContent,
    facts: Object.fromEntries([...c.querySelectorAll('dd')].map((d) => [d.dataset.fact, d.dataset.value ?? d.textContent])),
  })));
  const headline = () => page.textContent(`${COMPARE} .compare-headline`);

  // --- names and devices: H100 against MI300X, both files named the same ----------------
  const base = gzOf('tracelens-h100-bert-small');
  const variant = gzOf('tracelens-mi300x-bert-small');
  check(path.basename(base) === path.basename(variant), 'names: the two bert-small traces have the same file name');
  await compare(base, variant);
  const plain = cliDiff(base, variant);
  const runsCsv = plain('compare_runs');
  let shown = await cards();
  check(shown.length === 2 && shown[0].device === value(runsCsv, 0, 'device') && shown[1].device === value(runsCsv, 1, 'device') &&
    shown[0].device === 'NVIDIA H100 80GB HBM3' && shown[1].device.startsWith('AMD Instinct MI300X'),
  `names: each run's card names its device as sollens diff's compare_runs.csv (${shown.map((c) => `${c.name}: ${c.device}`).join('; ')})`);
  check(shown[0].name !== shown[1].name, `names: the runs' default names differ (${shown[0].name}, ${shown[1].name})`);
  check(await headline() === value(plain('compare_verdict'), 0, 'headline'),
    `names: the headline is sollens diff's (${await headline()})`);
  await page.screenshot({ path: path.join(screenshots, 'cmp-compare.png') });

  await rename('h100', 'mi300x');
  const named = cliDiff(base, variant, 'h100,mi300x');
  const renamed = await headline();
  check(renamed === value(named('compare_verdict'), 0, 'headline') && /^mi300x is [\d.]+ % faster than h100: /.test(renamed),
    `names: renamed, the headline follows, as sollens diff --names h100,mi300x (${renamed})`);
  shown = await cards();
  check(shown[0].name === 'h100' && shown[1].name === 'mi300x', 'names: the cards follow the rename');
  const rawHeaders = await page.$$eval(`${COMPARE} thead th .col-name`, (hs) => hs.map((h) => h.textContent)
    .filter((t) => t.includes('::') || /__\w+_(diff|pct)$/.test(t) || /_(ms|us|pct)$/.test(t)));
  const headerCount = await page.locator(`${COMPARE} thead th .col-name`).count();
  check(headerCount > 0 && rawHeaders.length === 0,
    `names: no raw column name in the view's ${headerCount} header cells${rawHeaders.length ? `: ${rawHeaders.slice(0, 5).join(', ')}` : ''}`);
  await page.screenshot({ path: path.join(screenshots, 'cmp-compare-renamed.png'), fullPage: true });

  // --- kernels with no launch: the hand-made pair ---------------------------------------
  const orphanBase = path.join(synthetic, 'h100_unlaunched.json');
  const orphanVariant = path.join(synthetic, 'mi300x_launched.json');
  await compare(orphanBase, orphanVariant);
  const orphan = cliDiff(orphanBase, orphanVariant);
  const orphanRuns = orphan('compare_runs');
  shown = await cards();
  check(near(shown[0].facts['no-launch'], value(orphanRuns, 0, 'no_launch_in_trace')) && near(shown[0].facts['no-launch'], 0.04),
    `unlaunched: the baseline's card shows ${shown[0].facts['no-launch']} ms with no launch, as compare_runs.csv (0.04 ms by hand)`);
  const ops = await readWholeTable(page, `${COMPARE} .compare-ops`);
  const opsCsv = orphan('ops_summary');
  const nameAt = ops.headers.indexOf('name');
  const timeAt = ops.headers.indexOf('baseline::total_direct_kernel_time_ms');
  const row = ops.rows.find((r) => r[nameAt].text === '(kernels with no launch in the trace)');
  const csvRow = opsCsv.rows.find((r) => r[opsCsv.header.indexOf('name')] === '(kernels with no launch in the trace)');
  check(row && csvRow && near(row[timeAt].value, csvRow[opsCsv.header.indexOf('baseline::total_direct_kernel_time_ms')]),
    `unlaunched: the ops table has the row "(kernels with no launch in the trace)", ${row?.[timeAt].value} ms as sollens diff's ops_summary.csv`);
  check(ops.rows.length === opsCsv.rows.length, `unlaunched: the ops table has sollens diff's ${opsCsv.rows.length} rows`);
  check(/baseline: 0\.04\d* ms \(80/.test(await page.textContent(`${COMPARE} .compare-unlaunched`)),
    `unlaunched: said in words above the ops (${await page.textContent(`${COMPARE} .compare-unlaunched`)})`);
  await page.screenshot({ path: path.join(screenshots, 'cmp-compare-unlaunched.png'), fullPage: true });

  // --- ranks: the verdict first ---------------------------------------------------------
  const files = readdirSync(dlrm).filter((f) => f.endsWith('.json.gz')).sort().map((f) => path.join(dlrm, f));
  execFileSync(cli, ['report', dlrm, '--out', path.join(tmp, 'ranks'), '--no-xlsx', '--no-json'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const ranksCsv = (name) => parseCsv(readFileSync(path.join(tmp, 'ranks', `${name}.csv`), 'utf8'));
  await page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const [name, b64] of list)
      dt.items.add(new File([Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0))], name, { type: 'application/gzip' }));
    for (const type of ['dragenter', 'dragover', 'drop'])
      document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, files.map((f) => [path.basename(f), readFileSync(f).toString('base64')]));
  await page.waitForFunction((sel) => document.querySelector(sel)?.querySelectorAll('.rank-list li').length === 8, RANKS, { timeout: TIMEOUT_MS });
  await page.evaluate(() => window.scrollTo(0, 0));
  const verdictCsv = ranksCsv('straggler_verdict');
  const verdict = await page.textContent(`${RANKS} .ranks-verdict`);
  check(verdict === value(verdictCsv, 0, 'verdict') && verdict.startsWith('Rank 7 is the straggler'),
    `ranks: the verdict is sollens report's straggler_verdict.csv (${verdict})`);
  const box = await page.locator(`${RANKS} .ranks-verdict`).boundingBox();
  check(box && box.y + box.height <= 800, `ranks: the verdict is in the first 800 px (bottom at ${box && Math.round(box.y + box.height)} px)`);
  const bars = await page.$$eval(`${RANKS} .lateness-bars li`, (lis) => lis.map((li) => ({
    rank: li.dataset.rank, width: li.querySelector('.skew-bar').getBoundingClientRect().width,
    text: li.querySelector('.skew-value').textContent,
  })));
  const longest = bars.reduce((a, b) => (b.width > a.width ? b : a), bars[0] ?? { rank: null });
  check(longest.rank === value(verdictCsv, 0, 'rank'), `ranks: the first chart's longest bar is the straggler's (rank ${longest.rank})`);
  const late = ranksCsv('rank_lateness');
  check(bars.length === late.rows.length && bars.every((b, i) => b.rank === late.rows[i][0] &&
    Math.abs(parseFloat(b.text) - Number(late.rows[i][late.header.indexOf('late_ms')])) < 0.0005),
  `ranks: the chart's values are rank_lateness.csv's (${bars.map((b) => `${b.rank}: ${b.text}`).join(', ')})`);
  await page.screenshot({ path: path.join(screenshots, 'cmp-ranks.png') });

  check(pageErrors.length === 0, `no page errors${pageErrors.length ? `: ${pageErrors.join('; ')}` : ''}`);
} catch (e) {
  check(false, `unexpected: ${e.stack ?? e}`);
} finally {
  await browser?.close();
  server.kill();
  rmSync(tmp, { recursive: true, force: true });
}
finish();
