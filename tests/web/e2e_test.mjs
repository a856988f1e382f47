// End to end: the page in Debian's headless Chromium (playwright-core, never a
// downloaded browser), served by web/serve.mjs on a free port.
//   node tests/web/e2e_test.mjs [--site build/wasm/web] [--artifacts build/wasm/web-artifacts]
// Opens traces by the sample button, the file input and a synthetic drag and drop,
// checks the GPU timeline on the page against TraceLens's gpu_timeline.csv
// (relative 1e-6), that trace text with HTML renders as text, that bad files give
// readable errors, that cancelling works, that no request leaves the origin and
// that the CSP is never violated; the unlinked GPU events' banner and toggle, the
// linking notice and a truncated .json.gz (tests/web/unlinked_checks.mjs). The report views (tests/web/views_checks.mjs):
// every view renders for each trace, table numbers equal the CLI's CSVs (or
// TraceLens's when build/native/sollens is absent), sort, filter, drill-down, a
// 100,000-row table with a bounded DOM, trace HTML in kernel names shown as text, the
// device selector and the cycles controls; choices kept across a recompute; the SOL view's
// tables against `sollens sol`, its efficiency and device selectors (tests/web/sol_checks.mjs); keyboard
// and screen-reader basics of every view (tests/web/a11y_checks.mjs); a report with HTML in every string, opened
// from a share link, visited view by view (tests/web/hostile_checks.mjs); two runs compared
// (tests/web/compare_checks.mjs); the Solar view of an Execution Trace, alone and beside
// its Kineto trace, and the Ops view's recompute toggle (tests/web/solar_checks.mjs); the critical-path and
// launch-delays views on the sample and on hand-made reports (tests/web/hta_checks.mjs). Writes screenshots of the views to
// --screenshots (default build/wasm/web-screenshots) and the rest to --artifacts.
// Prints "e2e: N passed, M failed"; exits non-zero on any failure.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { viewChecks } from './views_checks.mjs';
import { solChecks } from './sol_checks.mjs';
import { hostileChecks } from './hostile_checks.mjs';
import { a11yChecks } from './a11y_checks.mjs';
import { unlinkedChecks } from './unlinked_checks.mjs';
import { compareChecks } from './compare_checks.mjs';
import { solarChecks } from './solar_checks.mjs';
import { htaChecks } from './hta_checks.mjs';
import { repo, fixtures, defaultSite, gzOf, pathOptions, checks, startPageServer, CHROMIUM, launchChromium } from './support/harness.mjs';

const option = pathOptions();
const site = option('--site', defaultSite);
const artifacts = option('--artifacts', path.join(repo, 'build/wasm/web-artifacts'));
const screenshots = option('--screenshots', path.join(repo, 'build/wasm/web-screenshots'));
const LOAD_TIMEOUT_MS = 60_000;

const { check, finish } = checks('e2e');

for (const [file, why] of [[CHROMIUM, 'run: bash .ci/dev.sh setup (apt-get install chromium)'],
  [path.join(site, 'sollens.wasm'), 'build the wasm preset first'],
  [path.join(site, 'samples/h100-bert-small.json.gz'), 'build the wasm preset first (it copies the sample)']]) {
  if (!existsSync(file)) {
    check(false, `${file} exists (${why})`);
    finish(1);
  }
}
mkdirSync(artifacts, { recursive: true });
mkdirSync(screenshots, { recursive: true });
const referenceOf = (set) => {
  const [header, ...rows] = readFileSync(path.join(fixtures, set, 'tracelens-report/gpu_timeline.csv'), 'utf8')
    .trim().split('\n').map((l) => l.split(','));
  return { header, rows };
};

// --- server ---------------------------------------------------------------------------
const { server, origin } = await startPageServer(site);
console.log(`serving on ${origin}`);

