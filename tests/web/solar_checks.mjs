// The Solar view and the recompute toggle, end to end, run by e2e_test.mjs on a page of
// their own (a fresh one: an Execution Trace is first dropped with no trace open):
//   ET alone      param-et-linear's ET (.json.gz) dropped alone: the Solar view opens,
//                 no SOL times without a device and no measured time; a device gives
//                 the three SOL times of `sollens solar ET --device` (build/native/sollens),
//                 in both definitions
//   Kineto as ET  the Kineto trace given where an ET is expected: a clear message
//   after trace   the Kineto trace opened, then its ET dropped: 217 of 217 ops linked,
//                 the measured time, the per-op table and the intermediates against
//                 `sollens solar ET --kineto TRACE --device`
//   both at once  ET and Kineto trace dropped together (ET first): told apart by
//                 content, the trace opens and the ET is linked to it
//   recompute     tests/fixtures/synthetic/activation_checkpointing.json: the Ops view's
//                 toggle splits ops_summary_by_category by is_recompute (hand-computed:
//                 GEMM 0.030 ms / 2 calls and 0.010 ms / 1, other 0.002 ms each), the
//                 overview's GPU timeline stays the whole trace's (busy 0.044 ms)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseCsv, viewChecks } from './views_checks.mjs';

const SECTION = 'section.view[data-view="solar"]';
const TIMEOUT_MS = 60_000;
const DEVICE = 'A100_SXM4_80GB';

