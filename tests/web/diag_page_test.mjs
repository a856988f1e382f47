// The Diagnostics reference and the notices' links to it, in Debian's headless Chromium
// (playwright-core), served by web/serve.mjs:
//   node tests/web/diag_page_test.mjs [--site build/wasm/web] [--artifacts DIR] [--screenshots DIR]
// cut     the bundled sample cut inside an event half way: the cut-short notice and the
//         warning each link to the entry of their code ("truncated"); the link opens the
//         reference at that entry, whose words equal `sollens explain truncated --json`
// all     the reference lists every entry of `sollens explain --json`, in order, with the
//         same words (the page's come from the wasm module, the CLI's from the native build)
// error   a file that is not JSON: the error box links the entry of the error's code
// footer  the footer's "Diagnostics" opens the reference
// Prints "diag: N passed, M failed".
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { repo, defaultSite, pathOptions, checks, startPageServer, launchChromium, requireBuilt } from './support/harness.mjs';

const option = pathOptions();
const site = option('--site', defaultSite);
const artifacts = option('--artifacts', path.join(repo, 'build/wasm/web-artifacts'));
const screenshots = option('--screenshots', path.join(repo, 'build/wasm/web-screenshots'));
const TIMEOUT_MS = 60_000;
const cli = path.join(repo, 'build/native/sollens');

const { check, finish } = checks('diag');
requireBuilt({ check, finish }, site, { cli });
mkdirSync(artifacts, { recursive: true });
mkdirSync(screenshots, { recursive: true });

const explain = (...args) => JSON.parse(execFileSync(cli, ['explain', ...args, '--json'], { encoding: 'utf8' }));
const catalogue = explain();
const sameEntry = (shown, entry) => shown && shown.id === entry.id && shown.severity === entry.severity &&
  shown.meaning === entry.meaning && shown.action === entry.action;

// The sample cut half way through its text, inside an event (after its "name" key).
const tmp = mkdtempSync(path.join(tmpdir(), 'sollens-diag-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));  // the CLI's outputs and the traces made here
const whole = gunzipSync(readFileSync(path.join(repo, 'samples/h100-bert-small.json.gz'))).toString('utf8');
const cutAt = whole.indexOf('"name"', Math.floor(whole.length / 2)) + 4;
const cutTrace = path.join(tmp, 'bert-cut.json');
writeFileSync(cutTrace, whole.slice(0, cutAt));
const notJson = path.join(tmp, 'notes.json');
writeFileSync(notJson, 'these are my notes, not a trace\n');

// The entry under an anchor as the page shows it.
const shownEntry = (page, code) => page.evaluate((anchor) => {
  const article = document.getElementById(anchor);
  if (!article) return null;
  const text = (selector) => article.querySelector(selector)?.textContent ?? null;
  return { id: text('.diagnostic-id'), severity: text('.diagnostic-severity'), meaning: text('.diagnostic-meaning'),
    action: text('.diagnostic-action'), visible: !document.getElementById('diagnostics-reference').hidden,
    focused: document.activeElement === article };
}, `diagnostic-${code}`);

const { server, origin } = await startPageServer(site);
let browser;
try {
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(`${origin}/`);
  const waitForLoad = async () => {
    await page.waitForFunction(() => ['loaded', 'error'].includes(document.body.dataset.state), null, { timeout: TIMEOUT_MS });
    return page.evaluate(() => document.body.dataset.state);
  };

  // --- cut: the notices link to the entry of their code ---------------------------------
  await page.setInputFiles('#file-input', cutTrace);
  check(await waitForLoad() === 'loaded', 'the cut sample opens');
  const noticeCode = await page.$eval('#cut-short', (p) => (p.hidden ? null : p.querySelector('a.diagnostic-link')?.dataset.code ?? ''));
  check(noticeCode === 'truncated', `the cut-short notice links to its code's entry (${noticeCode})`);
  const warningLinks = await page.$$eval('#warnings li a.diagnostic-link', (as) => as.map((a) => [a.dataset.code, a.getAttribute('href')]));
  check(warningLinks.some(([code, href]) => code === 'truncated' && href === '#diagnostic-truncated'),
    `the 'truncated' warning links to #diagnostic-truncated (${JSON.stringify(warningLinks)})`);
  await page.click('#cut-short a.diagnostic-link');
  const truncated = await shownEntry(page, 'truncated');
  check(truncated?.visible && truncated.focused, 'the link opens the reference at the entry, focused');
  check(sameEntry(truncated, explain('truncated')),
    `the entry's words equal sollens explain truncated --json (${JSON.stringify(truncated)})`);
  check(!page.url().includes('#diagnostic'), 'the address is left as it was (a #report= link keeps working)');
  await page.screenshot({ path: path.join(screenshots, 'diag-truncated-entry.png') });

  // --- all: every entry of the catalogue, in order, with the same words -----------------
  const listed = await page.$$eval('#diagnostics-list article', (articles) => articles.map((a) => ({
    anchor: a.id, id: a.querySelector('.diagnostic-id').textContent, severity: a.querySelector('.diagnostic-severity').textContent,
    meaning: a.querySelector('.diagnostic-meaning').textContent, action: a.querySelector('.diagnostic-action').textContent })));
  const different = catalogue.filter((entry, i) => !sameEntry(listed[i], entry) || listed[i].anchor !== `diagnostic-${entry.id}`);
  check(listed.length === catalogue.length && different.length === 0,
    `the reference lists the ${catalogue.length} entries of sollens explain --json in order (${listed.length} shown; differing: ${different.map((e) => e.id).join(', ') || 'none'})`);
  await page.screenshot({ path: path.join(screenshots, 'diag-reference.png'), fullPage: true });
  await page.click('#diagnostics-close');
  check(await page.$eval('#diagnostics-reference', (s) => s.hidden), 'Close hides the reference');
  await page.screenshot({ path: path.join(screenshots, 'diag-cut-notice.png') });

  // --- error: the error box links the entry of the error's code -------------------------
  await page.setInputFiles('#file-input', notJson);
  await page.waitForSelector('#error:not([hidden])', { timeout: TIMEOUT_MS });
  check(await page.$eval('#error', (e) => !e.hidden), 'a file that is not JSON shows an error');
  const errorCode = await page.$eval('#error', (e) => e.querySelector('a.diagnostic-link')?.dataset.code ?? null);
  check(catalogue.some((entry) => entry.id === errorCode), `the error box links to a catalogue entry (${errorCode})`);
  await page.screenshot({ path: path.join(screenshots, 'diag-error.png') });
  if (errorCode) {
    await page.click('#error a.diagnostic-link');
    const entry = await shownEntry(page, errorCode);
    check(entry?.visible && sameEntry(entry, explain(errorCode)), `the error's link opens its entry, as sollens explain ${errorCode} says it`);
    await page.click('#diagnostics-close');
  }

  // --- footer: the reference without a notice ---------------------------------------------
  await page.click('#open-diagnostics');
  check(await page.$eval('#diagnostics-reference', (s) => !s.hidden), "the footer's Diagnostics opens the reference");
  check(pageErrors.length === 0, `no page errors (${pageErrors.join('; ')})`);
} catch (e) {
  check(false, `the page test ran to its end (${e.message})`);
} finally {
  await browser?.close();
  server.kill();
}
finish();
