// The LLM phases view (web/views/llm.mjs) in Debian's headless Chromium (playwright-core),
// served by web/serve.mjs:
//   node tests/web/llm_page_test.mjs [--site build/wasm/web] [--screenshots DIR]
// Each trace opened, the view shown, against `sollens sol` (build/native/sollens) on the
// same file and device:
//   llama       tests/fixtures/synthetic/llama_decode.json.gz (H200 from its
//               deviceProperties): a prefill and a decode card, 1 + 31 steps; every number
//               shown (data value=…, data-key sheet.column) equals its cell of
//               sol_by_phase.csv / sol_by_step.csv (relative 1e-9); each card's layer
//               table equals sol_by_phase_layer.csv's rows of its phase; the step counts
//               equal `sollens cycles --mode llm`'s prefill_steps / decode_steps rows; the
//               decode step's speed of light is the weights over the HBM bandwidth
//   hf          tests/fixtures/synthetic/hf_decode_loop.json (no deviceProperties): the
//               view says there is no device, shows 1 + 31 steps and their tokens; the
//               H100 chosen in its selector recomputes (compared with --device H100_SXM5_80GB)
//   vllm        tracelens-vllm-decode-full: the phase vLLM's annotation names, its numbers,
//               and the note that its graph replay has no estimate
//   sample      samples/h100-bert-small.json.gz: no phases, said in words, and the
//               Cycles view one click away
// Prints "llm: N passed, M failed"; screenshots go to --screenshots.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseCsv } from './views_checks.mjs';
import { repo, defaultSite, gzOf, pathOptions, checks, startPageServer, CHROMIUM, launchChromium, readWholeTable, requireBuilt } from './support/harness.mjs';

const option = pathOptions();
const site = option('--site', defaultSite);
const shots = option('--screenshots', option('--artifacts', path.join(repo, 'build/wasm/web-screenshots')));
const TIMEOUT_MS = 60_000;
const cli = path.join(repo, 'build/native/sollens');
const LLM = 'section.view[data-view="llm"]';
const LLAMA = path.join(repo, 'tests/fixtures/synthetic/llama_decode.json.gz');
const HF = path.join(repo, 'tests/fixtures/synthetic/hf_decode_loop.json');
const VLLM = gzOf('tracelens-vllm-decode-full');
const SAMPLE = path.join(repo, 'samples/h100-bert-small.json.gz');

const { check, finish } = checks('llm');
requireBuilt({ check, finish }, site, { cli });
mkdirSync(shots, { recursive: true });
const tmp = mkdtempSync(path.join(tmpdir(), 'sollens-llm-'));
const near = (a, b) => Math.abs(a - b) <= 1e-9 * Math.abs(b) + 1e-12;

// `sollens sol FILE` (and `cycles --mode llm`) as {sheet: {header, rows}}.
function cliSheets(file, label, extra = []) {
  const out = path.join(tmp, label);
  execFileSync(cli, ['sol', file, '--out', out, ...extra], { stdio: ['ignore', 'ignore', 'pipe'] });
  execFileSync(cli, ['cycles', file, '--mode', 'llm', '--out', path.join(out, 'cycles')], { stdio: ['ignore', 'ignore', 'pipe'] });
  const read = (name) => {
    const f = path.join(out, `${name}.csv`);
    if (!existsSync(f)) return { header: [], rows: [] };
    return parseCsv(readFileSync(f, 'utf8').split('\n').filter((l) => !l.startsWith('#')).join('\n'));
  };
  return { read, sheet: Object.fromEntries(['sol_by_phase', 'sol_by_step', 'sol_by_phase_layer'].map((s) => [s, read(s)])) };
}
const value = (t, row, column) => row?.[t.header.indexOf(column)];

// The CLI's row behind a card: sol_by_phase by phase; sol_by_step's step row of the
// phase with the most repetitions (as the view picks it).
function cliRow(csv, sheet, phase) {
  const t = csv.sheet[sheet];
  if (sheet === 'sol_by_phase') return t.rows.find((r) => value(t, r, 'phase') === phase);
  const steps = t.rows.filter((r) => value(t, r, 'level') === 'step' && value(t, r, 'llm_phase') === phase);
  return steps.reduce((a, b) => (!a || Number(value(t, b, 'repetitions')) > Number(value(t, a, 'repetitions')) ? b : a), null);
}

