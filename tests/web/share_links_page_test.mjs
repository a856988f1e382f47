// Short share links and .sollens files in the page, in Debian's headless Chromium
// (playwright-core), served by web/serve.mjs:
//   node tests/web/share_links_page_test.mjs [--site build/wasm/web] [--artifacts DIR] [--screenshots DIR]
// views    the sample opened; "Copy link" on the overview, the kernels and the launch
//          delays views; each link opened in a fresh page shows that view with the same
//          numbers (the GPU timeline, the view's first table cell for cell), and the
//          kernels table equals `sollens report`'s kernel_summary.csv; a view not in the
//          link says so; the overview's link is at most 8,000 characters
// too long the ops view's link is over 8,000: the share panel says how long it would be
//          and offers "Download a .sollens file"; the file dropped on a fresh page (and
//          chosen with the file picker) opens with every view: the ops table the same; a
//          damaged one says so and the report on screen stays
// ranks    the eight PARAM DLRM rank traces dropped at once: on the Ranks view "Copy link"
//          and "Download report (JSON)" work; the link opened in a fresh page shows the
//          Ranks view with the same straggler and skew tables; the JSON's straggler_summary
//          equals the CLI's straggler_summary.csv; a rank's own report asked for there says
//          its trace is not in the link; the rank set's .sollens file opens by drop
// Prints "share page: N passed, M failed"; screenshots of the share panel and of the
// opened links go to --screenshots.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseCsv } from './views_checks.mjs';
import { repo, fixtures, defaultSite, pathOptions, checks, startPageServer, CHROMIUM, launchChromium, readWholeTable, requireBuilt } from './support/harness.mjs';

const option = pathOptions();
const site = option('--site', defaultSite);
const artifacts = option('--artifacts', path.join(repo, 'build/wasm/web-artifacts'));
const screenshots = option('--screenshots', path.join(repo, 'build/wasm/web-screenshots'));
const TIMEOUT_MS = 60_000;
const LINK_TARGET = 8000;
const SAMPLE = path.join(repo, 'samples/h100-bert-small.json.gz');
const dlrm = path.join(fixtures, 'param-dlrm-v100-8rank');
const dlrmFiles = readdirSync(dlrm).filter((f) => f.endsWith('.json.gz')).sort();
const cli = path.join(repo, 'build/native/sollens');
const section = (view) => `section.view[data-view="${view}"]`;

const { check, finish } = checks('share page');
requireBuilt({ check, finish }, site, { cli });
for (const dir of [artifacts, screenshots]) mkdirSync(dir, { recursive: true });
const tmp = mkdtempSync(path.join(tmpdir(), 'sollens-share-page-'));
const runCli = (args, out) => {
  execFileSync(cli, ['report', ...args, '--out', out, '--no-xlsx', '--no-json'], { stdio: ['ignore', 'ignore', 'pipe'] });
  return (name) => parseCsv(readFileSync(path.join(out, `${name}.csv`), 'utf8'));
};
const sampleCsv = runCli([SAMPLE], path.join(tmp, 'sample'));
const ranksCsv = runCli([dlrm], path.join(tmp, 'ranks'));
const near = (a, b) => Math.abs(Number(a) - Number(b)) <= 1e-9 * Math.abs(Number(b)) + 1e-12;
const sameCell = (cell, csv) => (cell.value !== undefined ? csv !== '' && near(cell.value, csv) : cell.text === csv);
function equalsCsv(label, table, csv) {
  let bad = 0;
  table.headers.forEach((h, c) => {
    const i = csv.header.indexOf(h);
    if (i < 0) {
      bad++;
      console.log(`  ${label}: no CLI column ${h}`);
      return;
    }
    table.rows.forEach((row, r) => {
      if (!sameCell(row[c], csv.rows[r]?.[i] ?? '') && bad++ < 5) console.log(`  ${label}: row ${r} ${h}: page ${row[c].value ?? row[c].text} vs CLI ${csv.rows[r]?.[i]}`);
    });
  });
  return bad === 0 && table.rows.length === csv.rows.length;
}

