// The SOL view's end-to-end checks, run by e2e_test.mjs on its page (a trace with
// nn.Module frames already open):
//   tables     every SOL table on the page equals `sollens sol`'s CSV for the same trace
//              (build/native/sollens; skipped, and said so, when it is not built), and
//              the headline efficiency equals sol.json's sol/step_efficiency_pct (the
//              main step's speed of light over its wall time), else sol/wall_efficiency_pct
//   recompute  the efficiency factor 0.8 and another device recompute: by_layer_type
//              then equals `sollens sol --efficiency 0.8 --device …`
//   capture    a graph-replay decode mapped once its capture trace is opened in the view,
//              equal to `sollens sol --capture`
//   hostile    a layer type with HTML (an nn.Module frame of the hostile trace) is text
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseCsv } from './views_checks.mjs';

// Sheet name → the columns that identify a row.
const KEYS = {
  sol_by_layer_type: ['layer_type', 'pass'],
  sol_by_layer_instance: ['layer_instance', 'pass'],
  sol_by_function: ['function'],
  sol_by_phase: ['phase'],
  sol_by_phase_prefix: ['phase'],
  sol_by_step: ['sequence', 'pattern', 'level'],
  sol_top_operations: ['uid'],
  sol_unmodeled: ['function', 'reason'],
};
const SECTION = 'section.view[data-view="sol"]';
const TIMEOUT_MS = 30_000;