// Every number a card shows against the CLI's cell: [key, page value, CLI value] of those that differ.
async function compareCard(page, csv, phase) {
  const shown = await page.$$eval(`${LLM} .llm-phase[data-phase="${phase}"] .llm-facts data[data-key]`,
    (ds) => ds.map((d) => [d.dataset.key, Number(d.value)]));
  const bad = [];
  for (const [key, v] of shown) {
    const [sheet, column] = key.split('.');
    const want = Number(value(csv.sheet[sheet], cliRow(csv, sheet, phase), column));
    if (!near(v, want)) bad.push([key, v, want]);
  }
  return { shown: shown.length, bad, values: Object.fromEntries(shown) };
}

// The card's layer table against sol_by_phase_layer.csv's rows of the phase (in order).
async function compareLayers(page, csv, phase) {
  const selector = `${LLM} .llm-phase[data-phase="${phase}"] .sheet-table`;
  if (await page.locator(selector).count() !== 1) return { rows: 0, want: -1, bad: 1 };
  const table = await readWholeTable(page, selector);
  const t = csv.sheet.sol_by_phase_layer;
  const want = t.rows.filter((r) => value(t, r, 'phase') === phase);
  let bad = 0;
  table.rows.forEach((row, r) => table.headers.forEach((h, c) => {
    const csvCell = value(t, want[r], h) ?? '';
    const ok = row[c].value !== undefined ? csvCell !== '' && near(Number(row[c].value), Number(csvCell)) : row[c].text === csvCell;
    if (!ok) { bad++; console.log(`  ${phase} layers row ${r} ${h}: page ${row[c].value ?? row[c].text} vs CLI ${csvCell}`); }
  }));
  return { rows: table.rows.length, want: want.length, bad };
}

