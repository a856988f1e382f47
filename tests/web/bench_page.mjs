// Performance of the page in Debian's headless Chromium (playwright-core); prints figures.
//   node tests/web/bench_page.mjs [--runs 3] [--synthetic-mb 1024[,4096,...]] [--gz] [--compact]
//                                 [--no-owlv2] [--check] [--site build/wasm/web]
//                                 [--cli build/native/sollens] [--both-reads] [--vs OTHER_SITE]
// (a) owlv2 (55.6 MB of JSON, .json.gz): from choosing the file (the input's change
//     event) to the report shown, in the page's clock,
//     module already compiled and warmed (the page does both while the user picks a file);
//     the cold figure (navigation included) is printed too. Target <= 0.4 s. HTA's
//     sheets and the cycles follow the report in messages of their own: when they are
//     there is printed too (body[data-hta] and body[data-cycles] leave "pending").
// (b) synthetic Kineto traces of each --synthetic-mb size (0: skip), written to /tmp
//     from owlv2's events (see writeSynthetic; --compact: one event a line), and
//     with --gz their .json.gz too (gzip -1): each loads without running
//     out of memory; prints the time (target: 1 GB <= 5 s), MB/s and the peak resident
//     memory of Chromium's processes, per GB of JSON (sampled from /proc every 100 ms;
//     the renderer that hosts the worker holds the wasm heap).
//     Beside it, the browser's own read of the same file with nothing parsed (file.stream()
//     in a blank page): the least any page can take to open it.
// --vs OTHER_SITE: each synthetic file also opened in another build of the site (served
// alone, its own scripts: a `git worktree` of an earlier commit), the two pages' runs taken
// in turn, and both printed with the CPU time of Chromium's processes per load: this VM's
// speed drifts by a third within minutes, so only runs taken in turn compare.
// --both-reads: each plain .json again with ?read=two-parts and ?read=one-pass (web/engine.mjs),
// the page's two ways of reading it, whichever it would choose on this machine.
// Beside each file's page figure, the CLI's for the same file in the same run: the whole
// process of `sollens report FILE --out DIR --no-xlsx` (read, inflate, parse, every sheet,
// the CSVs and report.json), its MB/s, and the page's time per byte over the CLI's.
// (c) payload: the page's wasm + JS + HTML + CSS gzipped (-9), without vendor/
//     (Arrow and DuckDB-Wasm, fetched only for an Arrow export or the SQL view). Target < 1.5 MB.
// --check exits non-zero when (b) fails or (a)/(c) miss their targets (timings on a
// loaded machine vary: CI runs it with a small synthetic trace, not the timing gates).
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gunzipSync, gzipSync } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { defaultSite, gzOf, repo, startPageServer, launchChromium } from './support/harness.mjs';

const args = process.argv.slice(2);
let runs = 3;
let syntheticSizes = [1024];
let alsoGz = false;
let compactLayout = false;
let owlv2 = true;
let bothReads = false;
let gate = false;
let site = defaultSite;
let cli = path.join(repo, 'build/native/sollens');
let vsSite = null;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--runs') runs = Number(args[++i]);
  else if (args[i] === '--synthetic-mb') syntheticSizes = args[++i].split(',').map(Number).filter((n) => n > 0);
  else if (args[i] === '--gz') alsoGz = true;
  else if (args[i] === '--compact') compactLayout = true;
  else if (args[i] === '--no-owlv2') owlv2 = false;
  else if (args[i] === '--both-reads') bothReads = true;
  else if (args[i] === '--check') gate = true;
  else if (args[i] === '--site') site = path.resolve(args[++i]);
  else if (args[i] === '--cli') cli = path.resolve(args[++i]);
  else if (args[i] === '--vs') vsSite = path.resolve(args[++i]);
  else throw new Error(`bench_page.mjs: unknown argument ${args[i]}`);
}
const TARGET_READY_S = 0.4;
const TARGET_1GB_S = 5;
const TARGET_PAYLOAD_B = 1.5e6;
const problems = [];
const mb = (b) => (b / 1e6).toFixed(1);
// The middle of the runs (the upper one of an even count); `by` picks the number of an item.
const medianOf = (xs, by = (x) => x) => xs.slice().sort((a, b) => by(a) - by(b))[Math.floor(xs.length / 2)];
// owlv2-large's JSON, decompressed (tests/fixtures/traces/MANIFEST.md): the page's and
// the CLI's MB/s are per byte of JSON.
const OWLV2_JSON_BYTES = gunzipSync(readFileSync(gzOf('tracelens-h100-owlv2-large'))).length;