const tmp = mkdtempSync(path.join(tmpdir(), 'sollens-e2e-'));
let browser;
try {
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const foreign = [];
  const requests = [];
  context.on('request', (r) => {
    const url = r.url();
    requests.push(url);
    if (!url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
  });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  const exportPresent = existsSync(path.join(site, 'export.mjs'));
  page.on('console', (m) => {
    // Without export.mjs in the site (it is optional) the export buttons' import 404s.
    if (m.type() === 'error' && !(!exportPresent && /\/export\.mjs$/.test(m.location()?.url ?? '')))
      pageErrors.push(`console: ${m.text()}`);
  });
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.goto(`${origin}/`);
  check(await page.title() === 'sollens: PyTorch profiler trace analysis in your browser', 'the page loads');
  check(await page.locator('header[role=banner], nav[aria-label], main').count() === 3, 'landmarks: banner, nav, main');
  await page.screenshot({ path: path.join(artifacts, 'empty.png') });

  // Waits for the load with this display name to finish; returns 'loaded' or 'error'.
  const waitForLoad = async (name) => {
    await page.waitForFunction((n) => {
      const s = document.body.dataset.state;
      if (s === 'error') return true;
      if (s === 'loaded') return n === null || document.getElementById('trace-name').textContent === n;
      return false;
    }, name, { timeout: LOAD_TIMEOUT_MS });
    return page.evaluate(() => (document.getElementById('error').hidden ? 'loaded' : 'error'));
  };
  const errorText = () => page.evaluate(() =>
    `${document.getElementById('error-title').textContent} | ${document.getElementById('error-hint').textContent}`);

  const compareTimeline = async (label, set) => {
    const shown = await page.$$eval('#gpu-timeline tbody tr', (rows) => rows.map((r) =>
      [r.dataset.type, ...[...r.querySelectorAll('data')].map((d) => d.value)]));
    const { rows } = referenceOf(set);
    check(shown.length === rows.length, `${label}: ${shown.length} GPU timeline rows (TraceLens ${rows.length})`);
    let bad = 0;
    for (const ref of rows) {
      const ours = shown.find((r) => r[0] === ref[0]);
      for (let c = 1; c < ref.length; c++) {
        const a = Number(ours?.[c]);
        const b = Number(ref[c]);
        if (!(Math.abs(a - b) <= 1e-6 * Math.abs(b) + 1e-12)) {
          bad++;
          console.log(`  ${label}: ${ref[0]} column ${c}: page ${ours?.[c]} vs TraceLens ${ref[c]}`);
        }
      }
    }
    check(bad === 0, `${label}: GPU timeline on the page equals TraceLens ${set}/gpu_timeline.csv (rel 1e-6)`);
  };

  // (a) the sample, by the button
  await page.click('#open-sample');
  check(await waitForLoad('h100-bert-small.json.gz (sample)') === 'loaded', 'sample opens by the button');
  await compareTimeline('sample', 'tracelens-h100-bert-small');
  // The facts are folded away under the verdict (a closed <details>): read them as text.
  check(await page.locator('#facts').textContent().then((t) => /H100/.test(t) || /events/.test(t)), 'overview shows trace facts');
  check(await page.locator('#devices tbody tr').count() > 0, 'sample: devices table filled');
  check(await page.locator('#timeline-chart rect').count() > 0, 'sample: timeline chart drawn');
  const views = viewChecks({ page, check, repo, site, fixtures, screenshots, tmp, exportPresent });
  // Every view, with a screenshot; the report views against the CLI's CSVs.
  await views.everyView('h100', 'tracelens-h100-bert-small', gzOf('tracelens-h100-bert-small'));
  // The SOL view against `sollens sol` (bert-small has nn.Module frames): tables, then
  // the efficiency factor and device recomputing it.
  const sol = solChecks({ page, check, repo, tmp, screenshots, helpers: views.helpers });
  await sol.tables('h100', gzOf('tracelens-h100-bert-small'));
  await sol.recompute('h100', gzOf('tracelens-h100-bert-small'));
  await views.tableInteractions('tracelens-h100-bert-small');
  await views.deviceSelector();
  await views.stateAcrossRecompute();
  await views.cyclesPending();
  await views.htaPending();
  await a11yChecks({ page, check })('h100');
  await views.rooflineHover();
  await views.rooflineColumns();
  await views.collectivesView();
  const hta = htaChecks({ context, origin, repo, check, screenshots });
  await hta.realTrace(page, 'h100', gzOf('tracelens-h100-bert-small'));
  await page.click('nav [data-view="overview"]');
  await views.virtualScrolling();
  await page.click('nav [data-view="overview"]');
  // Keyboard: the nav buttons work with Enter.
  await page.focus('nav [data-view="cycles"]');
  await page.keyboard.press('Enter');
  check(await page.locator('section.view[data-view="cycles"]').isVisible(), 'keyboard: Enter on a nav button switches view');
  await page.focus('nav [data-view="overview"]');
  await page.keyboard.press('Enter');

  // (b) a .json.gz by the file input
  const mi300x = gzOf('tracelens-mi300x-bert-small');
  await page.setInputFiles('#file-input', mi300x);
  check(await waitForLoad(path.basename(mi300x)) === 'loaded', 'MI300X .json.gz opens by the file input');
  await compareTimeline('mi300x (file input)', 'tracelens-mi300x-bert-small');
  await views.everyView('mi300x', 'tracelens-mi300x-bert-small', mi300x);
  await page.click('nav [data-view="overview"]');

  // (c) a plain .json by drag and drop (DataTransfer built in the page)
  const minitoy = path.join(tmp, 'mi250_minitoy.json');
  writeFileSync(minitoy, gunzipSync(readFileSync(gzOf('hta-mi250-minitoy'))));
  const drop = (name, text) => page.evaluate(([n, t]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([t], n, { type: 'application/json' }));
    for (const type of ['dragenter', 'dragover', 'drop'])
      document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, [name, text]);
  await drop('mi250_minitoy.json', readFileSync(minitoy, 'utf8'));
  check(await waitForLoad('mi250_minitoy.json') === 'loaded', 'MI250 plain .json opens by drag and drop');
  await compareTimeline('mi250 (drop)', 'hta-mi250-minitoy');
  await views.everyView('mi250', 'hta-mi250-minitoy', gzOf('hta-mi250-minitoy'));
  await page.click('nav [data-view="overview"]');

  // Cycles: a decode trace with a repeating pattern; mode and order recomputed.
  const sglang = gzOf('tracelens-sglang-qwen3-8b-decode');
  await page.setInputFiles('#file-input', sglang);
  check(await waitForLoad(path.basename(sglang)) === 'loaded', 'SGLang decode trace opens');
  await views.cycles(sglang);
  await sol.capture('sglang', sglang, path.join(fixtures, 'tracelens-sglang-qwen3-8b-decode/capture_traces/bs_32_rank0.json.gz'));
  await page.click('nav [data-view="overview"]');
  const gpuOnlyTrace = gzOf('tracelens-mi210-gpu-only');
  await page.setInputFiles('#file-input', gpuOnlyTrace);
  check(await waitForLoad(path.basename(gpuOnlyTrace)) === 'loaded', 'GPU-only MI210 trace opens');
  await views.gpuOnly();
  await page.click('nav [data-view="overview"]');
  // Its 562 kernels all have their launch (sollens info: "562 GPU, 562 linked"): no banner.
  check(await page.locator('#unlinked-banner').isHidden() && !/no launch/.test(await page.textContent('#linking'))
    && await page.locator('#unlinked-controls').isHidden(),
  'GPU-only MI210 trace: every GPU event is linked to its launch, no unlinked banner nor toggle');

  // The unlinked GPU events' toggle and banner, correlation linking, a cut .json.gz.
  const unlinked = unlinkedChecks({ page, check, repo, fixtures, screenshots, tmp, waitForLoad });
  await unlinked.unlinkedToggle();
  await page.click('nav [data-view="overview"]');
  await unlinked.correlationLinked();
  await unlinked.truncatedGzip(gzOf('tracelens-h100-bert-small'));

  // Two runs compared: "Compare with…", swap, two traces dropped at once.
  const compare = compareChecks({ page, check, repo, screenshots, tmp, waitForLoad, gzOf });
  await compare.compareWith();
  await compare.swap();
  await compare.dropTwo();
  await page.click('nav [data-view="overview"]');

  // Solar: an Execution Trace alone, beside its Kineto trace, and the recompute toggle
  // (on a page of their own).
  await solarChecks({ context, origin, check, repo, fixtures, tmp, screenshots })();

  // Hostile text in the trace and the file name renders as text.
  const hostile = '<img src=x onerror="window.__xss=1">';
  const hostileTrace = {
    schemaVersion: 1,
    deviceProperties: [{ id: 0, name: `GPU ${hostile}`, totalGlobalMem: 85899345920, computeMajor: 9, computeMinor: 0, numSms: 132 }],
    traceEvents: [
      { ph: 'X', cat: 'python_function', name: `nn.Module: ${hostile}_0`, pid: 1, tid: 1, ts: 0, dur: 55, args: {} },
      { ph: 'X', cat: 'cpu_op', name: 'aten::mm', pid: 1, tid: 1, ts: 0, dur: 50, args: { 'External id': 1 } },
      { ph: 'X', cat: 'cuda_runtime', name: 'cudaLaunchKernel', pid: 1, tid: 1, ts: 10, dur: 5, args: { 'External id': 1, correlation: 7 } },
      { ph: 'X', cat: 'kernel', name: hostile, pid: 0, tid: 7, ts: 20, dur: 30, args: { 'External id': 1, correlation: 7, device: 0, stream: 7 } },
      { ph: 's', id: 7, pid: 1, tid: 1, ts: 10, cat: 'ac2g', name: 'ac2g' },
      { ph: 'f', id: 7, pid: 0, tid: 7, ts: 20, cat: 'ac2g', name: 'ac2g', bp: 'e' },
      { ph: 'i', cat: '<b>bold</b>', name: hostile, pid: 1, tid: 1, ts: 60, s: 't' },
    ],
  };
  const hostileName = `<img src=x onerror=alert(1)>.json`;
  await page.setInputFiles('#file-input', { name: hostileName, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(hostileTrace)) });
  check(await waitForLoad(hostileName) === 'loaded', 'a trace with HTML in names opens');
  await page.click('#trace-details summary');  // the facts (device names) are folded away
  const body = await page.locator('main').innerText();
  check(body.includes(`GPU ${hostile}`) && body.includes('<b>bold</b>') && body.includes(hostileName),
    'HTML from the trace (device name, category, file name) is shown as text');
  check(await page.evaluate(() => document.querySelectorAll('main img, main b').length) === 0, 'no element injected from trace text');
  check(await page.evaluate(() => window.__xss === undefined), 'no script ran from trace text');
  const gpuTotal = await page.$eval('#gpu-timeline tr[data-type="total_time"] data', (d) => Number(d.value));
  check(Math.abs(gpuTotal - 0.03) < 1e-12, `the hostile trace's kernel counts in the GPU timeline (total ${gpuTotal} ms)`);
  await page.screenshot({ path: path.join(artifacts, 'hostile-text.png'), fullPage: true });
  await views.hostileKernelName(hostile);
  await sol.hostile(hostile);
  await page.click('nav [data-view="overview"]');
  // ... and in every view: a share link whose every string holds HTML (hostile_checks.mjs).
  await hostileChecks({ context, origin, repo, site, fixtures, check, screenshots });
  // The critical-path and launch-delays views on hand-made reports (tests/web/hta_checks.mjs).
  await hta();

  // Bad files: readable errors with what to do.
  await page.setInputFiles('#file-input', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello, this is not a trace\n') });
  check(await waitForLoad(null) === 'error', 'a text file gives an error');
  let text = await errorText();
  check(/^This file is not a Kineto trace: not JSON/.test(text) && /torch\.profiler/.test(text), `readable error: ${text}`);
  await page.screenshot({ path: path.join(artifacts, 'error-not-a-trace.png') });
  await page.click('nav [data-view="kernels"]');
  check(await page.locator('#trace-name').textContent() === hostileName &&
    await page.locator('section.view[data-view="kernels"] .sheet-table').count() > 0,
  'after a failed load the report shown before stays (its name, its kernels table)');
  await page.click('nav [data-view="overview"]');

  await page.setInputFiles('#file-input', { name: 'other.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": [1, 2, 3]}') });
  check(await waitForLoad(null) === 'error', 'JSON that is not a trace gives an error');
  text = await errorText();
  check(/not a Kineto trace: no "traceEvents"/.test(text), `readable error: ${text}`);

  await page.setInputFiles('#file-input', { name: 'broken.json.gz', mimeType: 'application/gzip',
    buffer: Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]), Buffer.from('definitely not deflate data at all')]) });
  check(await waitForLoad(null) === 'error', 'a corrupt .gz gives an error');
  text = await errorText();
  check(/could not be decompressed/.test(text) && /gunzip/.test(text), `readable error: ${text}`);

  await page.setInputFiles('#file-input', { name: 'empty.json', mimeType: 'application/json', buffer: Buffer.alloc(0) });
  check(await waitForLoad(null) === 'error', 'an empty file gives an error');
  check(/empty/.test(await errorText()), `readable error: ${await errorText()}`);

  // Another trace asked for the moment a report shows, while its HTA sheets are
  // computed, that fails to open (the sample, made unreachable here): the shown
  // report's HTA sheets, whose load the new one replaced (so they never came), are
  // asked for again, and come. The sample button opens at once (a dropped file is
  // sniffed first, which gives the worker time to answer).
  const sampleUrl = '**/samples/h100-bert-small.json.gz';
  await page.route(sampleUrl, (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.evaluate(() => {
    window.__htaPendingAtOpen = null;
    const observer = new MutationObserver(() => {
      if (document.body.dataset.state !== 'loaded') return;
      observer.disconnect();
      window.__htaPendingAtOpen = document.body.dataset.hta === 'pending';
      document.getElementById('open-sample').click();
    });
    observer.observe(document.body, { attributes: true, attributeFilter: ['data-state'] });
  });
  const bert = gzOf('tracelens-h100-bert-small');
  await page.setInputFiles('#file-input', bert);
  await page.waitForFunction((n) => document.getElementById('trace-name').textContent === n &&
    !document.getElementById('error').hidden && document.body.dataset.hta !== 'pending', path.basename(bert), { timeout: LOAD_TIMEOUT_MS });
  await page.unroute(sampleUrl);
  check(await page.evaluate(() => window.__htaPendingAtOpen) === true && /HTTP 404/.test(await errorText()),
    `a trace asked for before HTA's sheets came fails: ${await errorText()}`);
  check(await page.evaluate(() => document.body.dataset.hta) === 'ready',
    'the shown report stays, and its HTA sheets are asked again and come (body[data-hta] = ready)');
  await page.click('nav [data-view="critical-path"]');
  await page.waitForSelector('section[data-view="critical-path"] .cp-verdict', { timeout: LOAD_TIMEOUT_MS });
  check(await page.locator('section[data-view="critical-path"] .hta-pending').count() === 0,
    'the critical path view draws them');
  await page.click('nav [data-view="overview"]');

  // Cancel while loading the largest trace, then open again (a fresh worker).
  await page.setInputFiles('#file-input', gzOf('tracelens-h100-owlv2-large'));
  await page.waitForSelector('#loader:not([hidden])');
  await page.screenshot({ path: path.join(artifacts, 'loading.png') });
  await page.click('#cancel');
  check(await page.evaluate(() => document.body.dataset.state) === 'cancelled' &&
    await page.locator('#loader').isHidden(), 'cancel stops the load');
  await page.click('#open-sample');
  check(await waitForLoad('h100-bert-small.json.gz (sample)') === 'loaded', 'a trace opens after a cancel');
  await compareTimeline('sample after cancel', 'tracelens-h100-bert-small');

  // Nothing left the origin; the CSP held.
  check(foreign.length === 0, `no request leaves the origin (${requests.length} requests${foreign.length ? `; foreign: ${foreign.join(', ')}` : ''})`);
  check(requests.some((u) => u.endsWith('/sollens.wasm')), 'the wasm module was fetched from the origin');
  const violations = await page.evaluate(() => window.__cspViolations);
  check(violations.length === 0, `no Content-Security-Policy violation${violations.length ? `: ${violations.join('; ')}` : ''}`);
  check(pageErrors.length === 0, `no page errors${pageErrors.length ? `: ${pageErrors.join('; ')}` : ''}`);
  console.log(`screenshots in ${artifacts}`);
} catch (e) {
  check(false, `unexpected: ${e.stack ?? e}`);
} finally {
  await browser?.close();
  server.kill();
  rmSync(tmp, { recursive: true, force: true });
}
finish();