const { server, origin } = await startPageServer(site);
let browser;
try {
  browser = await launchChromium();
  const pageErrors = [];
  const open = async (label, file) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(`${label}: ${e}`));
    page.on('console', (m) => { if (m.type() === 'error') pageErrors.push(`${label}: console: ${m.text()}`); });
    await page.goto(`${origin}/`);
    await page.setInputFiles('#file-input', file);
    await page.waitForFunction(() => ['loaded', 'error'].includes(document.body.dataset.state), null, { timeout: TIMEOUT_MS });
    await page.click('nav [data-view="llm"]');
    await page.waitForSelector(`${LLM} .llm-phase, ${LLM} .llm-no-phases, ${LLM} .llm-error`, { timeout: TIMEOUT_MS });
    return page;
  };
  const phasesShown = (page) => page.$$eval(`${LLM} .llm-phase`, (cs) => cs.map((c) => c.dataset.phase));
  const checkCards = async (label, page, csv, phases) => {
    for (const phase of phases) {
      const card = await compareCard(page, csv, phase);
      for (const [key, v, want] of card.bad) console.log(`  ${label} ${phase} ${key}: page ${v} vs CLI ${want}`);
      check(card.shown > 0 && card.bad.length === 0,
        `${label}: the ${phase} card's ${card.shown} numbers equal sollens sol's CSV cells (relative 1e-9)`);
      const layers = await compareLayers(page, csv, phase);
      check(layers.rows === layers.want && layers.rows > 0 && layers.bad === 0,
        `${label}: the ${phase} layer table equals sol_by_phase_layer.csv's ${layers.want} rows of ${phase}`);
    }
  };
  const stepsOf = async (page, phase) => Number(await page.$eval(
    `${LLM} .llm-phase[data-phase="${phase}"] data[data-key="sol_by_phase.forwards"]`, (d) => d.value));

  // --- the Llama decode loop on its H200 -------------------------------------------------
  {
    const csv = cliSheets(LLAMA, 'llama');
    const page = await open('llama', LLAMA);
    await page.screenshot({ path: path.join(shots, 'llm-llama-decode.png'), fullPage: true });
    check(JSON.stringify(await phasesShown(page)) === '["prefill","decode"]', 'llama: a prefill card, then a decode card');
    check(await stepsOf(page, 'prefill') === 1 && await stepsOf(page, 'decode') === 31, 'llama: 1 prefill + 31 decode steps');
    // `cycles --mode llm` finds the same steps: its prefill (one forward of 628 kernels)
    // and decode forwards are the inferred forwards the view's phases come from.
    check(csv.read('cycles/decode_steps').rows.length === 31,
      'llama: as many decode steps as sollens cycles --mode llm (decode_steps.csv)');
    check(csv.read('cycles/prefill_steps').rows.length === 1,
      'llama: as many prefill steps as sollens cycles --mode llm (prefill_steps.csv)');
    await checkCards('llama', page, csv, ['prefill', 'decode']);
    // Physics. The decode step reads every weight once: 16 layers × (q 2048·2048 + k, v
    // 2048·512 each + o 2048·2048 + gate, up, down 3·2048·8192) = 16 × 60,817,408 =
    // 973,078,528 parameters, and the LM head 2048 × 128,256 = 262,668,288; in bf16,
    // 2 × 1,235,746,816 = 2,471,493,632 bytes. Over the H200's 4.8 TB/s of HBM that is
    // 514.89 µs. The KV cache (16 layers × 2 × 8 heads × 64 × ≤ 159 positions × 2 B ≈
    // 0.65 MB, 0.14 µs) and the activations add little: the step's SOL is within 1 % above.
    const decode = await compareCard(page, csv, 'decode');
    const keys = ['sol_by_phase.forwards', 'sol_by_step.wall_us', 'sol_by_step.wall_p50_us', 'sol_by_step.wall_p90_us',
      'sol_by_step.sol_latency_us', 'sol_by_step.wall_efficiency_pct', 'sol_by_phase.efficiency_pct', 'sol_by_phase.tokens_per_s'];
    const missing = keys.filter((k) => decode.values[k] === undefined);
    check(missing.length === 0, `llama: the decode card shows steps, wall per step (mean, p50, p90), SOL per step, over the wall, kernel-only, tokens/s${missing.length ? ` (missing ${missing.join(', ')})` : ''}`);
    const sol = decode.values['sol_by_step.sol_latency_us'];
    const weightsUs = 2_471_493_632 / 4.8e12 * 1e6;
    check(sol >= weightsUs && sol <= weightsUs * 1.01,
      `llama: the decode step's SOL (${sol?.toFixed(1)} µs) is the weights over HBM bandwidth (${weightsUs.toFixed(1)} µs) within 1 %`);
    // The headline sentence: steps, wall per step, SOL per step, over the wall, kernel-only.
    const headline = await page.textContent(`${LLM} .llm-phase[data-phase="decode"] .llm-headline`);
    check(/^31 steps of 17\.1 ms wall each; 0\.519 ms of speed of light per step: 3\.03 % of the wall, idle included \(kernels alone: 53\.35 %\)\.$/.test(headline),
      `llama: the decode headline reads as a verdict (${headline})`);
    const tokensPerS = decode.values['sol_by_phase.tokens_per_s'];
    check(near(tokensPerS, 31 / (decode.values['sol_by_phase.wall_time_ms'] / 1000)),
      `llama: decode tokens per second are 31 tokens over the phase's wall time (${tokensPerS?.toFixed(2)})`);
    // The SOL view has the same sheet under its "Phase × layer" tab: as many rows as the CLI's.
    await page.click('nav [data-view="sol"]');
    const tab = 'section.view[data-view="sol"] [role=tab][data-tab="sol_by_phase_layer"]';
    await page.waitForSelector(tab, { timeout: TIMEOUT_MS });
    await page.click(tab);
    const solTable = await readWholeTable(page, 'section.view[data-view="sol"] .tabpanel[data-tab="sol_by_phase_layer"] .sheet-table');
    check(solTable.rows.length === csv.sheet.sol_by_phase_layer.rows.length && solTable.rows.length > 0,
      `llama: the SOL view's Phase × layer tab has sol_by_phase_layer.csv's ${csv.sheet.sol_by_phase_layer.rows.length} rows (${solTable.rows.length})`);
    await page.context().close();
  }

  // --- the HF decode loop: no device in the trace, then an H100 chosen --------------------
  {
    const page = await open('hf', HF);
    const csvNone = cliSheets(HF, 'hf-none');
    check(await page.locator(`${LLM} .llm-no-device`).count() === 1, 'hf: the view says no GPU is known and what to do');
    check(JSON.stringify(await phasesShown(page)) === '["prefill","decode"]' && await stepsOf(page, 'decode') === 31
      && await stepsOf(page, 'prefill') === 1, 'hf: 1 prefill + 31 decode steps without a device');
    await checkCards('hf (no device)', page, csvNone, ['prefill', 'decode']);
    await page.screenshot({ path: path.join(shots, 'llm-hf-no-device.png'), fullPage: true });
    await page.selectOption(`${LLM} .llm-device select`, 'H100_SXM5_80GB');
    await page.waitForFunction((s) => document.querySelector(`${s} .llm-phase`) && !document.querySelector(`${s} .llm-no-device`),
      LLM, { timeout: TIMEOUT_MS });
    const csv = cliSheets(HF, 'hf-h100', ['--device', 'H100_SXM5_80GB']);
    await checkCards('hf (H100)', page, csv, ['prefill', 'decode']);
    const headline = await page.textContent(`${LLM} .llm-phase[data-phase="decode"] .llm-headline`);
    // Its ops have no Input Strides; the SOL takes elementwise inputs as contiguous, so only
    // the 4 residual adds of a decode step are estimated: 4 · 3 · [4, 1, 256] bf16 =
    // 24,576 B / 3.35 TB/s = 7.34 ns; linear, gelu and attention stay unmodeled (on the card).
    check(/0\.00000734 ms of speed of light per step/.test(headline),
      `hf (H100): the headline's SOL per step is the 4 residual adds (${headline})`);
    // sollens sol's sol_by_phase for decode: 2.511 ms of unmodeled kernels (837 ops) against
    // 0.372 ms measured for the estimated ones: the headline says the bound is partial.
    check(/Most of its kernel time \(2\.51 ms of 2\.88 ms, 837 ops\) has no estimate/.test(headline),
      `hf (H100): the headline says most kernel time has no estimate (${headline})`);
    check(await page.inputValue(`${LLM} .llm-device select`) === 'H100_SXM5_80GB', 'hf: the selector shows the device chosen');
    // The speed of light is the SOL view's too: there, Speed of light names the H100; back
    // here, the selector still shows it (it is read from the speed of light, not remembered).
    await page.click('nav [data-view="sol"]');
    await page.waitForSelector('section.view[data-view="sol"] .sol-gap', { timeout: TIMEOUT_MS });
    check(/Device: H100_SXM5_80GB/.test(await page.textContent('section.view[data-view="sol"]')),
      'hf: the SOL view shows the speed of light the LLM view asked for (H100_SXM5_80GB)');
    await page.click('nav [data-view="llm"]');
    check(await page.inputValue(`${LLM} .llm-device select`) === 'H100_SXM5_80GB', 'hf: back in the LLM view, the device is still the H100');
    await page.screenshot({ path: path.join(shots, 'llm-hf-h100.png'), fullPage: true });
    await page.context().close();
  }

  // --- vLLM's own phase annotation -----------------------------------------------------
  {
    const csv = cliSheets(VLLM, 'vllm');
    const page = await open('vllm', VLLM);
    const phases = await phasesShown(page);
    const want = csv.sheet.sol_by_phase.rows.map((r) => value(csv.sheet.sol_by_phase, r, 'phase')).filter((p) => p !== '(no phase)');
    check(phases.length === want.length && phases.every((p, i) => p === want[i]),
      `vllm: one card per annotated phase of sol_by_phase.csv (${phases.join(', ')})`);
    await checkCards('vllm', page, csv, phases);
    check(/named by an annotation/.test(await page.textContent(`${LLM} .llm-phase .llm-source`)), 'vllm: the card says where its phase comes from');
    // Its decode is one HIP graph replay the trace cannot map to ops: said, not hidden.
    check(/graph replay .* stayed unmapped/.test(await page.textContent(`${LLM} .llm-note`) ?? ''),
      'vllm: the unmapped graph replay (most of the wall, no estimate) is said above the card');
    await page.screenshot({ path: path.join(shots, 'llm-vllm.png'), fullPage: true });
    await page.context().close();
  }

  // --- the sample: no phases -------------------------------------------------------------
  {
    const page = await open('sample', SAMPLE);
    await page.screenshot({ path: path.join(shots, 'llm-sample-no-phases.png'), fullPage: true });
    const text = await page.textContent(LLM);
    check(await page.locator(`${LLM} .llm-phase`).count() === 0 && /No prefill or decode phase in this trace\./.test(text),
      'sample: no phase card, and the view says there is no phase');
    check(/record_function/.test(text) && /record_shapes=True/.test(text) && /aten::embedding/.test(text),
      'sample: it says what it looked for and how to get phases (record_function names, a generate loop with shapes)');
    await page.click(`${LLM} .llm-to-cycles button`);
    check(await page.locator('section.view[data-view="cycles"]').isVisible(), 'sample: "Open the Cycles view" opens Cycles');
    await page.context().close();
  }
  check(pageErrors.length === 0, `no page errors${pageErrors.length ? `: ${pageErrors.join('; ')}` : ''}`);
} catch (e) {
  check(false, `unexpected: ${e.stack ?? e}`);
} finally {
  await browser?.close();
  server.kill();
  rmSync(tmp, { recursive: true, force: true });
}
finish();