// --- (c) payload ------------------------------------------------------------------------
function walk(dir, rel = '') {
  return readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) =>
    (e.isDirectory() ? walk(dir, path.join(rel, e.name)) : [path.join(rel, e.name)]));
}
const siteFiles = walk(site).filter((f) => /\.(wasm|mjs|js|html|css)$/.test(f));
let payload = 0;
let optional = 0;
for (const f of siteFiles) {
  const gz = gzipSync(readFileSync(path.join(site, f)), { level: 9 }).length;
  if (f.startsWith('vendor')) optional += gz;
  else payload += gz;
}
console.log(`(c) payload: ${siteFiles.filter((f) => !f.startsWith('vendor')).length} files (wasm, JS, HTML, CSS) = ` +
  `${(payload / 1e6).toFixed(3)} MB gzipped (target < ${TARGET_PAYLOAD_B / 1e6} MB); ` +
  `code loaded on first use (vendor/: Arrow for an Arrow export, DuckDB-Wasm for the SQL view) ${(optional / 1e6).toFixed(3)} MB gzipped`);
if (payload >= TARGET_PAYLOAD_B) problems.push(`payload ${payload} B >= ${TARGET_PAYLOAD_B}`);

// --- (b) the synthetic traces ----------------------------------------------------------------
// owlv2's events written again and again, each copy shifted in time and its ids made
// unique (tests/bench/make_big_trace.py, as the native big-trace bench): one long run
// of a real program, in Kineto's own layout (about 420 bytes an event), or with
// --compact one event a line without spaces (about 230: more events per GB).
function writeSynthetic(file, sizeMb) {
  const script = path.join(repo, 'tests', 'bench', 'make_big_trace.py');
  const out = execFileSync('python3', [script, gzOf('tracelens-h100-owlv2-large'), file, String(sizeMb),
    ...(compactLayout ? ['--compact'] : [])], { encoding: 'utf8' });
  return out.trim();
}

// Peak RSS over the browser's process tree, sampled from /proc.
function processTree(root) {
  const children = new Map();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const ppid = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1];
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(pid);
    } catch {
      // gone
    }
  }
  const out = [];
  const stack = [String(root)];
  while (stack.length) {
    const p = stack.pop();
    out.push(p);
    stack.push(...(children.get(p) ?? []));
  }
  return out;
}
function rssOf(pid) {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
  } catch {
    return 0;
  }
}
const isChromium = (pid) => {
  try {
    return /chrom/i.test(readFileSync(`/proc/${pid}/comm`, 'utf8'));
  } catch {
    return false;
  }
};
// CPU seconds (user and system) Chromium's processes have used so far.
function chromiumCpuS() {
  const tick = 100;  // USER_HZ on Linux
  let ticks = 0;
  for (const pid of processTree(process.pid).filter(isChromium)) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return ticks / tick;
}
// playwright starts Chromium as a child of this process.
function sampleMemory() {
  const peak = { total: 0, largest: 0 };
  const timer = setInterval(() => {
    const rss = processTree(process.pid).filter(isChromium).map(rssOf);
    peak.total = Math.max(peak.total, rss.reduce((a, b) => a + b, 0));
    peak.largest = Math.max(peak.largest, ...rss);
  }, 100);
  return { peak, stop: () => clearInterval(timer) };
}