const { server, origin } = await startPageServer(site);
let browser;
try {
  browser = await launchChromium();
  const pageErrors = [];
  const newPage = async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    const page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') pageErrors.push(`console: ${m.text()}`); });
    return page;
  };
  const waitForState = (page, states = ['loaded', 'error']) => page.waitForFunction((s) => s.includes(document.body.dataset.state), states, { timeout: TIMEOUT_MS })
    .then(() => page.evaluate(() => (document.getElementById('error').hidden ? document.body.dataset.state : `error: ${document.getElementById('error-title').textContent}`)));
  const showView = async (page, view) => {
    await page.click(`nav [data-view="${view}"]`);
    await page.waitForFunction((sel) => {
      const s = document.querySelector(sel);
      return s && !s.hidden && !s.classList.contains('placeholder') && s.querySelector('.sheet-table tbody tr.data, .empty-state, #gpu-timeline tbody tr');
    }, section(view), { timeout: TIMEOUT_MS });
  };
  const copyLink = async (page) => {
    const before = await page.inputValue('#share-url');
    await page.click('#share-link');
    await page.waitForFunction((b) => !document.getElementById('share-panel').hidden && document.getElementById('share-url').value !== b, before, { timeout: TIMEOUT_MS });
    return page.inputValue('#share-url');
  };
  const download = async (page, action) => {
    const [dl] = await Promise.all([page.waitForEvent('download', { timeout: TIMEOUT_MS }), action()]);
    return { name: dl.suggestedFilename(), bytes: readFileSync(await dl.path()) };
  };
  // Files dropped on a page at once (a DataTransfer built in the page).
  const drop = (page, files) => page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const [name, b64] of list) dt.items.add(new File([Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0))], name));
    for (const type of ['dragenter', 'dragover', 'drop'])
      document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, files.map(([name, bytes]) => [name, Buffer.from(bytes).toString('base64')]));
  const timeline = (page) => page.$$eval('#gpu-timeline tbody tr', (rows) => rows.map((r) => [r.dataset.type, ...[...r.querySelectorAll('data')].map((d) => d.value)]));
  const firstTable = (page, view) => readWholeTable(page, `${section(view)} .sheet-table`);
  const shownView = (page) => page.evaluate(() => document.querySelector('nav [aria-current=page]')?.dataset.view);

  // --- the sample: a link on each of three views -------------------------------------
  const page = await newPage();
  await page.goto(`${origin}/`);
  await page.click('#open-sample');
  check(await waitForState(page) === 'loaded', 'the sample opens');
  const originalTimeline = await timeline(page);
  const lengths = {};
  for (const view of ['overview', 'kernels', 'launch-delays']) {
    await showView(page, view);
    const before = view === 'overview' ? null : await firstTable(page, view);
    const link = await copyLink(page);
    lengths[view] = link.length;
    if (view === 'overview') {
      check(link.length <= LINK_TARGET && await page.locator('#share-too-long').isHidden(),
        `overview: the sample's link is ${link.length} characters (at most ${LINK_TARGET}), and the panel does not warn`);
      await page.screenshot({ path: path.join(screenshots, 'share-panel-overview.png') });
    }
    const detail = await page.textContent('#share-detail');
    check(detail.includes('Overview') && (view === 'overview' || new RegExp(await page.textContent(`nav [data-view="${view}"]`)).test(detail)),
      `${view}: the panel names the views in the link (${detail.slice(0, 120)}…)`);
    const fresh = await newPage();
    await fresh.goto(link);
    check(await waitForState(fresh) === 'loaded' && await shownView(fresh) === view, `${view}: the link (${link.length} characters) opens a fresh page on that view`);
    check(JSON.stringify(await timeline(fresh)) === JSON.stringify(originalTimeline), `${view}: the fresh page's GPU timeline has the same numbers`);
    if (before) {
      await showView(fresh, view);
      const after = await firstTable(fresh, view);
      check(after.rows.length > 0 && JSON.stringify(after) === JSON.stringify(before), `${view}: the fresh page's first table is the same, cell for cell (${after.rows.length} rows)`);
      if (view === 'kernels') {
        check(equalsCsv('kernels', after, sampleCsv('kernel_summary')), 'kernels: the linked kernels table equals sollens report\'s kernel_summary.csv');
        await fresh.screenshot({ path: path.join(screenshots, 'shared-kernels.png'), fullPage: true });
        await fresh.click('nav [data-view="ops"]');
        await fresh.waitForSelector(`${section('ops')} .not-in-link`, { timeout: TIMEOUT_MS });
        check(/not in this link: open the trace/.test(await fresh.textContent(section('ops'))), 'kernels link: the ops view says it is not in the link');
        check(/holds the Overview and Kernels views/.test(await fresh.textContent('#shared-notice')), `kernels link: the page says which views are in it (${await fresh.textContent('#shared-notice')})`);
        await fresh.screenshot({ path: path.join(screenshots, 'shared-not-in-link.png') });
      }
    }
    await fresh.context().close();
  }
  console.log(`link lengths (characters) for the sample: ${JSON.stringify(lengths)}`);

  // --- too long for a link: the .sollens file ------------------------------------------
  await showView(page, 'ops');
  const opsBefore = await firstTable(page, 'ops');
  const opsLink = await copyLink(page);
  const warning = await page.textContent('#share-too-long');
  check(opsLink.length > LINK_TARGET && await page.locator('#share-too-long').isVisible() && warning.includes(opsLink.length.toLocaleString('en-US')) && /Download a \.sollens file/.test(warning),
    `ops: the link is ${opsLink.length} characters, and the panel says so and offers the file (${warning})`);
  await page.screenshot({ path: path.join(screenshots, 'share-panel-too-long.png') });
  const file = await download(page, () => page.click('#share-download'));
  check(/\.sollens$/.test(file.name) && file.bytes.subarray(0, 4).toString() === 'SLNS', `Download a .sollens file saves ${file.name} (${file.bytes.length} bytes, magic SLNS)`);
  const byDrop = await newPage();
  await byDrop.goto(`${origin}/`);
  await drop(byDrop, [['renamed.bin', file.bytes]]);  // known by its magic, not its name
  check(await waitForState(byDrop) === 'loaded', 'the .sollens file (renamed .bin) opens when dropped');
  await showView(byDrop, 'ops');
  check(JSON.stringify(await firstTable(byDrop, 'ops')) === JSON.stringify(opsBefore), 'the dropped file shows the same ops table');
  await showView(byDrop, 'cycles');
  check(JSON.stringify(await timeline(byDrop)) === JSON.stringify(originalTimeline) && !(await byDrop.$(`${section('cycles')} .not-in-link`)),
    'the dropped file holds every view (the cycles view too) and the same GPU timeline');
  await byDrop.screenshot({ path: path.join(screenshots, 'sollens-file-dropped.png') });
  // A damaged .sollens file: its magic, then bytes cut short.
  await drop(byDrop, [['damaged.sollens', file.bytes.subarray(0, 200)]]);
  await byDrop.waitForSelector('#error:not([hidden])', { timeout: TIMEOUT_MS });
  check(/This \.sollens file is damaged/.test(await byDrop.textContent('#error-title')), `a damaged .sollens file says so: ${await byDrop.textContent('#error-title')}`);
  check(await byDrop.evaluate(() => document.body.dataset.state) === 'loaded' && JSON.stringify(await timeline(byDrop)) === JSON.stringify(originalTimeline)
    && /h100-bert-small/.test(await byDrop.textContent('#trace-name')), 'the report on screen stays when a damaged .sollens file is dropped');
  await byDrop.screenshot({ path: path.join(screenshots, 'sollens-file-damaged.png') });
  await byDrop.context().close();
  const picked = await newPage();
  await picked.goto(`${origin}/`);
  const filePath = path.join(tmp, file.name);
  writeFileSync(filePath, file.bytes);
  await picked.setInputFiles('#file-input', filePath);
  check(await waitForState(picked) === 'loaded' && JSON.stringify(await timeline(picked)) === JSON.stringify(originalTimeline),
    'the .sollens file chosen with the file picker opens too');
  await picked.context().close();

  // --- the Ranks view: link and download ---------------------------------------------
  const RANKS = section('ranks');
  const waitForRanks = (p) => p.waitForFunction((sel) => {
    const s = document.querySelector(sel);
    return s && !s.hidden && s.querySelector('.straggler-table tbody tr.data');
  }, RANKS, { timeout: TIMEOUT_MS });
  await drop(page, dlrmFiles.map((f) => [f, readFileSync(path.join(dlrm, f))]));
  await waitForRanks(page);
  check(await page.locator('#share-link').isEnabled() && await page.locator('#export-report').isEnabled(), 'ranks: Copy link and Download report are enabled on the Ranks view');
  const straggler = await readWholeTable(page, `${RANKS} .straggler-table`);
  const skew = await readWholeTable(page, `${RANKS} .sheet-table[data-sheet="nccl_implicit_sync"]`);
  const ranksLink = await copyLink(page);
  check(ranksLink.startsWith(`${origin}/#report=`), `ranks: Copy link makes a link (${ranksLink.length} characters)`);
  await page.screenshot({ path: path.join(screenshots, 'share-panel-ranks.png') });
  const json = await download(page, () => page.click('#export-report'));
  const report = JSON.parse(json.bytes.toString());
  const rows = report.sheets.straggler_summary;
  const cliStraggler = ranksCsv('straggler_summary');
  check(/\.json$/.test(json.name) && Array.isArray(rows) && rows.length === cliStraggler.rows.length && report.metadata.ranks.length === 8
    && rows.every((row, r) => cliStraggler.header.every((h, c) => row[h] === null ? cliStraggler.rows[r][c] === '' : typeof row[h] === 'number' ? near(row[h], cliStraggler.rows[r][c]) : String(row[h]) === cliStraggler.rows[r][c])),
  `ranks: Download saves ${json.name}: 8 ranks, its straggler_summary equals the CLI's CSV (${rows?.length} rows)`);
  const freshRanks = await newPage();
  await freshRanks.goto(ranksLink);
  await waitForRanks(freshRanks);
  check(await shownView(freshRanks) === 'ranks' && JSON.stringify(await readWholeTable(freshRanks, `${RANKS} .straggler-table`)) === JSON.stringify(straggler)
    && JSON.stringify(await readWholeTable(freshRanks, `${RANKS} .sheet-table[data-sheet="nccl_implicit_sync"]`)) === JSON.stringify(skew),
  'ranks: the link opens the Ranks view in a fresh page with the same straggler and skew tables');
  check(equalsCsv('straggler', straggler, cliStraggler), 'ranks: the straggler table equals the CLI\'s straggler_summary.csv');
  await freshRanks.screenshot({ path: path.join(screenshots, 'shared-ranks.png'), fullPage: true });
  await freshRanks.click(`${RANKS} .rank-list li[data-rank="7"] button`);
  await freshRanks.waitForSelector('#error:not([hidden])', { timeout: TIMEOUT_MS });
  check(/is not here: this rank set came from a link/.test(await freshRanks.textContent('#error-title')) && await freshRanks.locator(RANKS).isVisible(),
    'ranks: a rank\'s own report asked for from a linked rank set says its trace is not here; the Ranks view stays');
  await freshRanks.context().close();
  const ranksFile = await download(page, () => page.click('#share-download'));
  const ranksDrop = await newPage();
  await ranksDrop.goto(`${origin}/`);
  await drop(ranksDrop, [[ranksFile.name, ranksFile.bytes]]);
  await waitForRanks(ranksDrop);
  check(JSON.stringify(await readWholeTable(ranksDrop, `${RANKS} .straggler-table`)) === JSON.stringify(straggler), `ranks: the rank set's .sollens file (${ranksFile.name}) opens by drop with the same straggler table`);
  await ranksDrop.context().close();

  check(pageErrors.length === 0, `no page errors${pageErrors.length ? `: ${pageErrors.slice(0, 5).join('; ')}` : ''}`);
} catch (e) {
  check(false, `unexpected: ${e.stack ?? e}`);
} finally {
  await browser?.close();
  server.kill();
  rmSync(tmp, { recursive: true, force: true });
}
finish();
