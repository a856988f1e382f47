// A large plain-JSON trace read in two parts at once (web/worker.mjs, part-worker.mjs,
// core/ingest/trace_stream.h StreamSplit), in Debian's headless Chromium:
//   node tests/web/split_page_test.mjs [--site build/wasm/web] [--artifacts DIR] [--screenshots DIR]
// The traces (made here in a temporary folder, from owlv2's events by tests/bench/
// make_big_trace.py, or by hand below), each above the page's 16 MiB threshold:
// kineto   Kineto's own layout (one member a line): read in two parts (the overview's
//          "opened in" says so); the same events, warnings and GPU timeline, to the digit,
//          as the same text gzipped, which the page reads in one pass, and as many
//          events as `sollens info` reads
// compact  one event a line, no spaces: the same
// nested   every event's args hold objects in an array across lines, so the cut the
//          page finds near the middle is inside an event: both parts fail, the page
//          reads the file again in one pass, and shows the events `sollens info` reads
// cut      the kineto text cut short in its last tenth: the cut is in the second part;
//          the same events and warnings as `sollens info`
// broken   a malformed event in the second part: the error notice names the same byte
//          as `sollens info`'s error
// auto     without ?read= in the address, two parts only with 4 cores or more (the worker's
//          TWO_PARTS_MIN_CORES); ?read=one-pass reads in one pass
// The page is opened with ?read=two-parts (engine.mjs) for the cases above.
// Prints "split: N passed, M failed".
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { repo, defaultSite, gzOf, pathOptions, checks, startPageServer, launchChromium, requireBuilt, cliInfo } from './support/harness.mjs';

const option = pathOptions();
const site = option('--site', defaultSite);
const TIMEOUT_MS = 120_000;
const TRACE_MB = 40;
const cli = path.join(repo, 'build/native/sollens');

const { check, finish } = checks('split');
requireBuilt({ check, finish }, site, { cli });
const tmp = mkdtempSync(path.join(tmpdir(), 'sollens-split-'));

function bigTrace(name, ...flags) {
  const file = path.join(tmp, name);
  execFileSync('python3', [path.join(repo, 'tests/bench/make_big_trace.py'), gzOf('tracelens-h100-owlv2-large'), file,
    String(TRACE_MB), ...flags], { stdio: 'ignore' });
  return file;
}
function gzipped(file) {
  const out = `${file}.gz`;
  writeFileSync(out, gzipSync(readFileSync(file), { level: 1 }));
  return out;
}
// Events whose args hold an array of objects written across lines (as a pretty-printer
// writes them): every "},\n{" in the file but the ones between events is inside args.
function nestedTrace() {
  const events = [];
  for (let i = 0; i < 60_000; i++) {
    events.push(`{"ph": "X", "cat": "cpu_op", "name": "aten::op${i % 40}", "pid": 1, "tid": 1, "ts": ${i * 10}, "dur": 5, ` +
      `"args": {"External id": ${i}, "list": [{"a": ${i}, "pad": "${'x'.repeat(120)}"},\n{"b": ${i}},\n{"c": ${i}}]}}`);
  }
  const file = path.join(tmp, 'nested.json');
  writeFileSync(file, `{"traceEvents": [\n${events.join(',\n')}\n], "traceName": "nested"}`);
  return file;
}

const kineto = bigTrace('kineto.json');
const compact = bigTrace('compact.json', '--compact');
const nested = nestedTrace();
const kinetoText = readFileSync(kineto);
const cut = path.join(tmp, 'cut.json');
writeFileSync(cut, kinetoText.subarray(0, Math.floor(kinetoText.length * 0.93)));
const broken = path.join(tmp, 'broken.json');
{
  const at = kinetoText.indexOf('"ph"', Math.floor(kinetoText.length * 0.8));
  writeFileSync(broken, Buffer.concat([kinetoText.subarray(0, at), Buffer.from('"ph" "X", '), kinetoText.subarray(at + 4)]));
}