// The CLI on the same file, as a user runs it; prints its time beside the page's: to the
// report shown (pageS) and to every sheet in, HTA's included (allS); null where the page
// did not load the file (no ratio then: the time to an error is not the page's speed).
function compareWithCli(file, jsonBytes, pageS, allS) {
  if (!existsSync(cli)) {
    console.log(`    CLI: ${cli} not built (the native preset): no figure beside the page's`);
    return;
  }
  const out = mkdtempSync(path.join(tmpdir(), 'sollens-bench-cli-'));
  try {
    // As many runs as the page had (a loaded machine moves one run by a second): the median.
    const times = [];
    for (let run = 0; run < Math.max(1, runs); run++) {
      const t0 = process.hrtime.bigint();
      execFileSync(cli, ['report', file, '--out', out, '--no-xlsx'], { stdio: 'ignore' });
      times.push(Number(process.hrtime.bigint() - t0) / 1e9);
    }
    times.sort((a, b) => a - b);
    const cliS = medianOf(times);
    console.log(`    CLI (sollens report --no-xlsx, whole process, median of ${times.length}: ${times.map((t) => t.toFixed(2)).join(', ')} s): ` +
      `${cliS.toFixed(2)} s, ${(jsonBytes / 1e6 / cliS).toFixed(0)} MB/s of JSON; ` +
      (pageS === null ? 'the page did not load it: no ratio' :
        `the page takes ${(pageS / cliS).toFixed(2)}x the CLI's time per byte to show the report (target <= 1.5x), ` +
        `${(allS / cliS).toFixed(2)}x to have every sheet (HTA's included)`));
  } catch (e) {
    console.log(`    CLI: sollens report failed on ${path.basename(file)} (${e.message.split('\n')[0]})`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

// The browser's own read of `file`, nothing parsed: an <input type=file> of a blank
// page (about:blank: no worker warming up beside it), the File's bytes pulled through
// file.stream() on the main thread (as the page's read worker does) and dropped. The
// page cannot open a trace faster than its browser hands it the bytes; seconds.
async function browserReadS(file) {
  context ??= await browser.newContext();
  const page = await context.newPage();
  try {
    await page.evaluate(() => {
      const input = document.createElement('input');
      input.type = 'file';
      input.id = 'bench-read-only';
      input.hidden = true;
      document.body.append(input);
    });
    await page.setInputFiles('#bench-read-only', file);
    return await page.evaluate(async () => {
      const blob = document.getElementById('bench-read-only').files[0];
      const t0 = performance.now();
      const reader = blob.stream().getReader();
      for (;;) if ((await reader.read()).done) break;
      return (performance.now() - t0) / 1000;
    });
  } finally {
    await page.close();
  }
}

// Opens one synthetic trace and prints its time and peak memory per GB of JSON; `read`:
// how the page reads a plain-JSON trace (?read=, engine.mjs; '' = as the page decides).
// With --runs N, opened N times: the run of the median time is printed (each run's time too).
async function openSynthetic(file, sizeMb, jsonBytes, read = '') {
  const reads = [];
  if (!read) for (let run = 0; run < Math.max(1, runs); run++) reads.push(await browserReadS(file));
  const memory = sampleMemory();
  const all = [];
  const other = [];
  const query = read ? `?read=${read}` : '';
  try {
    for (let run = 0; run < Math.max(1, runs); run++) {
      all.push(await open(file, 20 * 60_000, query));
      if (vsOrigin) other.push(await open(file, 20 * 60_000, query, vsOrigin));
    }
  } finally {
    memory.stop();
  }
  if (vsOrigin) printVersus(all, other);
  const r = medianOf(all, (x) => x.shownS);
  if (all.length > 1) console.log(`    runs: report shown ${all.map((x) => x.shownS.toFixed(2)).join(', ')} s; HTA's sheets in ${all.map((x) => x.htaS.toFixed(2)).join(', ')} s`);
  const kind = (file.endsWith('.gz') ? `.json.gz (${mb(statSync(file).size)} MB)` : '.json') + (read ? ` ?read=${read}` : '');
  const ev = r.facts.events ?? '';
  const gb = jsonBytes / 1e9;
  console.log(`(b) synthetic ${sizeMb} MB ${kind}: ${r.state} in ${r.shownS.toFixed(1)} s, ${(jsonBytes / 1e6 / r.shownS).toFixed(0)} MB/s of JSON, ` +
    `HTA's sheets in ${r.htaS.toFixed(1)} s ` +
    `(worker: ${r.opened}; events ${ev})${r.error ? `; error: ${r.error}` : ''}`);
  if (reads.length) console.log(`    the browser's own read of the file, nothing parsed (file.stream(), median of ${reads.length}): ` +
    `${medianOf(reads).toFixed(2)} s, ${(jsonBytes / 1e6 / medianOf(reads)).toFixed(0)} MB/s; the page's report came ` +
    `${(r.shownS - medianOf(reads)).toFixed(2)} s after it`);
  console.log(`    peak resident memory${vsOrigin ? ' (over both sites\' runs)' : ''}: Chromium processes together ${mb(memory.peak.total)} MB ` +
    `(${(memory.peak.total / 1e6 / gb).toFixed(0)} MB per GB of JSON), largest process ${mb(memory.peak.largest)} MB ` +
    `(${(memory.peak.largest / 1e6 / gb).toFixed(0)} MB per GB)`);
  const loaded = r.state === 'loaded';
  if (!read) compareWithCli(file, jsonBytes, loaded ? r.shownS : null, loaded ? r.htaS : null);
  const failed = all.find((x) => x.state !== 'loaded');
  if (failed) problems.push(`synthetic ${sizeMb} MB ${kind} did not load: ${failed.error}`);
  if (sizeMb === 1024 && !file.endsWith('.gz') && r.shownS > TARGET_1GB_S)
    problems.push(`synthetic 1 GB ${r.shownS.toFixed(1)} s > ${TARGET_1GB_S} s`);
}

// This site's runs and the --vs site's, taken in turn: medians and each pair's difference.
function printVersus(mine, theirs) {
  const line = (label, xs) => `${label} ${medianOf(xs).toFixed(2)} s (${xs.map((x) => x.toFixed(2)).join(', ')})`;
  const differences = (by) => mine.map((m, i) => by(m) - by(theirs[i]));
  console.log(`    this site: ${line('report shown', mine.map((r) => r.shownS))}, ${line('CPU', mine.map((r) => r.cpuS))}`);
  console.log(`    --vs ${vsSite}: ${line('report shown', theirs.map((r) => r.shownS))}, ${line('CPU', theirs.map((r) => r.cpuS))}`);
  console.log(`    this site minus --vs, run by run: ${line('report shown', differences((r) => r.shownS))}, ` +
    `${line('CPU', differences((r) => r.cpuS))}`);
}

// --- browser runs ---------------------------------------------------------------------------
const { server, origin } = await startPageServer(site);
const vs = vsSite ? await startPageServer(vsSite, { sources: false }) : null;
const vsOrigin = vs?.origin ?? null;
const browser = await launchChromium();
let context = null;

// Opens `trace` in a fresh page of the site at `at`; returns {shownS, cyclesS, htaS, wallS,
// coldS, cpuS (Chromium's processes, from choosing the file to the report shown), state,
// opened, facts, error}.
async function open(trace, timeoutMs, query = '', at = origin) {
  // One browser context for every run, as one user's browser: its HTTP cache keeps
  // sollens.wasm with the code compiled for it, so runs after the first measure a
  // later visit (the first run is the first visit).
  context ??= await browser.newContext();
  const page = await context.newPage();
  const tNav = Date.now();
  await page.goto(`${at}/${query}`);
  // The module compiled and run once over the bundled sample (worker.mjs's warm-up),
  // as when a user picks a file a moment after the page opened.
  await page.waitForFunction(() => document.body.dataset.engine === 'warm');
  // In the page's own clock: from the file input's change event (the file chosen, as
  // the browser has it) to the report shown (body[data-state] 'loaded' or 'error');
  // the wall clock around setInputFiles also holds the harness handing the file over.
  await page.evaluate(() => {
    const marks = (window.sollensBench = {});
    document.getElementById('file-input').addEventListener('change', () => { marks.chosen = performance.now(); }, { capture: true });
    new MutationObserver(() => {
      if (!marks.shown && ['loaded', 'error'].includes(document.body.dataset.state)) marks.shown = performance.now();
      if (marks.shown && !marks.cycles && document.body.dataset.cycles !== 'pending') marks.cycles = performance.now();
      if (marks.shown && !marks.hta && document.body.dataset.hta !== 'pending') marks.hta = performance.now();
    }).observe(document.body, { attributes: true });
  });
  const t0 = Date.now();
  const cpu0 = chromiumCpuS();
  await page.setInputFiles('#file-input', trace);
  await page.waitForFunction((n) => document.body.dataset.state === 'error' ||
    (document.body.dataset.state === 'loaded' && document.getElementById('trace-name').textContent === n),
  path.basename(trace), { timeout: timeoutMs, polling: 20 });
  const t1 = Date.now();
  const cpuS = chromiumCpuS() - cpu0;
  await page.waitForFunction(() => document.body.dataset.cycles !== 'pending' && document.body.dataset.hta !== 'pending',
    null, { timeout: timeoutMs, polling: 20 });
  const marks = await page.evaluate(() => window.sollensBench);
  const state = await page.evaluate(() => (document.getElementById('error').hidden ? 'loaded' : 'error'));
  // Each term's value by its text (textContent: the facts are folded in a closed
  // <details>, which innerText leaves out).
  const facts = await page.locator('#facts').evaluate((dl) => Object.fromEntries([...dl.querySelectorAll('dt')]
    .map((dt) => [dt.textContent.trim(), dt.nextElementSibling?.textContent.trim() ?? ''])));
  const opened = facts['opened in'] ?? '';
  const error = state === 'error' ? await page.locator('#error').innerText() : '';
  await page.close();
  return { shownS: (marks.shown - marks.chosen) / 1000, cyclesS: ((marks.cycles ?? marks.shown) - marks.chosen) / 1000,
    htaS: ((marks.hta ?? marks.shown) - marks.chosen) / 1000,
    wallS: (t1 - t0) / 1000, coldS: (t1 - tNav) / 1000, cpuS, state, opened, facts, error };
}

try {
  if (owlv2) {
    const trace = gzOf('tracelens-h100-owlv2-large');
    console.log(`\n(a) owlv2: ${path.basename(trace)} (${mb(statSync(trace).size)} MB .json.gz)`);
    const times = [];
    const cycleTimes = [];
    const htaTimes = [];
    for (let run = 1; run <= runs; run++) {
      const r = await open(trace, 120_000);
      times.push(r.shownS);
      cycleTimes.push(r.cyclesS);
      htaTimes.push(r.htaS);
      console.log(`  run ${run}: ${r.state}, report shown ${r.shownS.toFixed(2)} s after choosing the file, HTA's sheets ${r.htaS.toFixed(2)} s, cycles ${r.cyclesS.toFixed(2)} s ` +
        `(with the harness's file hand-over ${r.wallS.toFixed(2)} s; cold, navigation included: ${r.coldS.toFixed(2)} s; worker: ${r.opened})${r.error ? ` ${r.error}` : ''}`);
    }
    const best = Math.min(...times);
    const median = medianOf(times);
    console.log(`(a) owlv2 ready: best ${best.toFixed(2)} s, median ${median.toFixed(2)} s (target <= ${TARGET_READY_S} s); ` +
      `HTA's sheets in: median ${medianOf(htaTimes).toFixed(2)} s; cycles shown: median ${medianOf(cycleTimes).toFixed(2)} s`);
    if (median > TARGET_READY_S) problems.push(`owlv2 median ${median.toFixed(2)} s > ${TARGET_READY_S} s`);
    compareWithCli(trace, OWLV2_JSON_BYTES, median, medianOf(htaTimes));
  }

  for (const sizeMb of syntheticSizes) {
    const json = `/tmp/sollens-synthetic-${sizeMb}mb-${process.pid}.json`;
    const tGen = Date.now();
    const made = writeSynthetic(json, sizeMb);
    const jsonBytes = statSync(json).size;
    console.log(`\n(b) synthetic: ${made}, written in ${((Date.now() - tGen) / 1000).toFixed(1)} s`);
    const files = [json];
    if (alsoGz) {
      execFileSync('sh', ['-c', `gzip -1 -c '${json}' > '${json}.gz'`]);
      files.push(`${json}.gz`);
    }
    try {
      for (const file of files) await openSynthetic(file, sizeMb, jsonBytes);
      // The plain JSON read in two parts at once and in one pass, whatever the page would choose here.
      if (bothReads) for (const read of ['two-parts', 'one-pass']) await openSynthetic(json, sizeMb, jsonBytes, read);
    } finally {
      for (const file of files) rmSync(file, { force: true });
    }
  }
} finally {
  await browser.close();
  server.kill();
  vs?.server.kill();
}
if (problems.length) console.log(`\nmissed: ${problems.join('; ')}`);
process.exit(gate && problems.length ? 1 : 0);
