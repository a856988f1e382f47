// The overview's verdict (web/views/verdict.mjs) in Debian's headless Chromium
// (playwright-core), served by web/serve.mjs:
//   node tests/web/verdict_page_test.mjs [--site build/wasm/web] [--screenshots DIR]
// For the synthetic Llama decode loop (tests/fixtures/synthetic/llama_decode.json.gz) and
// the bundled sample (samples/h100-bert-small.json.gz), opened in a 1280×800 window:
//   - the headline is on the first screen; for the decode loop it reads the issue's
//     sentence, for both it equals the headline of `sollens report`'s verdict.csv
//   - every number the verdict shows (data value=…) equals its row's value in verdict.csv,
//     and every finding the verdict shows is a row there
//   - the links open their views: the top op opens Ops with that op chosen (its unique
//     argument sets shown), the top kernel Kernels, the first SOL gap Speed of light, the
//     headline's "Why" the view its bound names
//   - the trace's metadata is folded away (<details>, closed); no format hints, no trace
//     file name, GPUs given as a count
// Prints "verdict: N passed, M failed"; screenshots go to --screenshots.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseCsv } from './views_checks.mjs';
import { repo, defaultSite, pathOptions, checks, startPageServer, CHROMIUM, launchChromium, requireBuilt } from './support/harness.mjs';

const option = pathOptions();
const site = option('--site', defaultSite);
const shots = option('--screenshots', option('--artifacts', path.join(repo, 'build/wasm/web-screenshots')));
const TIMEOUT_MS = 60_000;
const cli = path.join(repo, 'build/native/sollens');
const LLAMA = path.join(repo, 'tests/fixtures/synthetic/llama_decode.json.gz');
const SAMPLE = path.join(repo, 'samples/h100-bert-small.json.gz');
const ISSUE_SENTENCE = 'launch-bound: 94 % idle; 1 prefill + 31 decode steps; each decode step 17.1 ms wall, 0.519 ms of SOL';

const { check, finish } = checks('verdict');
requireBuilt({ check, finish }, site, { cli });
mkdirSync(shots, { recursive: true });
const tmp = mkdtempSync(path.join(tmpdir(), 'sollens-verdict-'));
const near = (a, b) => Math.abs(a - b) <= 1e-9 * Math.abs(b) + 1e-12;

