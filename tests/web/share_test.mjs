// The page's export, share-link and ?trace= features end to end, in Debian's headless
// Chromium (playwright-core), served by web/serve.mjs; a second local server on
// another port plays "another site" for ?trace= (one path with CORS, one without).
//   node tests/web/share_test.mjs [--site build/wasm/web] [--artifacts DIR]
// Checks: a .json.gz opens by drag and drop; "Copy link" (on the ops view) makes a
// link that renders the same report in a fresh page, on that view, with no worker, no
// wasm and no trace (each sheet in the link is the original's in the exported
// report.json; a link carries its view's sheets and the overview's); a link asked for before
// the cycles arrive (they follow the report) waits for them; hostile links show an
// error in plain words and run nothing; HTML inside a valid link stays text;
// ?trace= from the CORS server opens, and without CORS / 404 / not a trace give
// readable errors; a sheet saved as CSV from the page equals the core's CSV writer
// (what `sollens report` writes) and as Arrow reads back with the same values; the
// Arrow code is fetched only when asked for; no request leaves the origin but the
// ?trace= ones; no CSP violation. Prints "share: N passed, M failed".
import { createServer } from 'node:http';
import { mkdirSync, readFileSync, existsSync } from 'node:fs';
import { gzipSync, gunzipSync } from 'node:zlib';
import path from 'node:path';
import * as Arrow from 'apache-arrow';
import { nodeReport } from './node_report.mjs';
import { linkDocument, version2Doc, version2Link } from './share_v2.mjs';
import { repo, fixtures, defaultSite, gzOf, pathOptions, checks, startPageServer, CHROMIUM, launchChromium } from './support/harness.mjs';

const option = pathOptions();
const site = option('--site', defaultSite);
const artifacts = option('--artifacts', path.join(repo, 'build/wasm/web-artifacts'));
const TIMEOUT_MS = 60_000;

const { check, finish } = checks('share');
for (const file of [CHROMIUM, path.join(site, 'sollens.wasm'), path.join(site, 'vendor/arrow.mjs')]) {
  if (!existsSync(file)) {
    check(false, `${file} exists (build the wasm preset; bash .ci/dev.sh setup)`);
    finish(1);
  }
}
mkdirSync(artifacts, { recursive: true });
const timelineReference = (set) => readFileSync(path.join(fixtures, set, 'tracelens-report/gpu_timeline.csv'), 'utf8')
  .trim().split('\n').slice(1).map((l) => l.split(','));

