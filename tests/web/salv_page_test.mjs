// A file cut short, a failed open and a cancel, in Debian's headless Chromium
// (playwright-core), served by web/serve.mjs:
//   node tests/web/salv_page_test.mjs [--site build/wasm/web] [--artifacts DIR] [--screenshots DIR]
// truncated   real .json.gz traces cut here (Qwen's and ResNet-50's at 60 % of their
//             bytes, owlv2's at 91 %): the page reads as many events as `sollens info`
//             (build/native/sollens) reads from the same file, and shows the same
//             warnings; Qwen's cut comes before its first GPU event: the notice says "No
//             GPU events were read before the cut" and no GPU timeline (of zeros) is
//             drawn; owlv2's comes inside its GPU events: the notice says how many
//             launches have no kernel
// failed open a PNG, then a .json that is not a trace, opened over a shown report: an
//             error notice over it (dismissable), the same report (its numbers), the
//             same view and address; and the report still recomputes (its trace is
//             still in the worker)
// cancel      the cancel button and Escape mid-load: the report shown before stays, its
//             trace is read again in the background, then it recomputes
// Prints "salv: N passed, M failed"; screenshots go to --screenshots.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repo, defaultSite, gzOf, pathOptions, checks, startPageServer, CHROMIUM, launchChromium, requireBuilt, cliInfo } from './support/harness.mjs';

const option = pathOptions();
const site = option('--site', defaultSite);
const artifacts = option('--artifacts', path.join(repo, 'build/wasm/web-artifacts'));
const screenshots = option('--screenshots', artifacts);
const TIMEOUT_MS = 60_000;
const cli = path.join(repo, 'build/native/sollens');
const SAMPLE = 'h100-bert-small.json.gz (sample)';

const { check, finish } = checks('salv');
requireBuilt({ check, finish }, site, { cli });
mkdirSync(screenshots, { recursive: true });
const tmp = mkdtempSync(path.join(tmpdir(), 'sollens-salv-'));