// verdict.csv of `sollens report FILE` as {finding: {value, words, view, target}}.
function cliVerdict(file, label) {
  const out = path.join(tmp, label);
  execFileSync(cli, ['report', file, '--out', out, '--no-xlsx', '--no-json'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const { header, rows } = parseCsv(readFileSync(path.join(out, 'verdict.csv'), 'utf8'));
  const at = (name) => header.indexOf(name);
  const byFinding = new Map();
  for (const r of rows)
    byFinding.set(r[at('finding')], { value: r[at('value')], words: r[at('words')], view: r[at('view')], target: r[at('target')] });
  return byFinding;
}

const { server, origin } = await startPageServer(site);
let browser;
try {
  browser = await launchChromium();
  const pageErrors = [];
  for (const [label, file] of [['llama-decode', LLAMA], ['sample', SAMPLE]]) {
    const csv = cliVerdict(file, label);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(`${label}: ${e}`));
    page.on('console', (m) => { if (m.type() === 'error') pageErrors.push(`${label}: console: ${m.text()}`); });
    await page.goto(`${origin}/`);
    await page.setInputFiles('#file-input', file);
    await page.waitForFunction(() => ['loaded', 'error'].includes(document.body.dataset.state), null, { timeout: TIMEOUT_MS });
    await page.waitForSelector('#verdict:not([hidden])', { timeout: TIMEOUT_MS });
    await page.screenshot({ path: path.join(shots, `verdict-${label}.png`) });  // the first screen, 1280×800

    const headline = await page.$eval('#verdict-headline [data-finding="headline"]', (e) => e.textContent);
    check(headline === csv.get('headline')?.words, `${label}: the headline equals verdict.csv's (${headline})`);
    if (label === 'llama-decode') check(headline === ISSUE_SENTENCE, `${label}: the headline reads "${ISSUE_SENTENCE}"`);
    const box = await page.$eval('#verdict-headline', (e) => e.getBoundingClientRect().toJSON());
    check(box.bottom <= 800 && box.top >= 0, `${label}: the headline is on the first screen (${Math.round(box.top)}–${Math.round(box.bottom)} px of 800)`);

    // Every finding shown, with its exact value where it has one.
    // Sentences (.verdict-finding) are the core's words; numbers (.verdict-number) its
    // values, shown rounded, their sentence on hover.
    const shown = await page.$$eval('#verdict [data-finding]:not(button)', (els) => els.map((e) => ({
      finding: e.dataset.finding, value: e.querySelector('data')?.value ?? null,
      text: e.classList.contains('verdict-number') ? e.title : e.textContent })));
    let unknown = 0;
    let mismatched = 0;
    let numbers = 0;
    for (const s of shown) {
      const row = csv.get(s.finding);
      if (!row) { unknown++; continue; }
      if (s.value !== null) {
        numbers++;
        if (!near(Number(s.value), Number(row.value))) {
          mismatched++;
          console.log(`  ${s.finding}: page ${s.value}, CLI ${row.value}`);
        }
      }
      if (!row.words.endsWith(s.text)) {
        mismatched++;
        console.log(`  ${s.finding}: page "${s.text}", CLI "${row.words}"`);
      }
    }
    check(shown.length >= 15 && unknown === 0, `${label}: each of the ${shown.length} findings shown is a row of verdict.csv`);
    check(numbers >= 10 && mismatched === 0, `${label}: the ${numbers} numbers and the words shown equal verdict.csv's`);
    for (const key of ['bound_by', 'gpu_idle_pct', 'idle_host_wait_ms', 'idle_kernel_wait_ms', 'idle_other_ms', 'top_op.1', 'top_kernel.1'])
      check(shown.some((s) => s.finding === key), `${label}: ${key} is shown`);

    // Metadata folded; trivia gone.
    const details = await page.$eval('#trace-details', (d) => ({ open: d.open, facts: Boolean(d.querySelector('#facts')), summary: d.querySelector('summary').textContent }));
    check(!details.open && details.facts, `${label}: the trace's facts are in a closed <details> ("${details.summary}")`);
    const facts = await page.$$eval('#facts dt', (dts) => dts.map((dt) => [dt.textContent, dt.nextElementSibling.textContent]));
    check(!facts.some(([t]) => /format hint|trace name|GPU processes/.test(t)), `${label}: no format hints, trace file name or GPU process ids`);
    const gpus = facts.find(([t]) => t === 'GPUs');
    check(gpus && /^\d+$/.test(gpus[1]), `${label}: GPUs given as a count (${gpus?.[1]})`);
    const visibleText = await page.$eval('#view-overview', (s) => s.innerText);
    check(!/\/tmp\/tmp/.test(visibleText), `${label}: no temporary file name on the overview`);

    // The links.
    const openVia = async (selector, view) => {
      await page.click('nav [data-view="overview"]');
      await page.waitForSelector('#verdict:not([hidden])');
      await page.click(selector);
      await page.waitForSelector(`section.view[data-view="${view}"]:not([hidden]):not(.placeholder)`, { timeout: TIMEOUT_MS });
      return page.$eval(`section.view[data-view="${view}"]`, (s) => s.innerText);
    };
    const topOp = csv.get('top_op.1');
    const opsText = await openVia('#verdict-ops button[data-finding="top_op.1"]', 'ops');
    check(opsText.includes(`Unique argument sets of ${topOp.target}`), `${label}: the top op's link opens Ops with ${topOp.target} chosen`);
    await page.screenshot({ path: path.join(shots, `verdict-${label}-ops.png`) });
    await openVia('#verdict-kernels button[data-finding="top_kernel.1"]', 'kernels');
    check(await page.$eval('nav [data-view="kernels"]', (b) => b.getAttribute('aria-current') === 'page'), `${label}: the top kernel's link opens Kernels`);
    if (csv.has('sol_gap.1')) {
      await openVia('#verdict-gaps button[data-finding="sol_gap.1"]', 'sol');
      check(true, `${label}: the first SOL gap's link opens Speed of light`);
    }
    const why = csv.get('headline').view;
    if (why) {
      await openVia('#verdict-headline button.verdict-link', why);
      check(true, `${label}: the headline's "Why" opens ${why}`);
    }
    await context.close();
  }
  check(pageErrors.length === 0, `no page errors${pageErrors.length ? `: ${pageErrors.join('; ')}` : ''}`);
} catch (e) {
  check(false, `no exception: ${e?.stack ?? e}`);
} finally {
  await browser?.close();
  server.kill();
  rmSync(tmp, { recursive: true, force: true });
}
finish();