// --- servers ----------------------------------------------------------------------------
const { server, origin } = await startPageServer(site);
// "Another site": /cors/* allows any origin to read, /nocors/* does not say so.
const bert = readFileSync(gzOf('tracelens-mi300x-bert-small'));
const bertJson = gunzipSync(bert);  // served plain (no Content-Length: streamed with an unknown size)
const remote = createServer((req, res) => {
  const cors = req.url.startsWith('/cors/');
  const headers = cors ? { 'Access-Control-Allow-Origin': '*' } : {};
  const file = req.url.replace(/^\/(no)?cors\//, '');
  if (file === 'trace.json.gz') res.writeHead(200, { ...headers, 'Content-Type': 'application/gzip', 'Content-Length': bert.length }).end(bert);
  else if (file === 'trace.json') res.writeHead(200, { ...headers, 'Content-Type': 'application/json' }).end(bertJson);
  else if (file === 'notes.txt') res.writeHead(200, { ...headers, 'Content-Type': 'text/plain' }).end('hello, not a trace\n');
  else res.writeHead(404, { ...headers, 'Content-Type': 'text/plain' }).end('not found\n');
});
await new Promise((resolve) => remote.listen(0, '127.0.0.1', resolve));
const remoteOrigin = `http://127.0.0.1:${remote.address().port}`;
console.log(`page on ${origin}, "another site" on ${remoteOrigin}`);

// The CLI's CSV for the sample (the core's csv_writer through the wasm module).
const { load } = await nodeReport(site);
const sample = load(path.join(site, 'samples/h100-bert-small.json.gz'));
const cliCsv = new Map(sample.report.sheets.map((s) => [s.name, sample.session.sheetCsv(s.id)]));

let browser;
try {
  browser = await launchChromium();
  const foreign = [];
  const requests = [];
  const violations = [];
  const pageErrors = [];
  const newPage = async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    context.on('request', (r) => {
      const url = r.url();
      requests.push(url);
      if (!url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
    });
    const page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    page.on('console', (m) => {
      // A refused or missing ?trace= fetch is logged by the browser itself; expected here.
      if (m.type() === 'error' && !/CORS policy|Failed to load resource|net::ERR_FAILED/.test(m.text())) pageErrors.push(`console: ${m.text()}`);
    });
    await page.addInitScript(() => {
      window.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    page.collectViolations = async () => violations.push(...await page.evaluate(() => window.__cspViolations));
    return page;
  };
  const waitForState = (page) => page.waitForFunction(() => ['loaded', 'error'].includes(document.body.dataset.state), null, { timeout: TIMEOUT_MS })
    .then(() => page.evaluate(() => (document.getElementById('error').hidden ? 'loaded' : 'error')));
  const errorText = (page) => page.evaluate(() => `${document.getElementById('error-title').textContent} | ${document.getElementById('error-hint').textContent}`);
  const timeline = (page) => page.$$eval('#gpu-timeline tbody tr', (rows) => rows.map((r) => [r.dataset.type, ...[...r.querySelectorAll('data')].map((d) => d.value)]));
  const timelineMatches = (shown, set) => {
    const ref = timelineReference(set);
    return shown.length === ref.length && ref.every((row) => {
      const ours = shown.find((r) => r[0] === row[0]);
      return ours && row.slice(1).every((v, c) => Math.abs(Number(ours[c + 1]) - Number(v)) <= 1e-6 * Math.abs(Number(v)) + 1e-12);
    });
  };
  const download = async (page, action) => {
    const [dl] = await Promise.all([page.waitForEvent('download', { timeout: TIMEOUT_MS }), action()]);
    return { name: dl.suggestedFilename(), bytes: readFileSync(await dl.path()) };
  };

  // (1) a .json.gz by drag and drop (the bytes go into a File in the page).
  const page = await newPage();
  await page.goto(`${origin}/`);
  check(await page.locator('#export-report').isDisabled() && await page.locator('#share-link').isDisabled(),
    'export and share buttons wait for a report');
  const mi300x = gzOf('tracelens-mi300x-bert-small');
  await page.evaluate(([name, b64]) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([bytes], name, { type: 'application/gzip' }));
    for (const type of ['dragenter', 'dragover', 'drop'])
      document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, [path.basename(mi300x), readFileSync(mi300x).toString('base64')]);
  check(await waitForState(page) === 'loaded', 'a .json.gz opens by drag and drop');
  check(timelineMatches(await timeline(page), 'tracelens-mi300x-bert-small'), 'dropped .json.gz: GPU timeline equals TraceLens (rel 1e-6)');

  // (2) the sample; its share link in a fresh page gives the same report.
  await page.click('#open-sample');
  await page.waitForFunction(() => document.getElementById('trace-name').textContent.includes('sample') && document.body.dataset.state === 'loaded', null, { timeout: TIMEOUT_MS });
  const arrowBefore = requests.filter((u) => u.includes('/vendor/arrow.mjs')).length;
  check(arrowBefore === 0 && !requests.some((u) => u.endsWith('/share.mjs') || u.endsWith('/export.mjs')),
    'the Arrow, export and share code is not fetched before it is used');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  // Made on the ops view: the link carries it, the overview and the roofline (whose sheets are the ops view's).
  await page.click('nav [data-view="ops"]');
  await page.click('#share-link');
  await page.waitForSelector('#share-panel:not([hidden])');
  const link = await page.inputValue('#share-url');
  await page.click('nav [data-view="overview"]');
  const clip = await page.evaluate(() => navigator.clipboard.readText());
  check(link.startsWith(`${origin}/#report=`) && clip === link, `Copy link: a #report= link, on the clipboard too (${link.length} characters)`);
  const original = await download(page, () => page.click('#export-report'));
  check(/\.report\.json$/.test(original.name), `Download report (JSON) saves ${original.name}`);
  const originalTimeline = await timeline(page);
  const originalFacts = await page.locator('#facts').innerText();
  await page.screenshot({ path: path.join(artifacts, 'share-panel.png') });

  const fresh = await newPage();
  const before = requests.length;
  await fresh.goto(link);
  check(await waitForState(fresh) === 'loaded', 'the share link opens in a fresh page');
  check(await fresh.evaluate(() => document.querySelector('nav [aria-current=page]')?.dataset.view) === 'ops',
    'it opens on the view it was made on (ops)');
  await fresh.click('nav [data-view="overview"]');
  const freshRequests = requests.slice(before);
  check(!freshRequests.some((u) => /worker\.mjs|sollens\.wasm|sollens\.mjs|\.json\.gz/.test(u)),
    `the fresh page needs no worker, wasm or trace (${freshRequests.length} requests: ${freshRequests.map((u) => u.replace(origin, '')).join(' ')})`);
  check(JSON.stringify(await timeline(fresh)) === JSON.stringify(originalTimeline), 'same GPU timeline numbers as the original page');
  const freshFacts = await fresh.locator('#facts').innerText();
  check(originalFacts.split('\n').filter((l) => !/opened in|^source|^\d.*s \(read/.test(l)).every((l) => freshFacts.includes(l)), 'same trace facts');
  check(await fresh.locator('#shared-notice').isVisible(), 'the page says the report came from a link');
  // The corrected models cannot be computed without the trace: the page says so and
  // the toggle goes back to what the report is (it does not claim what it cannot show).
  await fresh.click('nav [data-view="roofline"]');
  await fresh.waitForSelector('section[data-view="roofline"] .corrected-toggle input');
  await fresh.click('section[data-view="roofline"] .corrected-toggle input');
  await fresh.waitForFunction(() => /no trace behind it/.test(document.getElementById('status').textContent) &&
    document.querySelector('section[data-view="roofline"] .corrected-toggle input')?.checked === false, null, { timeout: TIMEOUT_MS });
  check(await fresh.evaluate(() => !document.querySelector('section[data-view="roofline"] .controls [role=status]').textContent &&
    document.activeElement === document.querySelector('section[data-view="roofline"] .corrected-toggle input')),
  'a shared report: the corrected toggle is refused in words, shows the report\'s figures again and keeps the focus');
  await fresh.click('nav [data-view="overview"]');
  const copy = await download(fresh, () => fresh.click('#export-report'));
  // A link carries the sheets of its views: each is the original's, byte for byte.
  const sheetsOf = (bytes) => JSON.parse(bytes.toString()).sheets;
  const [copied, originals] = [sheetsOf(copy.bytes), sheetsOf(original.bytes)];
  check(Object.keys(copied).length > 0 && Object.entries(copied).every(([n, rows]) => JSON.stringify(rows) === JSON.stringify(originals[n])),
    `the fresh page's report.json has the link's ${Object.keys(copied).length} sheets, each the same as the original's`);
  await fresh.screenshot({ path: path.join(artifacts, 'shared-report.png'), fullPage: true });

  // A big real report: owlv2's link opens in a fresh page too.
  const owlv2 = gzOf('tracelens-h100-owlv2-large');
  // "Copy link" clicked the moment the report shows, while the worker is still
  // computing HTA's sheets and detecting the cycles (they follow the report): from a
  // mutation observer, which runs before the worker's next message can be handled.
  await page.evaluate(() => {
    window.__clickedWhilePending = false;
    window.__clickedWhileHtaPending = false;
    const observer = new MutationObserver(() => {
      if (document.body.dataset.state !== 'loaded') return;
      observer.disconnect();
      window.__clickedWhilePending = document.body.dataset.cycles === 'pending';
      window.__clickedWhileHtaPending = document.body.dataset.hta === 'pending';
      document.getElementById('share-link').click();
    });
    observer.observe(document.body, { attributes: true, attributeFilter: ['data-state'] });
  });
  const linkBefore = await page.inputValue('#share-url');  // the last trace's link, to wait past
  await page.setInputFiles('#file-input', owlv2);
  await page.waitForFunction((n) => document.getElementById('trace-name').textContent === n && document.body.dataset.state === 'loaded',
    path.basename(owlv2), { timeout: TIMEOUT_MS });
  await page.waitForFunction((before) => {
    const link = document.getElementById('share-url').value;
    return link !== before && link.length > 1000;
  }, linkBefore, { timeout: TIMEOUT_MS });
  const owlLink = await page.inputValue('#share-url');
  const owlDoc = linkDocument(owlLink);  // made on the overview: the cycles' summary is in it (their sheets go with the cycles view)
  check(await page.evaluate(() => window.__clickedWhilePending) && /pattern|cycle/i.test(owlDoc.cycles?.summary ?? ''),
    `owlv2's link, asked for before the cycles arrived (${await page.evaluate(() => window.__clickedWhilePending)}), waits for them and carries their summary (${owlDoc.cycles?.summary.slice(0, 60)})`);
  // The overview's HTA sheets, which the link carries: the page's own, as they came.
  // (A packed sheet is [name, kind, rows, columns].)
  const htaInLink = (owlDoc.report?.sheets ?? []).filter(([name]) => ['temporal_breakdown', 'idle_time_breakdown'].includes(name));
  check(await page.evaluate(() => window.__clickedWhileHtaPending) && htaInLink.length === 2 && htaInLink.every(([, , rows]) => rows > 0),
    `owlv2's link, asked for before HTA's sheets arrived, waits for them and carries the overview's two (${htaInLink.map(([name, , rows]) => `${name}: ${rows} rows`).join(', ')})`);
  const owlTimeline = await timeline(page);
  const owlPage = await newPage();
  await owlPage.goto(owlLink);
  check(await waitForState(owlPage) === 'loaded' && JSON.stringify(await timeline(owlPage)) === JSON.stringify(owlTimeline),
    `owlv2's link (${owlLink.length} characters) opens in a fresh page with the same GPU timeline`);
  await owlPage.collectViolations();
  await owlPage.context().close();

  // (3) exports from the page: CSV equals the CLI's, Arrow reads back the same.
  let csvBad = 0;
  const inLink = new Set(Object.keys(copied));
  for (const name of ['ops_summary', 'kernel_summary', 'GEMM', 'gpu_timeline']) {
    if (!cliCsv.has(name) || !inLink.has(name)) continue;  // kernel_summary goes with the kernels view
    const file = await download(fresh, () => fresh.evaluate(async (n) => {
      const [{ decodeShare }, { exportSheet }] = await Promise.all([import('./share.mjs'), import('./export.mjs')]);
      const r = await decodeShare(location.hash);
      return exportSheet(r.report.sheets.find((s) => s.name === n), 'csv');
    }, name));
    if (file.name !== `${name}.csv` || file.bytes.toString() !== cliCsv.get(name)) {
      csvBad++;
      console.log(`  ${name}: ${file.name}, ${file.bytes.length} bytes vs the CLI's ${cliCsv.get(name).length}`);
    }
  }
  check(csvBad === 0, 'sheets saved as CSV from the page equal the CLI\'s CSV byte for byte');
  const arrowFile = await download(fresh, () => fresh.evaluate(async () => {
    const [{ decodeShare }, { exportSheet }] = await Promise.all([import('./share.mjs'), import('./export.mjs')]);
    const r = await decodeShare(location.hash);
    return exportSheet(r.report.sheets.find((s) => s.name === 'ops_summary'), 'arrow');
  }));
  const table = Arrow.tableFromIPC(arrowFile.bytes);
  const model = sample.report.sheets.find((s) => s.name === 'ops_summary');
  let arrowBad = 0;
  model.columns.forEach((c, i) => {
    const v = table.getChildAt(i);
    for (let r = 0; r < model.rows; r++) {
      const want = !c.validity[r] ? null : c.type === 'string' ? c.dictionary[c.codes[r]] : c.type === 'int' ? BigInt(c.values[r]) : c.type === 'bool' ? c.values[r] !== 0 : c.values[r];
      if (!Object.is(v.get(r), want)) arrowBad++;
    }
  });
  check(arrowFile.name === 'ops_summary.arrow' && table.numRows === model.rows && arrowBad === 0,
    `ops_summary saved as Arrow reads back with the same ${model.rows} rows x ${model.columns.length} columns (${arrowBad} differ)`);
  check(requests.some((u) => u.endsWith('/vendor/arrow.mjs')), 'the Arrow code is fetched when an Arrow file is asked for');

  // (4) hostile links: an error in plain words, nothing run, nothing injected.
  // Hostile links are written as format 2 (still read) from the link's report.
  const { decodeShare } = await import(path.join(site, 'share.mjs'));
  const doc = version2Doc(await decodeShare(link.slice(link.indexOf('#'))));
  check(linkDocument(link).cycles?.summary === doc.cycles?.summary, 'the link carries the cycles\' summary');
  // The worker posts the cycles after the report; a link made as soon as the report
  // shows waits for them (a link without them would show no cycles).
  check(doc.cycles !== null && Array.isArray(doc.cycles.sheets) && typeof doc.cycles.summary === 'string',
    `the link made right after opening carries the cycles (${doc.cycles?.sheets.length} cycle sheets)`);
  const hostileName = '<img src=x onerror="window.__xss=1">.json.gz';
  const withHtml = { ...doc, name: hostileName, info: { ...doc.info, warnings: ['<script>window.__xss=2</script>'] } };
  const linkOf = (d) => `${origin}/${version2Link(d)}`;
  const cases = [
    ['bad base64', `${origin}/#report=<img src=x onerror=alert(1)>`, /damaged/],
    ['gzip bomb', `${origin}/#report=${gzipSync(Buffer.alloc(80 << 20)).toString('base64url')}`, /expands to more than/],
    ['wrong types', linkOf({ ...doc, fileBytes: '<b>1</b>' }), /not a count/],
    ['unknown key', linkOf({ ...doc, onload: 'window.__xss=3' }), /unknown entry "onload"/],
    ['truncated', link.slice(0, Math.floor(link.length / 2)), /damaged/],
  ];
  const hostilePage = await newPage();
  for (const [what, url, want] of cases) {
    await hostilePage.goto('about:blank');
    await hostilePage.goto(url);
    const state = await waitForState(hostilePage);
    const text = await errorText(hostilePage);
    check(state === 'error' && want.test(text), `hostile link (${what}): ${text}`);
  }
  await hostilePage.screenshot({ path: path.join(artifacts, 'share-hostile-error.png') });
  await hostilePage.goto('about:blank');
  await hostilePage.goto(linkOf(withHtml));
  check(await waitForState(hostilePage) === 'loaded', 'a link whose texts hold HTML opens');
  const mainText = await hostilePage.locator('main').innerText();
  check(mainText.includes(hostileName) && mainText.includes('<script>window.__xss=2</script>'), 'HTML from the link is shown as text');
  check(await hostilePage.evaluate(() => window.__xss === undefined && document.querySelectorAll('main img, main script').length === 0),
    'nothing from a link ran or was injected');
  await hostilePage.collectViolations();

  // (5) ?trace=URL from "another site".
  const remotePage = await newPage();
  const traceCases = [
    ['CORS .json.gz', `${remoteOrigin}/cors/trace.json.gz`, 'loaded', null],
    ['CORS plain .json', `${remoteOrigin}/cors/trace.json`, 'loaded', null],
    ['no CORS', `${remoteOrigin}/nocors/trace.json.gz`, 'error', /could not be fetched.*refused.*\|.*CORS/],
    ['404', `${remoteOrigin}/cors/missing.json.gz`, 'error', /HTTP 404/],
    ['not a trace', `${remoteOrigin}/cors/notes.txt`, 'error', /not a Kineto trace/],
    ['not http', 'javascript:alert(1)', 'error', /not a web address/],
  ];
  for (const [what, url, want, text] of traceCases) {
    await remotePage.goto('about:blank');
    await remotePage.goto(`${origin}/?trace=${encodeURIComponent(url)}`);
    const state = await waitForState(remotePage);
    const message = state === 'error' ? await errorText(remotePage) : '';
    let ok = state === want && (!text || text.test(message));
    if (want === 'loaded') ok = ok && timelineMatches(await timeline(remotePage), 'tracelens-mi300x-bert-small');
    check(ok, `?trace= ${what}: ${state}${message ? ` (${message})` : ', same GPU timeline as TraceLens'}`);
    if (what === 'no CORS') await remotePage.screenshot({ path: path.join(artifacts, 'trace-url-no-cors.png') });
    if (what === 'CORS .json.gz') {
      await remotePage.click('#share-link');
      await remotePage.waitForSelector('#share-panel:not([hidden])');
      check((await remotePage.inputValue('#share-url')).startsWith(`${origin}/#report=`), 'a link made from a ?trace= report does not carry the ?trace=');
    }
  }
  check(await remotePage.evaluate(() => window.__xss === undefined), 'the javascript: address did not run');
  await remotePage.collectViolations();

  // Nothing left the origin but the ?trace= fetches; the CSP held; no page errors.
  const unexpected = foreign.filter((u) => !u.startsWith(`${remoteOrigin}/`));
  check(unexpected.length === 0 && foreign.length > 0,
    `no request leaves the origin except the ?trace= ones (${foreign.length} to the other site${unexpected.length ? `; unexpected: ${unexpected.join(', ')}` : ''})`);
  for (const p of [page, fresh]) await p.collectViolations();
  check(violations.length === 0, `no Content-Security-Policy violation${violations.length ? `: ${violations.join('; ')}` : ''}`);
  check(pageErrors.length === 0, `no page errors${pageErrors.length ? `: ${pageErrors.join('; ')}` : ''}`);
} catch (e) {
  check(false, `unexpected: ${e.stack ?? e}`);
} finally {
  await browser?.close();
  server.kill();
  remote.close();
  sample.session.delete();
}
finish();