const { server, origin } = await startPageServer(site);
let browser;
try {
  browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  // The two-part read whatever the cores (engine.mjs); the page's own choice is checked last.
  await page.goto(`${origin}/?read=two-parts`);
  await page.waitForFunction(() => document.body.dataset.engine === 'warm', null, { timeout: TIMEOUT_MS });

  // Opens `file`; what the page shows of it.
  const open = async (file) => {
    await page.setInputFiles('#file-input', file);
    const name = path.basename(file);
    await page.waitForFunction((n) => {
      const s = document.body.dataset.state;
      return (s === 'loaded' || s === 'error') && (!document.getElementById('error').hidden ||
        document.getElementById('trace-name').textContent === n);
    }, name, { timeout: TIMEOUT_MS, polling: 50 });
    return page.evaluate(() => {
      const facts = Object.fromEntries([...document.querySelectorAll('#facts dt')]
        .map((dt) => [dt.textContent.trim(), dt.nextElementSibling?.textContent.trim() ?? '']));
      const error = document.getElementById('error');
      const shown = {
        error: error.hidden ? '' : error.textContent,
        opened: facts['opened in'] ?? '',
        events: Number(document.querySelector('#facts data')?.value),
        warnings: [...document.querySelectorAll('#warnings li')].map((li) => li.firstChild.textContent),
        timeline: [...document.querySelectorAll('#gpu-timeline tr[data-type]')]
          .map((tr) => `${tr.dataset.type}=${[...tr.querySelectorAll('data')].map((d) => d.value).join('/')}`).join(' '),
      };
      error.hidden = true;
      return shown;
    });
  };
  const twoParts = (shown) => /in two parts at once/.test(shown.opened);

  for (const [label, file] of [['kineto', kineto], ['compact', compact]]) {
    const split = await open(file);
    const whole = await open(gzipped(file));
    const info = cliInfo(cli, file);
    check(split.error === '' && twoParts(split), `${label}: read in two parts at once (opened in ${split.opened})${split.error}`);
    check(!twoParts(whole), `${label}: its .json.gz is read in one pass (opened in ${whole.opened})`);
    check(split.events === whole.events && split.events === info.events && info.events > 100_000,
      `${label}: ${split.events} events, as in one pass (${whole.events}) and as sollens info (${info.events})`);
    check(split.timeline !== '' && split.timeline === whole.timeline,
      `${label}: the GPU timeline to the digit as in one pass (${split.timeline.slice(0, 120)}...)`);
    check(JSON.stringify(split.warnings) === JSON.stringify(whole.warnings), `${label}: the same warnings as in one pass (${split.warnings.length})`);
  }

  const again = await open(nested);
  const nestedInfo = cliInfo(cli, nested);
  check(again.error === '' && !twoParts(again), `nested: the cut inside an event is refused and the file read in one pass (opened in ${again.opened})`);
  check(again.events === nestedInfo.events && again.events === 60_000, `nested: ${again.events} events, as sollens info (${nestedInfo.events})`);

  const short = await open(cut);
  const cutInfo = cliInfo(cli, cut);
  check(short.error === '' && twoParts(short), `cut: read in two parts at once (opened in ${short.opened})`);
  check(short.events === cutInfo.events && short.events > 0, `cut: ${short.events} events, as sollens info (${cutInfo.events})`);
  check(JSON.stringify(short.warnings) === JSON.stringify(cutInfo.warnings) && cutInfo.warnings.length > 0,
    `cut: the warnings of sollens info (${JSON.stringify(short.warnings)} | ${JSON.stringify(cutInfo.warnings)})`);

  const bad = await open(broken);
  const badInfo = cliInfo(cli, broken);
  const byte = /byte [\d,]+/.exec(badInfo.error)?.[0] ?? 'no byte';
  check(bad.error !== '' && badInfo.error !== '' && bad.error.replace(/,/g, '').includes(byte.replace(/,/g, '')),
    `broken: the error names ${byte}, as sollens info's (${bad.error.slice(0, 160)} | ${badInfo.error})`);

  // Without ?read=, the page reads in two parts only with 4 cores or more.
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => document.body.dataset.engine === 'warm', null, { timeout: TIMEOUT_MS });
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const chosen = await open(compact);
  check(chosen.error === '' && twoParts(chosen) === cores >= 4,
    `without ?read=, ${cores} cores: ${cores >= 4 ? 'two parts' : 'one pass'} (opened in ${chosen.opened})`);
  await page.goto(`${origin}/?read=one-pass`);
  await page.waitForFunction(() => document.body.dataset.engine === 'warm', null, { timeout: TIMEOUT_MS });
  const onePass = await open(compact);
  check(onePass.error === '' && !twoParts(onePass) && onePass.events === chosen.events,
    `?read=one-pass: one pass, the same ${onePass.events} events (opened in ${onePass.opened})`);
  // A browser's read that never answers (Chromium's BYOB reads, now and then): given up
  // and the file read again by the file-reading worker, every event there.
  await page.goto(`${origin}/?read=stalling`);
  await page.waitForFunction(() => document.body.dataset.engine === 'warm', null, { timeout: TIMEOUT_MS });
  const stalled = await open(compact);
  check(stalled.error === '' && !twoParts(stalled) && /read again/.test(stalled.opened) && stalled.events === chosen.events,
    `?read=stalling: a read that never answers is read again, the same ${stalled.events} events (opened in ${stalled.opened})`);
  check(pageErrors.length === 0, `no script errors (${pageErrors.join('; ')})`);
} finally {
  await browser?.close();
  server.kill();
  rmSync(tmp, { recursive: true, force: true });
}
finish();
