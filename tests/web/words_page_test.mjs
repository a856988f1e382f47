// The page in page words, in Debian's headless Chromium (playwright-core), served by
// web/serve.mjs:
//   node tests/web/words_page_test.mjs [--site build/wasm/web] [--artifacts DIR] [--screenshots DIR]
// cycles     tests/fixtures/synthetic/module_frames.json (12 forwards, epoch timestamps,
//            written by make_module_frames.py): the Cycles view has no "#" line and no
//            raw column name (no "_" in a header; the CSV names stay in data-column),
//            says what it found in a sentence, shows a pattern's statistics as a table;
//            its tables still equal `sollens cycles`'s CSVs; the first repetition's start
//            reads 0.008 ms (kernel at T0 + 8 µs, the trace starting at T0 with its first
//            frame) with the epoch instant and its date on hover; the strip's mark too
// modules    the SOL view's layer instances read LlamaModel › LlamaDecoderLayer 3 ›
//            LlamaMLP (the frame every row shares above it left out), the recorded path
//            on hover, and equal
//            `sollens sol`'s sol_by_layer_instance.csv by the recorded path
// png        a PNG opened as a trace: "this is a PNG image", no ") (" and no byte value
// Prints "words: N passed, M failed".
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseCsv } from './views_checks.mjs';
import { readableModulePaths } from '../../web/format.mjs';
import { cellText, shownUnit, timestampTitle, TIMESTAMP_UNIT } from '../../web/units.mjs';
import { repo, defaultSite, pathOptions, checks, startPageServer, CHROMIUM, launchChromium, readWholeTable, requireBuilt } from './support/harness.mjs';

const option = pathOptions();
const site = option('--site', defaultSite);
const artifacts = option('--artifacts', path.join(repo, 'build/wasm/web-artifacts'));
const screenshots = option('--screenshots', path.join(repo, 'build/wasm/web-screenshots'));
const TIMEOUT_MS = 60_000;
const CYCLES = 'section.view[data-view="cycles"]';
const SOL = 'section.view[data-view="sol"]';
const trace = path.join(repo, 'tests/fixtures/synthetic/module_frames.json');
const cli = path.join(repo, 'build/native/sollens');
const T0_US = 1_732_700_000_000_000;  // the fixture's first event (make_module_frames.py)

const { check, finish } = checks('words');
requireBuilt({ check, finish }, site, { cli });
// --- the wording functions alone (node) ---------------------------------------------------
{
  const paths = ['M_0.Model_0.Layer_0.MLP_0', 'M_0.Model_0.Layer_1.MLP_1', 'M_0.Model_0.Layer_1.Norm_2',
    'M_0.Model_0.Layer_1.Norm_3', 'Solo_4.Inner_0', '(no module) GEMM', 'odd.name'];
  const shown = readableModulePaths(paths);
  check(shown.get('M_0.Model_0.Layer_1.MLP_1') === 'M › Model › Layer 1 › MLP', `module path: a repeated layer keeps its index, its one MLP drops it (${shown.get('M_0.Model_0.Layer_1.MLP_1')})`);
  check(shown.get('M_0.Model_0.Layer_1.Norm_3') === 'M › Model › Layer 1 › Norm 3', 'module path: two norms in one layer keep their counters');
  check(shown.get('Solo_4.Inner_0') === 'Solo 4 › Inner', 'module path: a lone class with a counter other than 0 keeps it (nothing above says which)');
  check(shown.get('(no module) GEMM') === '(no module) GEMM' && shown.get('odd.name') === 'odd.name', 'module path: other names unchanged');
  const llama = readableModulePaths(['L_0.Model_0.Layer_0.MLP_0', 'L_0.Model_0.Layer_1.MLP_1', 'L_0.Model_0']);
  check(llama.get('L_0.Model_0.Layer_1.MLP_1') === 'Model › Layer 1 › MLP' && llama.get('L_0.Model_0') === 'Model',
    `module path: the outer frames every path shares are left out but the innermost (${llama.get('L_0.Model_0.Layer_1.MLP_1')})`);
  const c = { unit: TIMESTAMP_UNIT, type: 'float', origin: 1000 };
  check(cellText(c, 3500) === '2.500' && shownUnit(c) === 'ms from start', 'timestamp: 3,500 µs with the start at 1,000 µs reads 2.500 ms from start');
  check(shownUnit({ unit: TIMESTAMP_UNIT }) === 'µs, trace clock' && cellText({ unit: TIMESTAMP_UNIT, type: 'float' }, 3500) === '3,500.0',
    'timestamp: without a known start, µs as written');
  check(timestampTitle(7) === '7 µs on the trace\'s clock', 'timestamp: a clock that is not the epoch has no date');
}