export function solarChecks({ context, origin, check, repo, fixtures, tmp, screenshots }) {
  const cli = path.join(repo, 'build/native/sollens');
  const pair = path.join(fixtures, 'param-et-linear');
  const etPath = path.join(pair, 'linear_et.json.gz');
  const kinetoPath = path.join(pair, 'linear_kineto.json.gz');
  const checkpointing = path.join(repo, 'tests/fixtures/synthetic/activation_checkpointing.json');

  const cliSolar = (name, extra) => {
    const out = path.join(tmp, `solar-${name}`);
    mkdirSync(out, { recursive: true });
    execFileSync(cli, ['solar', etPath, '--out', out, ...extra], { stdio: ['ignore', 'ignore', 'pipe'] });
    return { doc: JSON.parse(readFileSync(path.join(out, 'solar.json'), 'utf8')),
      nodes: parseCsv(readFileSync(path.join(out, 'solar_nodes.csv'), 'utf8')) };
  };
  const near = (a, b) => Math.abs(a - b) <= 1e-9 * Math.abs(b) + 1e-12;

  return async function run() {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
    await page.goto(`${origin}/`);
    const { helpers } = viewChecks({ page, check, repo, fixtures, screenshots, tmp });

    // Files dropped on the page, from their bytes (a DataTransfer built in the page).
    const drop = (files) => page.evaluate((list) => {
      const dt = new DataTransfer();
      for (const { name, base64 } of list)
        dt.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name));
      for (const type of ['dragenter', 'dragover', 'drop'])
        document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, files.map((f) => ({ name: path.basename(f), base64: readFileSync(f).toString('base64') })));
    const solarState = (want) => page.waitForFunction(([sel, w]) => {
      const s = document.querySelector(sel);
      return s && !s.hidden && s.dataset.solar === w;
    }, [SECTION, want], { timeout: TIMEOUT_MS });
    const waitForTrace = (name) => page.waitForFunction((n) => document.body.dataset.state === 'loaded' &&
      document.getElementById('trace-name').textContent === n, name, { timeout: TIMEOUT_MS }).catch(async (e) => {
      const seen = await page.evaluate(() => `state ${document.body.dataset.state}, status "${document.getElementById('status').textContent}", error "${
        document.getElementById('error-title').textContent}", trace "${document.getElementById('trace-name').textContent}"`);
      throw new Error(`${name} did not open (${seen}): ${e.message}`);
    });
    const barValues = (cls) => page.$$eval(`${SECTION} .solar-bar.sol-bar-${cls} data`, (ds) => ds.map((d) => Number(d.value)));
    const text = (sel) => page.textContent(`${SECTION} ${sel}`);

    // --- an Execution Trace alone ---
    await drop([etPath]);
    await solarState('ready');
    check(await page.getAttribute('nav [data-view="solar"]', 'aria-current') === 'page', 'Solar: an ET dropped alone opens the Solar view');
    check(/No SOL times/.test(await text('.solar-times')) && /choose one/i.test(await text('.solar-times')),
      'Solar, ET alone: no device, no SOL times, and it says to choose one');
    check(/No Kineto trace is open/.test(await text('.solar-source')) && (await barValues('measured')).length === 0,
      'Solar, ET alone: no measured time, and it says why');
    await page.screenshot({ path: path.join(screenshots, 'solar-et-alone.png'), fullPage: true });

    await page.focus(`${SECTION} .solar-device select`);
    await page.selectOption(`${SECTION} .solar-device select`, DEVICE);
    await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 3,
      `${SECTION} .solar-bar.sol-bar-estimated`, { timeout: TIMEOUT_MS });
    await solarState('ready');
    check(await page.evaluate((sel) => document.activeElement === document.querySelector(sel), `${SECTION} .solar-device select`),
      'Solar: the device selector keeps the focus through the recompute');
    if (existsSync(cli)) {
      const { doc } = cliSolar('alone', ['--device', DEVICE]);
      const head = ['unfused', 'fused', 'fused_prefetched'].map((k) => doc.perf[k].runtime_ms);
      const shown = await barValues('estimated');
      check(shown.length === 3 && shown.every((v, i) => near(v, head[i])),
        `Solar, ET alone on ${DEVICE}: SOL times ${shown.join(', ')} ms equal sollens solar's perf (${head.join(', ')})`);
      await page.selectOption(`${SECTION} .solar-definition select`, 'design_intent');
      const intent = ['unfused', 'fused', 'fused_prefetched'].map((k) => doc.design_intent[k].runtime_ms);
      const shownIntent = await barValues('estimated');
      check(shownIntent.every((v, i) => near(v, intent[i])),
        `Solar: the design-intent SOL times ${shownIntent.join(', ')} ms equal sollens solar's design_intent`);
      await page.selectOption(`${SECTION} .solar-definition select`, 'perf');
    }

    // --- a Kineto trace where an Execution Trace is expected ---
    await page.setInputFiles(`${SECTION} .solar-file-input`, kinetoPath);
    await solarState('error');
    const message = await text('.solar-error');
    check(/is a Kineto trace, not an Execution Trace/.test(message) && /Open trace/.test(message),
      `Solar: a Kineto trace given as ET says so and what to do: ${message}`);
    await page.screenshot({ path: path.join(screenshots, 'solar-kineto-as-et.png'), fullPage: true });

    // --- the Kineto trace opened, then its Execution Trace dropped ---
    await page.setInputFiles('#file-input', kinetoPath);
    await waitForTrace(path.basename(kinetoPath));
    await solarState('empty');
    check(/Drop the Execution Trace of the run shown \(linear_kineto\.json\.gz\)/.test(await text('.solar-empty')),
      'Solar: the Kineto trace opens as a trace (by content); the Solar view then asks for its Execution Trace');
    await page.screenshot({ path: path.join(screenshots, 'solar-trace-without-et.png'), fullPage: true });
    await drop([etPath]);
    await solarState('ready');
    check(/Measured in linear_kineto\.json\.gz: 217 of 217 ops linked/.test(await text('.solar-source')),
      `Solar after the trace: linked (${await text('.solar-source')})`);
    await page.selectOption(`${SECTION} .solar-device select`, DEVICE);
    await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 3,
      `${SECTION} .solar-bar.sol-bar-estimated`, { timeout: TIMEOUT_MS });
    await solarState('ready');
    check(/Weights: .* once, read in up to \d+ passes/.test(await text('.solar-notes')) && /Faster than SOL: \d+ ops/.test(await text('.solar-notes')),
      `Solar: the notes give the weight passes and why ops beat their SOL (${await text('.solar-notes')})`);
    if (existsSync(cli)) {
      const { doc, nodes } = cliSolar('linked', ['--kineto', kinetoPath, '--device', DEVICE]);
      const measured = await barValues('measured');
      check(measured.length === 1 && near(measured[0], doc.measured.gpu_busy_ms_linked_ops),
        `Solar: measured ${measured[0]} ms equals sollens solar --kineto (${doc.measured.gpu_busy_ms_linked_ops} ms)`);
      const removed = Number(await page.getAttribute(`${SECTION} .solar-removed`, 'value'));
      check(removed === doc.analysis.total.intermediate_bytes,
        `Solar: fusion removes ${removed} B, sollens solar's intermediate_bytes (${doc.analysis.total.intermediate_bytes})`);
      await page.click(`${SECTION} [role=tab][data-tab="solar_nodes"]`);
      const table = await helpers.readTable(`${SECTION} .tabpanel[data-tab="solar_nodes"] .sheet-table`);
      const total = Number((/[\d,]+/.exec(table.count)?.[0] ?? '').replaceAll(',', ''));
      const c = helpers.compareRows('Solar per op', table, nodes, ['et_id']);
      check(c.bad === 0 && c.matched === table.rows.length && table.rows.length > 0 && total === nodes.rows.length,
        `Solar: the per-op table equals solar_nodes.csv (${c.matched} rows shown match, ${total} rows, CLI ${nodes.rows.length})`);
      await page.click(`${SECTION} [role=tab][data-tab="solar_intermediates"]`);
      const inter = await helpers.readTable(`${SECTION} .tabpanel[data-tab="solar_intermediates"] .sheet-table`);
      const interRows = Number((/[\d,]+/.exec(inter.count)?.[0] ?? '').replaceAll(',', ''));
      check(interRows === doc.analysis.total.num_intermediate_tensors,
        `Solar: one intermediates row per intermediate tensor (${interRows}; sollens solar ${doc.analysis.total.num_intermediate_tensors})`);
      const col = inter.headers.indexOf('bytes_removed');
      const first = inter.rows.map((r) => Number(r[col].value));
      check(first.every((v, i) => i === 0 || v <= first[i - 1]), 'Solar: the intermediates come largest first');
    }
    await page.screenshot({ path: path.join(screenshots, 'solar-linked.png'), fullPage: true });

    // --- both dropped at once, the Execution Trace first ---
    await page.click('nav [data-view="overview"]');
    await drop([etPath, kinetoPath]);
    await waitForTrace(path.basename(kinetoPath));
    await solarState('ready');
    check(/217 of 217 ops linked/.test(await text('.solar-source')),
      'Solar: ET and Kineto trace dropped together are told apart by content, and linked');

    // --- the recompute toggle ---
    await page.setInputFiles('#file-input', checkpointing);
    await waitForTrace(path.basename(checkpointing));
    await page.click('nav [data-view="ops"]');
    const category = '.level-category .sheet-table';
    await page.waitForSelector(`section[data-view="ops"] ${category}`, { timeout: TIMEOUT_MS });
    const headers = () => page.$$eval(`section[data-view="ops"] ${category} thead th .col-name`, (hs) => hs.map((h) => h.textContent));
    check(!(await headers()).includes('is_recompute'), 'recompute: off by default (no is_recompute column)');
    await page.click('section[data-view="ops"] .recompute-toggle input');
    await page.waitForFunction((sel) => [...document.querySelectorAll(sel)].some((h) => h.textContent === 'is_recompute'),
      `section[data-view="ops"] ${category} thead th .col-name`, { timeout: TIMEOUT_MS });
    const split = await helpers.readTable(`section[data-view="ops"] ${category}`);
    const at = (name) => split.headers.indexOf(name);
    const flag = (c) => (c.value !== undefined ? Number(c.value) : Number(c.text === 'True'));
    const rows = split.rows.map((r) => [r[at('op category')].text, flag(r[at('is_recompute')]),
      Number(r[at('Count')].value), Number(r[at('total_direct_kernel_time_ms')].value)]).sort();
    const want = [['GEMM', 0, 2, 0.03], ['GEMM', 1, 1, 0.01], ['other', 0, 1, 0.002], ['other', 1, 1, 0.002]];
    check(rows.length === 4 && rows.every((r, i) => r[0] === want[i][0] && r[1] === want[i][1] && r[2] === want[i][2] && near(r[3], want[i][3])),
      `recompute: ops_summary_by_category split by is_recompute as computed by hand (${JSON.stringify(rows)})`);
    check(await page.isChecked('section[data-view="ops"] .recompute-toggle input') &&
      await page.evaluate(() => document.activeElement?.closest('.recompute-toggle') !== null),
    'recompute: the toggle shows it is on and keeps the focus');
    await page.screenshot({ path: path.join(screenshots, 'ops-recompute.png'), fullPage: true });
    await page.click('nav [data-view="overview"]');
    const busy = await page.$eval('#gpu-timeline tr[data-type="busy_time"] data', (d) => Number(d.value));
    check(await page.locator('#gpu-timeline tbody tr').count() === 8 && near(busy, 0.044),
      `recompute: the overview keeps the whole trace's GPU timeline (8 rows, busy ${busy} ms = 10+2+10+2+20 µs)`);
    await page.click('nav [data-view="ops"]');
    await page.click('section[data-view="ops"] .recompute-toggle input');
    await page.waitForFunction((sel) => ![...document.querySelectorAll(sel)].some((h) => h.textContent === 'is_recompute'),
      `section[data-view="ops"] ${category} thead th .col-name`, { timeout: TIMEOUT_MS });
    check(!(await headers()).includes('is_recompute') && !await page.isChecked('section[data-view="ops"] .recompute-toggle input'),
      'recompute: off again, the column is gone');

    check(errors.length === 0, `Solar page: no page errors${errors.length ? `: ${errors.join(' | ')}` : ''}`);
    await page.close();
  };
}
