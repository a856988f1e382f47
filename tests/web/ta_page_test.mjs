// The time axis's data as the page gets it from its worker (web/load.mjs's
// requestTimeAxis, eventDetail, rangeSummary, trimmedTrace: web/timeline/CONTRACT.md),
// in Debian's headless Chromium, against the command line:
//   node tests/web/ta_page_test.mjs [--site build/wasm/web] [--cli build/native/sollens]
//        [--screenshots DIR] [--artifacts DIR]
// For tests/fixtures/synthetic/hf_decode_loop.json and samples/h100-bert-small.json.gz:
//   - the events sheet's kernels, runtime calls and cpu_ops count what `sollens info`
//     counts by category (every kernel and runtime call drawn; cpu_ops outside the tree
//     are not drawn, so at most as many);
//   - the trace's start is the page's info.firstTsUs (one origin for every view);
//   - every partner points back (a kernel's launch names a kernel of its own);
//   - the step spans are `sollens cycles`'s outer repetitions (count and start, µs);
//   - an event's details carry its name and enclosing ops; a range's summary has the
//     GPU idle row; the trimmed trace parses, keeps every metadata event and exactly
//     the complete events overlapping the range (counted here from the file);
//   - a screenshot of the Time axis view drawn from them: ta-LABEL-timeline.png;
// and first, without a browser, the engine's asks (web/engine.mjs) with a stand-in worker.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { repo, defaultSite, pathOptions, checks, startPageServer, CHROMIUM, launchChromium, requireBuilt } from './support/harness.mjs';

const option = pathOptions();
const site = option('--site', defaultSite);
const cli = option('--cli', path.join(repo, 'build/native/sollens'));
const shots = option('--screenshots', option('--artifacts', path.join(repo, 'build/wasm/web-screenshots')));
const TIMEOUT_MS = 90_000;
const TRACES = [
  ['decode', path.join(repo, 'tests/fixtures/synthetic/hf_decode_loop.json')],
  ['sample', path.join(repo, 'samples/h100-bert-small.json.gz')],
];

const { check, finish } = checks('ta');
requireBuilt({ check, finish }, site, { cli });
mkdirSync(shots, { recursive: true });

// `sollens info`'s "by category" counts.
function cliCategories(file) {
  const text = execFileSync(cli, ['info', file], { encoding: 'utf8' });
  const counts = {};
  const block = text.split('\nby category:\n')[1]?.split('\nby phase:')[0] ?? '';
  for (const line of block.split('\n')) {
    const m = /^\s+(.+): (\d+)$/.exec(line);
    if (m) counts[m[1]] = Number(m[2]);
  }
  return counts;
}

// `sollens cycles`'s outer repetitions of the patterns with a phase: [start_us].
function cliStepStarts(file) {
  const dir = mkdtempSync(path.join(tmpdir(), 'ta-cycles-'));
  try {
    return stepStartsIn(dir, file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
function stepStartsIn(dir, file) {
  execFileSync(cli, ['cycles', file, '--out', dir], { encoding: 'utf8' });
  const rows = (name) => {
    const [head, ...lines] = readFileSync(path.join(dir, name), 'utf8').trim().split('\n');
    const keys = head.split(',');
    return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [keys[i], v])));
  };
  const starts = [];
  for (const row of rows('cycles.csv')) {
    if (row.level !== 'outer' || row.phase === 'other') continue;
    const reps = `cycle_${row.pattern}_repetitions.csv`;
    if (!readdirSync(dir).includes(reps)) continue;
    for (const r of rows(reps)) starts.push(Number(r.start_us));
  }
  return starts.sort((a, b) => a - b);
}