mkdirSync(artifacts, { recursive: true });
mkdirSync(screenshots, { recursive: true });
const tmp = mkdtempSync(path.join(tmpdir(), 'sollens-words-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));  // the CLI's outputs and the traces made here
const cliCsv = (command, name, extra = []) => {
  const out = path.join(tmp, command);
  if (!existsSync(out)) execFileSync(cli, [command, trace, '--out', out, ...extra], { stdio: ['ignore', 'ignore', 'pipe'] });
  return parseCsv(readFileSync(path.join(out, `${name}.csv`), 'utf8').replace(/^(#.*\n)+\n?/, ''));
};
const near = (a, b) => Math.abs(Number(a) - Number(b)) <= 1e-9 * Math.abs(Number(b)) + 1e-9;
const sameCell = (cell, csv) => (cell.value !== undefined ? csv !== '' && near(cell.value, csv) : cell.text === csv);
// Every shown row equals the CSV's row at the same place, column by column (by the
// CSV's names, which the page keeps in data-column).
function equalsCsv(label, table, csv) {
  let bad = 0;
  table.headers.forEach((h, c) => {
    const i = csv.header.indexOf(h);
    if (i < 0) { bad++; console.log(`  ${label}: no CLI column ${h}`); return; }
    table.rows.forEach((row, r) => {
      if (!sameCell(row[c], csv.rows[r]?.[i] ?? '')) {
        bad++;
        console.log(`  ${label}: row ${r} ${h}: page ${row[c].value ?? row[c].text} vs CLI ${csv.rows[r]?.[i]}`);
      }
    });
  });
  return bad === 0 && table.rows.length === csv.rows.length && table.rows.length > 0;
}

const { server, origin } = await startPageServer(site);
let browser;
try {
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(`${origin}/`);
  const waitForLoad = async (name) => {
    await page.waitForFunction((n) => {
      const s = document.body.dataset.state;
      return s === 'error' || (s === 'loaded' && (n === null || document.getElementById('trace-name').textContent === n));
    }, name, { timeout: TIMEOUT_MS });
    return page.evaluate(() => (document.getElementById('error').hidden ? 'loaded' : 'error'));
  };
  const showView = async (view) => {
    await page.click(`nav [data-view="${view}"]`);
    await page.waitForFunction((v) => {
      const s = document.querySelector(`section.view[data-view="${v}"]`);
      return s && !s.hidden && !s.classList.contains('placeholder');
    }, view, { timeout: TIMEOUT_MS });
  };

  // --- the Cycles view -----------------------------------------------------------------
  await page.setInputFiles('#file-input', trace);
  check(await waitForLoad('module_frames.json') === 'loaded', 'module_frames.json opens');
  await showView('cycles');
  await page.waitForSelector(`${CYCLES} .strip .lane`, { timeout: TIMEOUT_MS });
  const text = await page.innerText(CYCLES);
  const hashLines = text.split('\n').filter((l) => /^\s*#/.test(l));
  check(hashLines.length === 0 && !/Cycle Statistics/.test(text), `cycles: no "#" line of the CLI's (${hashLines.slice(0, 2).join(' | ') || 'none'})`);
  check(await page.locator(`${CYCLES} pre`).count() === 0, 'cycles: no preformatted CLI text');
  const headers = await page.$$eval(`${CYCLES} thead th .col-name`, (hs) => hs.map((h) => h.textContent));
  const raw = headers.filter((h) => /_/.test(h));
  check(headers.length > 0 && raw.length === 0, `cycles: ${headers.length} headers in words, none a raw column name (${raw.slice(0, 3).join(', ') || 'none'})`);
  const sentence = await page.textContent(`${CYCLES} .pattern-sentences`);
  check(/^step: 12 repetitions of 18 kernels, 1\.706 ms each on average/.test(sentence),
    `cycles: what was found, in a sentence: "${sentence}"`);
  const stats = await page.$$eval(`${CYCLES} table.pattern-stats tr`, (trs) => trs.map((tr) => tr.textContent));
  check(stats.length === 4 && stats[0] === 'Repetitions12' && stats[1] === 'Kernels per repetition18',
    `cycles: the pattern's statistics as a table (${stats.join(' | ')})`);
  // The patterns table against the CLI's cycles.csv (by the CSV's column names).
  const patterns = await readWholeTable(page, `${CYCLES} .sheet-table[data-sheet="cycles"]`);
  check(equalsCsv('cycles', patterns, cliCsv('cycles', 'cycles')), 'cycles: the patterns table equals sollens cycles\'s cycles.csv');
  // start: the first repetition's first kernel, T0 + 8 µs = 0.008 ms from the start.
  const start = await page.$eval(`${CYCLES} .sheet-table[data-sheet="cycles"]`, (root) => {
    const i = [...root.querySelectorAll('thead th')].findIndex((th) => th.dataset.column === 'start_us');
    const th = root.querySelectorAll('thead th')[i];
    const td = root.querySelector('tbody tr.data').cells[i];
    return { header: th.textContent, text: td.textContent, title: td.title, value: td.querySelector('data')?.value };
  });
  check(start.header === 'start ms from start' && start.text === '0.008' && Number(start.value) === T0_US + 8,
    `cycles: a timestamp reads ms from the trace's start (${start.header}: ${start.text}; exact ${start.value})`);
  check(/^1,732,700,000,000,008 µs on the trace's clock \(2024-11-27 09:33:20\.000 UTC\)$/.test(start.title),
    `cycles: the instant on hover: "${start.title}"`);
  const mark = await page.textContent(`${CYCLES} .strip .lane rect.rep title`);
  check(/^pattern 1 \(step\) repetitions repetition 1: 0\.008 – 1\.714 ms from the trace's start .*1,732,700,000,000,008 µs on the trace's clock/.test(mark),
    `cycles: the strip's mark says ms from the start and the instant: "${mark}"`);
  await page.click(`${CYCLES} .pattern-detail [role=tab] >> nth=1`);
  const reps = await readWholeTable(page, `${CYCLES} .pattern-detail .tabpanel:not([hidden]) .sheet-table`);
  check(equalsCsv('repetitions', reps, cliCsv('cycles', 'cycle_1_repetitions')), 'cycles: the repetitions table equals cycle_1_repetitions.csv');
  await page.screenshot({ path: path.join(screenshots, 'words-cycles.png'), fullPage: true });

  // --- module paths in the SOL view -------------------------------------------------------
  await showView('sol');
  await page.waitForSelector(`${SOL} .sol-device select`, { timeout: TIMEOUT_MS });
  await page.selectOption(`${SOL} .sol-device select`, 'H100_SXM5_80GB');
  await page.waitForFunction((s) => /H100_SXM5_80GB/.test(document.querySelector(`${s} .sol-device select`)?.value ?? '') &&
    document.querySelector(`${s} [role=tab][data-tab="sol_by_layer_instance"]`), SOL, { timeout: TIMEOUT_MS });
  await page.click(`${SOL} [role=tab][data-tab="sol_by_layer_instance"]`);
  const panel = `${SOL} .tabpanel[data-tab="sol_by_layer_instance"]`;
  const cells = await page.$$eval(`${panel} tbody tr.data`, (trs) => trs.map((tr) => ({ text: tr.cells[0].textContent, title: tr.cells[0].title })));
  const mlp3 = cells.find((c) => c.title === 'LlamaForCausalLM_0.LlamaModel_0.LlamaDecoderLayer_3.LlamaMLP_3');
  check(mlp3?.text === 'LlamaModel › LlamaDecoderLayer 3 › LlamaMLP',
    `sol: a module path reads as classes with the layer's index (${mlp3?.text}), the recorded path on hover`);
  check(cells.length > 0 && cells.every((c) => !/_\d+(\.|$)/.test(c.text)), `sol: no instance counter frame (X_0) shown in ${cells.length} paths`);
  const description = await page.textContent(`${panel} p.detail`);
  check(!/model\.layers\.3\.mlp is recorded|e\.g\. model\.layers/.test(description) && /not by attribute/.test(description),
    'sol: the layer-instance tab says paths are class names, not attribute names');
  const instances = await readWholeTable(page, `${panel} .sheet-table`);
  const ref = cliCsv('sol', 'sol_by_layer_instance', ['--device', 'H100_SXM5_80GB']);
  check(equalsCsv('sol_by_layer_instance', instances, ref), 'sol: sol_by_layer_instance equals sollens sol\'s CSV (recorded paths)');
  await page.screenshot({ path: path.join(screenshots, 'words-sol-modules.png'), fullPage: true });

  // --- a PNG opened as a trace -------------------------------------------------------------
  const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
  await page.setInputFiles('#file-input', { name: 'screenshot.png', mimeType: 'image/png', buffer: png });
  check(await waitForLoad(null) === 'error', 'a PNG gives an error');
  const error = await page.evaluate(() => `${document.getElementById('error-title').textContent} | ${document.getElementById('error-hint').textContent}`);
  check(/not JSON: this is a PNG image; expected a Kineto trace/.test(error) && !/\) \(/.test(error) && !/byte 0x/.test(error), `png: "${error}"`);
  await page.screenshot({ path: path.join(screenshots, 'words-png.png') });
  check(pageErrors.length === 0, `no page errors (${pageErrors.join('; ') || 'none'})`);
} catch (e) {
  check(false, `words page test ran to the end: ${e.stack ?? e}`);
} finally {
  await browser?.close();
  server.kill();
}
finish();