// A real trace's .json.gz cut at a share of its bytes, as a file cut while it was copied.
function cutAt60(set, share = 0.6) {
  const bytes = readFileSync(gzOf(set));
  const file = path.join(tmp, `cut-${Math.round(share * 100)}-${set}.json.gz`);
  writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length * share)));
  return file;
}
// Eight bytes of PNG signature and an IHDR chunk's start: what a screenshot file begins with.
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);

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

  const waitForLoad = async (name) => {
    await page.waitForFunction((n) => {
      const s = document.body.dataset.state;
      return s === 'error' || (s === 'loaded' && !document.getElementById('error').hidden) ||
        (s === 'loaded' && document.getElementById('trace-name').textContent === n);
    }, name, { timeout: TIMEOUT_MS });
    return page.evaluate(() => (document.getElementById('error').hidden ? 'loaded' : 'error'));
  };
  const shownEvents = () => page.$eval('#facts data', (d) => Number(d.value));
  // Each warning's words, without the link to its catalogue entry that follows them.
  const shownWarnings = () => page.$$eval('#warnings li', (lis) => lis.map((li) => li.firstChild.textContent));
  // What identifies the shown report: its name, event count and GPU total time.
  const shownReport = () => page.evaluate(() => ({
    name: document.getElementById('trace-name').textContent,
    events: Number(document.querySelector('#facts data')?.value),
    total: document.querySelector('#gpu-timeline tr[data-type="total_time"] data')?.value ?? null,
  }));
  const sameReport = (a, b) => a.name === b.name && a.events === b.events && a.total === b.total;
  // The worker still holds the shown trace: the roofline's device choice recomputes the
  // report (then back to the trace's own device).
  const recomputes = async (label) => {
    await page.click('nav [data-view="roofline"]');
    const device = 'section.view[data-view="roofline"] select';
    await page.waitForSelector(device, { timeout: TIMEOUT_MS });
    const recomputed = (ms = TIMEOUT_MS) => page.waitForFunction(() => /The report was recomputed/.test(document.getElementById('status').textContent), null, { timeout: ms });
    // The view may still be drawn again for the last recompute when shown: a choice made
    // in the controls it replaces is lost, so it is made again.
    let ok = false;
    for (let attempt = 0; attempt < 3 && !ok; attempt++) {
      await page.selectOption(device, { index: 1 });
      ok = await recomputed(attempt < 2 ? 10_000 : TIMEOUT_MS).then(() => true, () => false);
    }
    check(ok, `${label}: the report still recomputes (its trace is still in the worker)${ok ? '' : ` (status: ${await page.textContent('#status')})`}`);
    await page.evaluate(() => { document.getElementById('status').textContent = ''; });
    await page.selectOption(device, { index: 0 });
    await recomputed().catch(() => {});
    await page.click('nav [data-view="overview"]');
  };

  // --- truncated .json.gz: the same events as the CLI, and what the cut lost ------------
  const qwen = cutAt60('tracelens-h100-qwen1.5-0.5b');
  await page.setInputFiles('#file-input', qwen);
  if (!check(await waitForLoad(path.basename(qwen)) === 'loaded', 'truncated: Qwen\'s .json.gz cut at 60 % opens'))
    throw new Error(`the page says: ${await page.textContent('#error-title')}`);
  const qwenCli = cliInfo(cli, qwen);
  const qwenEvents = await shownEvents();
  check(qwenEvents === qwenCli.events && qwenEvents > 0, `truncated: the page reads ${qwenEvents} events, as sollens info does (${qwenCli.events})`);
  const qwenWarnings = await shownWarnings();
  check(JSON.stringify(qwenWarnings) === JSON.stringify(qwenCli.warnings),
    `truncated: the page's warnings are sollens info's, word for word (${qwenWarnings.length}: ${qwenWarnings.join(' | ')})`);
  const notice = await page.textContent('#cut-short');
  check(await page.locator('#cut-short').isVisible() && /cut short: the report covers only the [\d,]+ events before the cut/.test(notice) &&
    /No GPU events were read before the cut/.test(notice) && /Kineto writes the GPU events \(kernels, memcpy\) after the CPU ones/.test(notice) &&
    /cut while it was written or copied/.test(notice), `truncated: the notice says what the cut lost and why (${notice})`);
  check(await page.locator('#timeline-none').isVisible() && /No GPU events were read before the cut/.test(await page.textContent('#timeline-none')),
    'truncated: the GPU timeline section says no GPU events were read before the cut');
  check(await page.locator('#gpu-timeline').isHidden() && await page.locator('#timeline-chart').isHidden(),
    'truncated: no GPU timeline of zeros is drawn (table and bar hidden)');
  await page.screenshot({ path: path.join(screenshots, 'salv-truncated-qwen.png'), fullPage: true });

  // A 2021 trace whose events interleave: the cut keeps GPU events; the page lost 56 %
  // of them before its inflated bytes were taken out as they came.
  const resnet = cutAt60('kineto-tb-resnet50-v100');
  await page.setInputFiles('#file-input', resnet);
  check(await waitForLoad(path.basename(resnet)) === 'loaded', 'truncated: ResNet-50\'s .json.gz cut at 60 % opens');
  const resnetCli = cliInfo(cli, resnet);
  const resnetEvents = await shownEvents();
  check(resnetEvents === resnetCli.events, `truncated: the page reads ${resnetEvents} events, as sollens info does (${resnetCli.events})`);
  check(JSON.stringify(await shownWarnings()) === JSON.stringify(resnetCli.warnings), 'truncated: ResNet-50\'s warnings are sollens info\'s');
  check(await page.locator('#gpu-timeline').isVisible() && await page.locator('#timeline-none').isHidden(),
    'truncated: with GPU events read, the GPU timeline is shown');
  await page.screenshot({ path: path.join(screenshots, 'salv-truncated-resnet50.png'), fullPage: true });

  // owlv2 cut at 91 %: inside its GPU events, so some launches read have no kernel.
  const owl = cutAt60('tracelens-h100-owlv2-large', 0.91);
  await page.setInputFiles('#file-input', owl);
  check(await waitForLoad(path.basename(owl)) === 'loaded', 'truncated: owlv2\'s .json.gz cut at 91 % opens');
  const owlCli = cliInfo(cli, owl);
  const owlEvents = await shownEvents();
  check(owlEvents === owlCli.events, `truncated: the page reads ${owlEvents} events, as sollens info does (${owlCli.events})`);
  const lost = owlCli.warnings.find((w) => /launches of [\d,]+ have no kernel/.test(w));
  const owlNotice = await page.textContent('#cut-short');
  check(Boolean(lost) && owlNotice.toLowerCase().includes(lost.toLowerCase()) &&
    JSON.stringify(await shownWarnings()) === JSON.stringify(owlCli.warnings),
  `truncated: the notice and warnings say how many launches have no kernel, as sollens info (${lost})`);
  check(await page.locator('#gpu-timeline').isVisible(), 'truncated: owlv2\'s GPU timeline (of the GPU events read) is shown');
  await page.screenshot({ path: path.join(screenshots, 'salv-truncated-owlv2-91.png'), fullPage: true });

  // --- a failed open keeps the report ------------------------------------------------------
  await page.click('#open-sample');
  check(await waitForLoad(SAMPLE) === 'loaded', 'failed open: the sample opens');
  await page.click('nav [data-view="kernels"]');
  await page.waitForSelector('section.view[data-view="kernels"] .sheet-table', { timeout: TIMEOUT_MS });
  const before = await page.evaluate(() => location.href);
  await page.click('nav [data-view="overview"]');
  const report = await shownReport();
  await page.click('nav [data-view="kernels"]');
  await page.setInputFiles('#file-input', { name: 'screenshot.png', mimeType: 'image/png', buffer: PNG });
  check(await waitForLoad(null) === 'error', 'failed open: a PNG gives an error');
  const title = await page.textContent('#error-title');
  check(/not a Kineto trace/.test(title), `failed open: the error says what the file is not (${title})`);
  check(await page.locator('section.view[data-view="kernels"] .sheet-table').first().isVisible(),
    'failed open: the kernels view of the shown report stays on screen under the error');
  check(await page.evaluate(() => location.href) === before, `failed open: the address stays (${before})`);
  await page.screenshot({ path: path.join(screenshots, 'salv-failed-open-png.png') });
  await page.click('nav [data-view="overview"]');
  const after = await shownReport();
  check(sameReport(after, report), `failed open: the same report is shown (${after.name}, ${after.events} events, GPU total ${after.total} ms)`);
  await page.click('#error-dismiss');
  check(await page.locator('#error').isHidden(), 'failed open: the error notice is dismissed with its button');
  await recomputes('failed open');

  await page.setInputFiles('#file-input', { name: 'other.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": [1, 2, 3]}') });
  check(await waitForLoad(null) === 'error' && /no "traceEvents"/.test(await page.textContent('#error-title')),
    'failed open: a .json that is not a trace gives its error');
  check(sameReport(await shownReport(), report), 'failed open: after the .json, the same report is shown');
  await page.screenshot({ path: path.join(screenshots, 'salv-failed-open-json.png') });

  // --- a cancel keeps the report ------------------------------------------------------------
  for (const how of ['the cancel button', 'Escape']) {
    // Every text the status line shows from here on: the shown trace's reread after the
    // cancel can end (and say so) before the line is read.
    await page.evaluate(() => {
      const status = document.getElementById('status');
      window.statusSeen = [];
      window.statusWatch?.disconnect();
      window.statusWatch = new MutationObserver(() => window.statusSeen.push(status.textContent));
      window.statusWatch.observe(status, { childList: true, characterData: true, subtree: true });
    });
    await page.setInputFiles('#file-input', gzOf('tracelens-h100-owlv2-large'));
    await page.waitForSelector('#loader:not([hidden])');
    if (how === 'Escape') await page.keyboard.press('Escape');
    else await page.click('#cancel');
    check(await page.locator('#loader').isHidden() && await page.locator('#error').isHidden(), `cancel (${how}): the loader goes, no error`);
    check(sameReport(await shownReport(), report) && await page.locator('#view-overview').isVisible(),
      `cancel (${how}): the report shown before stays (${report.name})`);
    const seen = await page.evaluate(() => window.statusSeen);
    const status = seen.find((text) => /Loading cancelled: .* stays/.test(text)) ?? seen.join(' | ');
    check(/Loading cancelled: .* stays/.test(status), `cancel (${how}): the status line says so (${status})`);
    if (how === 'the cancel button') await page.screenshot({ path: path.join(screenshots, 'salv-cancel-kept.png') });
    try {
      await page.waitForFunction(() => /is read again/.test(document.getElementById('status').textContent), null, { timeout: TIMEOUT_MS });
      check(true, `cancel (${how}): the shown trace is read again in the background`);
    } catch {
      check(false, `cancel (${how}): the shown trace is read again in the background (${await page.textContent('#status')})`);
    }
    await recomputes(`cancel (${how})`);
  }
  check(sameReport(await shownReport(), report), 'cancel: after the recomputes, the same report');

  check(pageErrors.length === 0, `no page errors${pageErrors.length ? `: ${pageErrors.join('; ')}` : ''}`);
} catch (e) {
  check(false, `unexpected: ${e.stack ?? e}`);
} finally {
  await browser?.close();
  server.kill();
  rmSync(tmp, { recursive: true, force: true });
}
finish();
