// The page on a machine with little memory: a trace too large for it is refused with a
// notice that says it cannot fit, the tab lives on, and a trace that fits opens after it.
//   node tests/web/memcap_page_test.mjs [--site build/wasm/web] [--artifacts DIR] [--screenshots DIR]
//
// What is capped, and why that stands in for a small machine:
// - wasm memory, to WASM_CAP_MIB, by V8's own limit (--js-flags=--wasm-max-mem-pages):
//   the module may grow to 4 GB (-sMAXIMUM_MEMORY=4GB, wasm/CMakeLists.txt), and the
//   trace's store is what grows it (the text is parsed as it streams in and never held
//   whole). On a small machine that growth is what fails: WebAssembly.Memory.grow throws
//   RangeError, emscripten's heap resize reports failure, malloc returns null and the
//   core's new throws bad_alloc, which it answers with out_of_memory. The flag makes grow
//   fail exactly so, at a size a test can reach, with nothing in the page changed.
// - the JS heap, to JS_HEAP_MIB per isolate (--js-flags=--max-old-space-size), page and
//   worker alike: what the page and the worker hold besides wasm (file chunks on their
//   way, the report model's columns) must fit a small machine too.
// The trace: TRACE_MB of owlv2's events written again and again (tests/bench/
// make_big_trace.py), in build/wasm/memcap (made once, not committed), several times
// what its store needs of the cap.
// Checks: the cap is in force (a grow past it throws in the page); a JSON file of 4 GiB
// (sparse) is refused as too large before it is read; the big trace ends in
// the error notice, saying it does not fit the browser's memory and linking the
// catalogue's entry out_of_memory (ui.mjs's diagnostic link); the tab did not crash and the worker still
// answers: the sample (samples/*.json.gz) then opens and its overview shows the trace's
// facts and GPU timeline; before it, a trace that fits the cap opens (at least 60 MB asked:
// the generator writes whole copies of owlv2's 55.6 MB, so 111 MB), and while it
// streams in the loader shows its stage and read rate (MiB/s; the big trace is refused
// too soon for a rate on a fast run). Screenshots: memcap-progress.png, memcap-refused.png, memcap-after.png.
// Prints "memcap: N passed, M failed".
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { repo, defaultSite, pathOptions, checks, startPageServer, CHROMIUM, gzOf, requireBuilt } from './support/harness.mjs';

const option = pathOptions();
const site = option('--site', defaultSite);
const screenshots = option('--screenshots', path.join(repo, 'build/wasm/web-screenshots'));
const WASM_CAP_MIB = 256;
const JS_HEAP_MIB = 256;
const TRACE_MB = 500;
const MID_TRACE_MB = 60;
const LOAD_TIMEOUT_MS = 240_000;

const { check, finish } = checks('memcap');
requireBuilt({ check, finish }, site);
mkdirSync(screenshots, { recursive: true });

const bigDir = path.join(repo, 'build/wasm/memcap');
const big = path.join(bigDir, `owlv2-${TRACE_MB}mb.json`);
if (!existsSync(big) || statSync(big).size < TRACE_MB * 1e6) {
  mkdirSync(bigDir, { recursive: true });
  execFileSync('python3', [path.join(repo, 'tests/bench/make_big_trace.py'), gzOf('tracelens-h100-owlv2-large'), big, String(TRACE_MB), '--compact'],
    { stdio: 'inherit' });
}
// A trace that fits the cap, read long enough for the loader's rate to show (the big one
// is refused about a 32nd of the way in: on a fast run, before the rate's first 200 ms).
const mid = path.join(bigDir, `owlv2-${MID_TRACE_MB}mb.json`);
if (!existsSync(mid) || statSync(mid).size < MID_TRACE_MB * 1e6)
  execFileSync('python3', [path.join(repo, 'tests/bench/make_big_trace.py'), gzOf('tracelens-h100-owlv2-large'), mid, String(MID_TRACE_MB)],
    { stdio: 'inherit' });
const sample = path.join(repo, 'samples', readdirSync(path.join(repo, 'samples')).find((f) => f.endsWith('.json.gz')));