export function solChecks({ page, check, repo, tmp, screenshots, helpers }) {
  const cli = path.join(repo, 'build/native/sollens');
  const { showView, readTable, compareRows } = helpers;

  const cliSol = (gz, name, extra = []) => {
    const out = path.join(tmp, `sol-${name}`);
    mkdirSync(out, { recursive: true });
    execFileSync(cli, ['sol', gz, '--out', out, ...extra], { stdio: ['ignore', 'ignore', 'pipe'] });
    return out;
  };
  // Python's True/False as the page's bool values (1/0 in <data value>).
  const csv = (dir, sheet) => {
    const t = parseCsv(readFileSync(path.join(dir, `${sheet}.csv`), 'utf8'));
    return { ...t, rows: t.rows.map((r) => r.map((v) => (v === 'True' ? '1' : v === 'False' ? '0' : v))) };
  };

  // The table of `sheet` under its tab, against the CLI's CSV: every shown row equal,
  // and as many rows in all.
  async function compareSheet(label, dir, sheet) {
    await page.click(`${SECTION} [role=tab][data-tab="${sheet}"]`);
    const ref = csv(dir, sheet);
    const panel = `${SECTION} .tabpanel[data-tab="${sheet}"]`;
    if (ref.rows.length === 0) {
      check(await page.locator(`${panel} .empty-state`).count() === 1, `${label}: ${sheet} is empty, as the CLI's, and says so`);
      return;
    }
    const table = await readTable(`${panel} .sheet-table`);
    const total = Number((/[\d,]+/.exec(table.count)?.[0] ?? '').replaceAll(',', ''));
    const c = compareRows(`${label} ${sheet}`, table, ref, KEYS[sheet]);
    check(c.bad === 0 && c.matched === table.rows.length && table.rows.length > 0 && total === ref.rows.length,
      `${label}: ${sheet} equals sollens sol's CSV (${c.matched} rows shown match, ${total} rows, CLI ${ref.rows.length})`);
  }

  const headline = () => page.textContent(`${SECTION} .sol-efficiency-pct`);

  async function tables(label, gz) {
    await showView('sol');
    check(await page.locator(`${SECTION} .sol-gap`).count() === 1, `${label}: the SOL view shows the gap to speed of light`);
    check(await page.locator(`${SECTION} .sol-chart rect.sol-estimated`).count() > 0, `${label}: SOL chart of estimated vs measured per layer type`);
    check(/unmodeled/i.test(await page.textContent(`${SECTION} .sol-bar-unmodeled`)), `${label}: the unmodeled kernels' time is shown`);
    check(/host wait/.test(await page.textContent(`${SECTION} .sol-gap`)), `${label}: the idle time is split (host wait)`);
    await page.screenshot({ path: path.join(screenshots, `${label}-sol.png`), fullPage: true });
    if (!existsSync(cli)) {
      console.log(`  ${label}: build/native/sollens is not built: the SOL tables are not compared`);
      return;
    }
    const dir = cliSol(gz, label);
    const metrics = JSON.parse(readFileSync(path.join(dir, 'sol.json'), 'utf8')).metrics;
    const headlinePct = Number.isFinite(metrics['sol/step_efficiency_pct']) ? metrics['sol/step_efficiency_pct'] : metrics['sol/wall_efficiency_pct'];
    const want = `${headlinePct.toFixed(2)} %`;
    check(await headline() === want, `${label}: SOL headline efficiency "${await headline()}" (sollens sol: ${want})`);
    for (const sheet of Object.keys(KEYS)) await compareSheet(label, dir, sheet);
  }

  async function recompute(label, gz) {
    if (!existsSync(cli)) return;
    await showView('sol');
    const before = await headline();
    await page.focus(`${SECTION} .sol-efficiency select`);  // as a user choosing with it
    await page.selectOption(`${SECTION} .sol-efficiency select`, '0.8');
    await page.waitForFunction(([sel, old]) => document.querySelector(sel)?.textContent !== old,
      [`${SECTION} .sol-efficiency-pct`, before], { timeout: TIMEOUT_MS });
    check(await page.evaluate((sel) => document.activeElement === document.querySelector(sel), `${SECTION} .sol-efficiency select`),
      `${label}: the efficiency selector keeps the focus through the recompute`);
    await compareSheet(`${label} efficiency 0.8`, cliSol(gz, `${label}-0.8`, ['--efficiency', '0.8']), 'sol_by_layer_type');
    const devices = await page.$$eval(`${SECTION} .sol-device option`, (os) => os.map((o) => o.value));
    const other = devices.find((d) => d && /A100/.test(d)) ?? devices.find((d) => d);
    const at08 = await headline();
    await page.selectOption(`${SECTION} .sol-device select`, other);
    await page.waitForFunction(([sel, old]) => document.querySelector(sel)?.textContent !== old,
      [`${SECTION} .sol-efficiency-pct`, at08], { timeout: TIMEOUT_MS });
    await compareSheet(`${label} ${other} 0.8`, cliSol(gz, `${label}-${other}`, ['--efficiency', '0.8', '--device', other]), 'sol_by_layer_type');
    await page.screenshot({ path: path.join(screenshots, `${label}-sol-recomputed.png`), fullPage: true });
  }

  async function hostile(hostileText) {
    await showView('sol');
    const texts = await page.$$eval(`${SECTION} .sheet-table[data-sheet="sol_by_layer_type"] td`, (tds) => tds.map((td) => td.textContent));
    check(texts.some((t) => t.includes(hostileText)), 'SOL view: a layer type with HTML is shown as its text');
    check(await page.evaluate(() => document.querySelectorAll('main img, main b').length === 0 && window.__xss === undefined),
      'SOL view of the hostile trace injects nothing');
    await page.screenshot({ path: path.join(screenshots, 'hostile-sol.png'), fullPage: true });
  }

  // A graph-replay decode: its replayed kernels stay unmapped (the notes say so) until the
  // trace of its capture is opened in the view; then they count for the ops captured, and
  // the tables equal `sollens sol --capture`'s.
  async function capture(label, gz, capturePath) {
    await showView('sol');
    await page.waitForSelector(`${SECTION} .sol-gap`, { timeout: TIMEOUT_MS });
    const notes = () => page.textContent(`${SECTION} .sol-notes`);
    check(/stayed unmapped/.test(await notes()), `${label}: the SOL notes name the graph replay left unmapped`);
    check(await page.locator(`${SECTION} .sol-capture-button`).count() === 1, `${label}: the SOL view offers to open the graph-capture trace`);
    await page.setInputFiles(`${SECTION} .sol-capture-input`, capturePath);
    await page.waitForFunction((sel) => /mapped from the capture trace/.test(document.querySelector(sel)?.textContent ?? ''),
      `${SECTION} .sol-notes`, { timeout: TIMEOUT_MS });
    check(/100\.0 % of their kernel time mapped/.test(await notes()), `${label}: every replayed kernel mapped to a captured op (${await notes()})`);
    await page.screenshot({ path: path.join(screenshots, `${label}-sol-capture.png`), fullPage: true });
    if (existsSync(cli)) {
      const dir = cliSol(gz, `${label}-capture`, ['--capture', capturePath]);
      for (const sheet of ['sol_by_layer_type', 'sol_by_function']) await compareSheet(`${label} with its capture`, dir, sheet);
    }
  }

  return { tables, recompute, hostile, capture };
}