function traceJson(file) {
  const bytes = readFileSync(file);
  return JSON.parse((file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8'));
}

// --- the engine's asks, with a stand-in worker (no browser) -----------------------------
// Each is settled by its own ask number, rejected with the worker's words on an error,
// and rejected when another trace is opened before its reply.
{
  const { createEngine } = await import(path.join(repo, 'web/engine.mjs'));
  const { ToWorker, FromWorker } = await import(path.join(repo, 'web/messages.mjs'));
  const posted = [];
  let worker = null;
  const handlers = Object.fromEntries(['onReady', 'onProgress', 'onDone', 'onReport', 'onHta', 'onCycles', 'onCyclesError', 'onSol',
    'onSolar', 'onComparison', 'onRanks', 'onError', 'onCrash'].map((name) => [name, () => {}]));
  const engine = createEngine(handlers, { createWorker: () => (worker = { postMessage: (m) => posted.push(m), terminate() {}, onmessage: null }) });
  const settled = (promise) => promise.then((v) => ({ ok: v }), (e) => ({ error: e.message }));
  const none = await settled(engine.ask(ToWorker.EVENT_DETAIL, { row: 1 }));
  check(/no trace/.test(none.error ?? ''), `an ask with no worker is refused (${none.error})`);
  engine.open({ file: 'a.json' });
  const a = settled(engine.ask(ToWorker.EVENT_DETAIL, { row: 7 }));
  const b = settled(engine.ask(ToWorker.RANGE_SUMMARY, { startUs: 0, endUs: 5 }));
  const [askA, askB] = posted.slice(-2);
  check(askA.type === ToWorker.EVENT_DETAIL && askA.row === 7 && askA.id === engine.currentLoad && askB.ask !== askA.ask,
    'each ask is posted with the load id and its own ask number');
  worker.onmessage({ data: { type: FromWorker.RANGE_SUMMARY, id: engine.currentLoad, ask: askB.ask, error: 'The range is empty.' } });
  worker.onmessage({ data: { type: FromWorker.EVENT_DETAIL, id: engine.currentLoad, ask: askA.ask, row: 7, detail: { name: 'k' } } });
  const [gotA, gotB] = await Promise.all([a, b]);
  check(gotA.ok?.detail?.name === 'k' && gotB.error === 'The range is empty.', 'replies settle their own asks, in any order; an error rejects in its words');
  const c = settled(engine.ask(ToWorker.TIME_AXIS, { device: '' }));
  engine.open({ file: 'b.json' });
  check(/another trace/.test((await c).error ?? ''), 'an ask still waiting when another trace is opened is rejected');
}

const { server, origin } = await startPageServer(site);
let browser;
try {
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1300, height: 900 } });
  for (const [label, file] of TRACES) {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${origin}/`);
    await page.setInputFiles('#file-input', file);
    await page.waitForFunction(() => document.body.dataset.state === 'loaded', null, { timeout: TIMEOUT_MS });

    // The whole protocol, from the page's side, in one go.
    const got = await page.evaluate(async () => {
      const load = await import('/load.mjs');
      const { app } = await import('/state.mjs');
      const t0 = performance.now();
      const axis = await load.requestTimeAxis();
      const ms = performance.now() - t0;
      const col = (sheet, name) => sheet.columns.find((c) => c.name === name);
      const strings = (sheet, name) => { const c = col(sheet, name); return [...c.codes].map((k) => (k < 0 ? null : c.dictionary[k])); };
      const numbers = (sheet, name) => [...col(sheet, name).values];
      const kinds = strings(axis.events, 'kind');
      const byKind = {};
      for (const k of kinds) byKind[k] = (byKind[k] ?? 0) + 1;
      const partner = numbers(axis.events, 'partner');
      let partnersBack = 0;
      let partners = 0;
      for (let r = 0; r < partner.length; r++) {
        if (partner[r] < 0) continue;
        partners++;
        const p = partner[r];
        const runtime = kinds[r] === 'runtime' || kinds[r] === 'driver';
        // a launch's partner is a GPU event whose partner is this launch; a kernel's partner
        // is a launch whose partner is a GPU event
        if (runtime ? partner[p] === r : partner[p] >= 0 && (kinds[p] === 'runtime' || kinds[p] === 'driver')) partnersBack++;
      }
      const spanKinds = strings(axis.spans, 'kind');
      const spanStarts = numbers(axis.spans, 'start_us');
      const stepStarts = spanStarts.filter((_, r) => spanKinds[r] === 'step');
      const firstKernel = kinds.indexOf('kernel');
      const names = strings(axis.events, 'name');
      const rows = numbers(axis.events, 'row');
      const detail = await load.eventDetail(rows[firstKernel]);
      const ends = numbers(axis.events, 'start_us').map((s, r) => s + numbers(axis.events, 'dur_us')[r]);
      const end = Math.max(...ends);
      const summary = await load.rangeSummary(0, end);
      const sections = strings(summary, 'section');
      const trimRange = [end * 0.25, end * 0.5];
      const trimmed = await load.trimmedTrace(...trimRange);
      let refused = '';
      try {
        await load.rangeSummary(5, 5);
      } catch (e) {
        refused = e.message;
      }
      return {
        ms, lanes: strings(axis.lanes, 'label'), events: axis.events.rows, byKind, partners, partnersBack,
        traceStartUs: axis.traceStartUs, firstTsUs: app.report.info.firstTsUs, stepStarts,
        buildMs: axis.buildMs, inputsMs: axis.inputsMs,
        kernelName: names[firstKernel], detail, summarySections: sections, summaryRows: summary.rows,
        trimRange, trimmedName: trimmed.name, trimmedText: new TextDecoder().decode(trimmed.bytes), refused,
      };
    });
    console.log(`${label}: time axis in ${got.ms.toFixed(0)} ms (core: inputs ${got.inputsMs.toFixed(0)} ms, sheets ${got.buildMs.toFixed(0)} ms), ${got.events} events on ${got.lanes.length} lanes: ${got.lanes.join('; ')}`);
    const cat = cliCategories(file);
    check(got.byKind.kernel === cat.kernel, `${label}: kernels drawn ${got.byKind.kernel} = sollens info's ${cat.kernel}`);
    check((got.byKind.runtime ?? 0) === (cat.cuda_runtime ?? 0) && (got.byKind.driver ?? 0) === (cat.cuda_driver ?? 0),
      `${label}: runtime calls ${got.byKind.runtime}, driver calls ${got.byKind.driver ?? 0} = sollens info's ${cat.cuda_runtime}, ${cat.cuda_driver ?? 0}`);
    check(got.byKind.cpu_op > 0 && got.byKind.cpu_op <= cat.cpu_op && (label !== 'decode' || got.byKind.cpu_op === cat.cpu_op),
      `${label}: cpu_ops drawn ${got.byKind.cpu_op} of sollens info's ${cat.cpu_op}`);
    check(got.traceStartUs === got.firstTsUs, `${label}: the trace's start ${got.traceStartUs} µs is the page's info.firstTsUs ${got.firstTsUs}`);
    check(got.partners > 0 && got.partners === got.partnersBack, `${label}: ${got.partners} partners, each pointing back (${got.partnersBack})`);
    const cliSteps = cliStepStarts(file);
    const pageSteps = got.stepStarts.map((s) => s + got.traceStartUs).sort((a, b) => a - b);
    check(cliSteps.length === pageSteps.length && cliSteps.every((s, i) => Math.abs(s - pageSteps[i]) < 1e-6),
      `${label}: ${pageSteps.length} step spans start where sollens cycles's ${cliSteps.length} outer repetitions do`);
    check(got.detail.name === got.kernelName && Array.isArray(got.detail.op) && typeof got.detail.args === 'object',
      `${label}: the first kernel's details: ${got.detail.name} under ${got.detail.op.join(' > ')}`);
    check(got.summarySections.includes('gpu_idle') && got.summarySections.includes('busy'), `${label}: the whole range's summary (${got.summaryRows} rows: ${[...new Set(got.summarySections)].join(', ')})`);
    check(/empty/.test(got.refused), `${label}: an empty range is refused in words (${got.refused})`);

    // The trimmed trace against the file, counted here.
    const whole = traceJson(file);
    const events = (t) => (Array.isArray(t) ? t : t.traceEvents);
    const [a, b] = got.trimRange.map((us) => us + got.traceStartUs);
    const overlaps = (e) => e.ph === 'X' && e.ts <= b && e.ts + (e.dur ?? 0) >= a;
    let trimmed = null;
    try {
      trimmed = JSON.parse(got.trimmedText);
    } catch (e) {
      check(false, `${label}: the trimmed trace parses (${e.message})`);
    }
    if (trimmed) {
      const kept = events(trimmed);
      const meta = (t) => events(t).filter((e) => e.ph === 'M').length;
      check(meta(trimmed) === meta(whole), `${label}: the trimmed trace keeps every metadata event (${meta(trimmed)})`);
      const wantX = events(whole).filter(overlaps).length;
      const gotX = kept.filter((e) => e.ph === 'X').length;
      check(gotX === wantX && kept.filter((e) => e.ph === 'X').every(overlaps), `${label}: its complete events are exactly those overlapping the range (${gotX}, want ${wantX})`);
      const keys = (t) => (Array.isArray(t) ? [] : Object.keys(t).sort());
      check(JSON.stringify(keys(trimmed)) === JSON.stringify(keys(whole)), `${label}: it keeps the top-level keys (${keys(trimmed).join(', ')})`);
      check(got.trimmedName.endsWith('ms.json'), `${label}: named ${got.trimmedName}`);
    }
    // The view drawn from these sheets (views/timeline.mjs), to look at.
    await page.click('nav [data-view="timeline"]');
    await page.waitForFunction(() => Number(document.querySelector('section.view[data-view="timeline"] canvas')?.dataset.frames) > 0,
      null, { timeout: TIMEOUT_MS }).catch(() => {});
    await page.screenshot({ path: path.join(shots, `ta-${label}-timeline.png`), fullPage: true });
    check(errors.length === 0, `${label}: no page errors (${errors.join(' | ')})`);
    await page.close();
  }
} finally {
  await browser?.close();
  server.kill();
}
finish();