const { server, origin } = await startPageServer(site);
const { chromium } = await import('playwright-core');
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
  '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
  `--js-flags=--max-old-space-size=${JS_HEAP_MIB} --wasm-max-mem-pages=${(WASM_CAP_MIB << 20) / 65536}`] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  let crashed = false;
  page.on('crash', () => { crashed = true; });
  const problems = [];
  page.on('pageerror', (e) => problems.push(String(e)));
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => document.body.dataset.engine === 'warm', null, { timeout: 60_000 });

  const grow = await page.evaluate((capPages) => {
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 65536 });
    try {
      memory.grow(capPages);
      return 'grew';
    } catch (e) {
      return `${e.constructor.name}: ${e.message}`;
    }
  }, (WASM_CAP_MIB << 20) / 65536);
  check(/^RangeError/.test(grow), `the cap is in force: growing wasm memory past ${WASM_CAP_MIB} MiB in the page throws (${grow})`);

  // Settled: the notice shown (state 'error') or the trace's report.
  const opened = async (file, timeout = LOAD_TIMEOUT_MS) => {
    await page.setInputFiles('#file-input', file);
    await page.waitForFunction((name) => document.body.dataset.state === 'error' ||
      (document.body.dataset.state === 'loaded' && (!document.getElementById('error').hidden ||
        document.getElementById('trace-name').textContent.startsWith(name))), path.basename(file), { timeout, polling: 100 });
    return page.evaluate(() => ({ error: !document.getElementById('error').hidden, code: document.querySelector('#error .diagnostic-link')?.dataset.code ?? null,
      title: document.getElementById('error-title').textContent, hint: document.getElementById('error-hint').textContent }));
  };

  // The loader while a trace streams in: its stage and read rate.
  // Label and detail are read together, in the page, the moment a rate is shown.
  const progressShown = () => page.waitForFunction(() => {
    const label = document.getElementById('progress-label').textContent;
    const detail = document.getElementById('progress-detail').textContent;
    return /MiB\/s/.test(detail) && { label, detail };
  }, null, { timeout: LOAD_TIMEOUT_MS, polling: 50 }).then(async (shown) => {
    await page.screenshot({ path: path.join(screenshots, 'memcap-progress.png') });
    return shown.jsonValue();
  }).catch(() => null);
  const progressSeen = progressShown();
  const fits = await opened(mid);
  const progress = await progressSeen;
  check(!fits.error, `a ${(statSync(mid).size / 1e6).toFixed(0)} MB trace opens under the cap (${fits.error ? fits.title : 'opened'})`);
  check(progress && /^Step 1 of 3: reading and parsing/.test(progress.label) &&
    /iB of [\d.,]+ [MG]iB read at [\d,]+ MiB\/s, [\d,]+ events/.test(progress.detail),
    `while it loads, the loader names the stage and the read rate (${progress ? `${progress.label} | ${progress.detail}` : 'no rate shown'})`);
  const started = Date.now();
  const refused = await opened(big);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  await page.screenshot({ path: path.join(screenshots, 'memcap-refused.png') });
  console.log(`  notice after ${seconds} s: ${refused.title} | ${refused.hint} [code ${refused.code}]`);
  check(refused.error && /too large for the browser's memory|not enough memory/i.test(refused.title),
    `a ${TRACE_MB} MB trace under a ${WASM_CAP_MIB} MiB wasm cap is refused with a notice that it does not fit memory (${refused.title})`);
  check(/command line/.test(refused.hint), `the notice says what to do instead (${refused.hint})`);
  check(refused.code === 'out_of_memory', `the notice links the catalogue's entry out_of_memory (${refused.code})`);
  check(!crashed && await page.evaluate(() => 1 + 1) === 2, 'the tab did not crash: the page still runs script');

  // JSON of 4 GiB or more, which the page cannot count: refused before it is read (a
  // sparse file of zeros: were it read, it would be refused as not JSON instead).
  const huge = path.join(bigDir, 'four-gib.json');
  execFileSync('truncate', ['-s', String(2 ** 32), huge]);
  try {
    const hugeStarted = Date.now();
    const tooLarge = await opened(huge, 60_000);
    const hugeSeconds = (Date.now() - hugeStarted) / 1000;
    check(tooLarge.error && /too large for the page/.test(tooLarge.title) && /4 GiB/.test(tooLarge.hint) &&
      tooLarge.code === 'trace_too_large' && hugeSeconds < 20,
    `a 4 GiB JSON file is refused before it is read, in ${hugeSeconds.toFixed(1)} s (${tooLarge.title} | ${tooLarge.hint} [code ${tooLarge.code}])`);
  } finally {
    rmSync(huge, { force: true });
  }

  const after = await opened(sample, 60_000);
  await page.waitForFunction(() => document.querySelectorAll('#gpu-timeline tbody tr').length > 0, null, { timeout: 30_000 }).catch(() => {});
  await page.screenshot({ path: path.join(screenshots, 'memcap-after.png'), fullPage: true });
  const name = await page.locator('#trace-name').textContent();
  check(!after.error && name.startsWith(path.basename(sample)), `then ${path.basename(sample)} opens (${after.error ? after.title : name})`);
  const facts = await page.locator('#facts').textContent();
  const timelineRows = await page.locator('#gpu-timeline tbody tr').count();
  check(/events/.test(facts) && timelineRows > 0, `its overview shows the trace's facts and GPU timeline (${timelineRows} rows)`);
  check(problems.length === 0, `no uncaught errors in the page${problems.length ? `: ${problems.slice(0, 3).join('; ')}` : ''}`);
} finally {
  await browser.close();
  server.kill();
}
finish();
