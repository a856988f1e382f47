// The report views' end-to-end checks, run by e2e_test.mjs on its page:
//   everyView       every view renders for a trace (screenshot each); the ops and kernels
//                   tables equal the CLI's CSVs for the same trace (build/native/sollens
//                   report, when built) or else TraceLens's reference CSVs
//   tableInteractions  sort (numbers, strings), filter, drill-down by keyboard, export
//   deviceSelector  the roofline's device selector recomputes the report
//   stateAcrossRecompute  the ops drill-down choice, the perf tab and the roofline tab
//                   stay through a device change and the corrected toggle; the control
//                   used keeps the focus; the status line says the report was recomputed
//   cyclesPending   the cycles view before its data arrives (the worker posts it after
//                   the report) says it is detecting them, in a live region
//   virtualScrolling   a 100,000-row synthetic sheet keeps a bounded DOM, sorts with
//                   nulls last and stable ties, filters
//   hostileKernelName  HTML in a kernel name is shown as text in the kernels view
//   cycles          pattern table, time strip, mode and order selectors
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const MODULE_VIEWS = ['timeline', 'llm', 'ops', 'kernels', 'roofline', 'collectives', 'critical-path', 'launch-delays', 'cycles', 'sol', 'solar', 'compare', 'sql'];
const VIEW_TIMEOUT_MS = 15_000;

// RFC 4180 CSV (quoted fields may hold commas, quotes and newlines).
export function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { row.push(field); field = ''; }
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length) { row.push(field); rows.push(row); }
  const [header, ...body] = rows;
  return { header, rows: body.filter((r) => r.length > 1 || r[0] !== '') };
}

export function viewChecks({ page, check, repo, fixtures, screenshots, tmp, exportPresent }) {
  const cli = path.join(repo, 'build/native/sollens');
  const cliOut = new Map();

  // The reference sheet: the CLI's CSV for this trace if the CLI is built, else TraceLens's.
  const reference = (set, gz, sheet) => {
    let dir = path.join(fixtures, set, 'tracelens-report');
    let source = `TraceLens ${set}`;
    if (existsSync(cli)) {
      if (!cliOut.has(set)) {
        const out = path.join(tmp, `cli-${set}`);
        mkdirSync(out, { recursive: true });
        execFileSync(cli, ['report', gz, '--out', out, '--no-json', '--no-xlsx'], { stdio: ['ignore', 'ignore', 'pipe'] });
        cliOut.set(set, out);
      }
      dir = cliOut.get(set);
      source = `sollens CLI ${set}`;
    }
    const file = path.join(dir, `${sheet}.csv`);
    if (!existsSync(file)) return null;
    return { source, ...parseCsv(readFileSync(file, 'utf8')) };
  };

  // The rendered rows of a table: per cell the exact number (<data value>) or the text
  // (the sheet's column names and texts where the page words them: data-column, data-value).
  const readTable = (selector) => page.$eval(selector, (root) => ({
    headers: [...root.querySelectorAll('thead th')].map((th) => th.dataset.column ?? th.querySelector('.col-name').textContent),
    rows: [...root.querySelectorAll('tbody tr.data')].map((tr) => [...tr.cells].map((td) => {
      const d = td.querySelector('data');
      return d ? { value: d.value } : { text: td.dataset.value ?? td.textContent };
    })),
    count: root.querySelector('.row-count').textContent,
  }));

  const sameCell = (pageCell, csv) => {
    if (pageCell.value !== undefined) {
      const a = Number(pageCell.value);
      const b = Number(csv);
      return csv !== '' && Math.abs(a - b) <= 1e-6 * Math.abs(b) + 1e-9;
    }
    return pageCell.text === csv;
  };

  // Every page row must equal the reference row with the same key (TraceLens breaks
  // ties in its sorts arbitrarily, so rows are matched by key, not by position).
  const compareRows = (label, table, ref, keys) => {
    const idx = (name) => ref.header.indexOf(name);
    let bad = 0;
    let matched = 0;
    for (const row of table.rows) {
      const keyOf = (get) => keys.map(get).join('\u0001');
      const want = keyOf((k) => { const c = row[table.headers.indexOf(k)]; return c.value ?? c.text; });
      const refRow = ref.rows.find((r) => keyOf((k) => {
        const v = r[idx(k)];
        const c = row[table.headers.indexOf(k)];
        return c.value !== undefined ? String(Number(v)) : v;
      }) === want);
      if (!refRow) {
        bad++;
        console.log(`  ${label}: no reference row for ${want.replaceAll('\u0001', ' | ')}`);
        continue;
      }
      matched++;
      table.headers.forEach((h, c) => {
        const i = idx(h);
        if (i < 0) return;
        if (!sameCell(row[c], refRow[i])) {
          bad++;
          console.log(`  ${label}: ${want.slice(0, 60)} ${h}: page ${row[c].value ?? row[c].text} vs ${refRow[i]}`);
        }
      });
    }
    return { bad, matched };
  };

  const showView = async (view) => {
    await page.click(`nav [data-view="${view}"]`);
    const section = `section.view[data-view="${view}"]`;
    if (MODULE_VIEWS.includes(view)) {
      await page.waitForFunction((sel) => {
        const s = document.querySelector(sel);
        return s && !s.hidden && !s.classList.contains('placeholder') && s.querySelector('h2') &&
          s.querySelector('.sheet-table, .empty-state:not(.llm-pending), .error, .timeline-canvas');
      }, section, { timeout: VIEW_TIMEOUT_MS });
    }
    // SOL is computed when the view is first shown: wait for its figures (or why not).
    if (view === 'sol')
      await page.waitForSelector(`${section} :is(.sol-gap, .sol-error, .sol-unavailable)`, { timeout: VIEW_TIMEOUT_MS });
    return section;
  };

  async function everyView(label, set, gz) {
    // HTA's sheets follow the report: the views that read them are checked with them in.
    await page.waitForFunction(() => document.body.dataset.hta !== 'pending', null, { timeout: VIEW_TIMEOUT_MS });
    check(await page.evaluate(() => document.body.dataset.hta) === 'ready', `${label}: HTA's sheets arrived after the report (body[data-hta] = ready)`);
    for (const view of await page.$$eval('nav [data-view]', (bs) => bs.map((b) => b.dataset.view))) {
      const section = await showView(view);
      check(await page.locator(section).isVisible(), `${label}: view ${view} shows`);
      if (MODULE_VIEWS.includes(view)) {
        check(await page.locator(`${section} .error`).count() === 0, `${label}: view ${view} renders without error`);
        const tables = await page.locator(`${section} .sheet-table`).count();
        const exports = await page.locator(`${section} .sheet-table button[data-export]`).count();
        check(exports === 2 * tables, `${label}: view ${view}: every table (${tables}) has CSV and Arrow buttons`);
      } else if (view === 'ranks') {
        // Its own data (a rank set), not this trace's: it offers to choose rank traces.
        check(await page.locator(`${section} #ranks-choose-files`).count() === 1 && await page.locator(`${section} #ranks-choose-folder`).count() === 1,
          `${label}: view ranks offers to choose rank traces or a folder`);
      } else if (view !== 'overview') {
        check(/coming with/.test(await page.locator(section).innerText()), `${label}: view ${view} says what it is coming with`);
      }
      if (view === 'roofline') {
        await page.waitForFunction(() => {
          const plot = document.querySelector('.roofline-plot');
          return plot && (plot.dataset.points || plot.querySelector('.empty-state') ||
            !/^\d+ perf-model rows/.test(document.querySelector('.roofline-figure figcaption')?.textContent ?? ''));
        }, null, { timeout: VIEW_TIMEOUT_MS });
        const points = Number(await page.locator('.roofline-plot').getAttribute('data-points') ?? 0);
        const canvas = await page.locator('.roofline-plot canvas').count();
        const notice = await page.locator('.device-notice').count();
        check(points === 0 || canvas > 0, `${label}: roofline chart drawn (${points} points, ${canvas} canvas, ${notice ? 'device notice' : 'device known'})`);
        if (points && !notice) {
          const roofs = Number(await page.locator('.roofline-plot').getAttribute('data-roofs'));
          check(roofs >= 2, `${label}: roofline has the memory roof and a compute ceiling (${roofs})`);
        }
      }
      await page.screenshot({ path: path.join(screenshots, `${label}-${view}.png`), fullPage: true });
    }

    // roofline: one bubble per perf-model row with an intensity and a throughput; the
    // GEMM rows of its table equal the reference.
    await showView('roofline');
    const refDir = reference(set, gz, 'gpu_timeline') && (existsSync(cli) ? cliOut.get(set) : path.join(fixtures, set, 'tracelens-report'));
    const FIXED = /^(gpu_timeline|ops_summary_by_category|ops_summary|ops_unique_args|kernel_summary|short_kernel_histogram|short_kernels_summary|unified_perf_summary|coll_analysis)\.csv$/;
    let expectedPoints = 0;
    for (const f of readdirSync(refDir).filter((f) => f.endsWith('.csv') && !FIXED.test(f))) {
      const sheet = parseCsv(readFileSync(path.join(refDir, f), 'utf8'));
      const x = sheet.header.indexOf('FLOPS/Byte_first');
      const y = sheet.header.indexOf('TFLOPS/s_mean');
      if (x < 0 || y < 0) continue;
      expectedPoints += sheet.rows.filter((r) => Number(r[x]) > 0 && Number(r[y]) > 0 &&
        Number.isFinite(Number(r[x])) && Number.isFinite(Number(r[y]))).length;
    }
    const shownPoints = Number(await page.locator('.roofline-plot').getAttribute('data-points') ?? 0);
    check(shownPoints === expectedPoints, `${label}: roofline has one bubble per perf row with intensity and throughput (${shownPoints}, reference ${expectedPoints})`);
    const gemmRef = reference(set, gz, 'GEMM');
    if (gemmRef) {
      await page.click('section[data-view="roofline"] [role=tab][data-tab="GEMM"]');
      const gemm = await readTable('section[data-view="roofline"] .tabpanel[data-tab="GEMM"] .sheet-table');
      const c0 = compareRows(`${label} GEMM`, gemm, gemmRef, ['name', 'param: M', 'param: N', 'param: K']);
      check(c0.bad === 0 && c0.matched === gemmRef.rows.length, `${label}: roofline GEMM rows equal ${gemmRef.source} (${c0.matched} of ${gemmRef.rows.length})`);
    }

    // ops: categories, then the first category's ops, then the first op's argument sets.
    await showView('ops');
    const byCat = reference(set, gz, 'ops_summary_by_category');
    const catTable = await readTable('.level-category .sheet-table');
    const c1 = compareRows(`${label} ops_summary_by_category`, catTable, byCat, ['op category']);
    check(c1.bad === 0 && c1.matched === byCat.rows.length,
      `${label}: ops_summary_by_category on the page equals ${byCat.source} (${c1.matched} of ${byCat.rows.length} rows)`);
    const category = catTable.rows[0][0].text;
    await page.click('.level-category tbody tr.data >> nth=0');
    await page.waitForSelector('.level-name .sheet-table');
    const summary = reference(set, gz, 'ops_summary');
    const opsTable = await readTable('.level-name .sheet-table');
    const inCategory = summary.rows.filter((r) => r[summary.header.indexOf('Categories')].includes(`'${category}'`));
    const c2 = compareRows(`${label} ops_summary`, opsTable, summary, ['name']);
    check(c2.bad === 0 && c2.matched === Math.min(inCategory.length, opsTable.rows.length) && c2.matched > 0,
      `${label}: ops_summary rows of ${category} equal ${summary.source} (${c2.matched} rows shown, ${inCategory.length} in the category)`);
    check(opsTable.count.startsWith(`${inCategory.length} row`), `${label}: ${category} has ${inCategory.length} ops (${opsTable.count})`);
    const opName = opsTable.rows[0][opsTable.headers.indexOf('name')].text;
    await page.click('.level-name tbody tr.data >> nth=0');
    await page.waitForSelector('.level-args .sheet-table');
    const unique = reference(set, gz, 'ops_unique_args');
    const argsTable = await readTable('.level-args .sheet-table');
    const argsRows = unique.rows.filter((r) => r[unique.header.indexOf('name')] === opName).length;
    check(argsTable.count.startsWith(`${argsRows} row`), `${label}: ${opName} has ${argsRows} unique argument sets (${argsTable.count})`);
    check(await page.locator('.crumbs [aria-current]').textContent() === opName, `${label}: breadcrumb shows ${opName}`);
    await page.screenshot({ path: path.join(screenshots, `${label}-ops-drilldown.png`), fullPage: true });

    // kernels: kernel_summary.
    await showView('kernels');
    const ks = reference(set, gz, 'kernel_summary');
    const ksTable = await readTable('.sheet-table[data-sheet="kernel_summary"]');
    const c3 = compareRows(`${label} kernel_summary`, ksTable, ks, ['Parent op category', 'Parent cpu_op', 'Kernel name', 'Kernel stream']);
    check(c3.bad === 0 && c3.matched === Math.min(ks.rows.length, ksTable.rows.length) && c3.matched > 0,
      `${label}: kernel_summary top ${c3.matched} rows on the page equal ${ks.source}`);
    check(ksTable.count === `${ks.rows.length} row${ks.rows.length === 1 ? '' : 's'}`, `${label}: kernel_summary has ${ks.rows.length} rows (${ksTable.count})`);
  }

  async function tableInteractions(set) {
    const ks = parseCsv(readFileSync(path.join(fixtures, set, 'tracelens-report/kernel_summary.csv'), 'utf8'));
    await showView('kernels');
    const root = '.sheet-table[data-sheet="kernel_summary"]';
    const column = (name) => `${root} th:has(.col-name:text-is("${name}"))`;
    const values = async (name) => {
      const t = await readTable(root);
      const i = t.headers.indexOf(name);
      return t.rows.map((r) => r[i].value ?? r[i].text);
    };
    const sumName = 'Kernel duration (µs)_sum';
    const sums = ks.rows.map((r) => Number(r[ks.header.indexOf(sumName)]));
    await page.click(`${column(sumName)} button`);
    let v = (await values(sumName)).map(Number);
    check(await page.getAttribute(column(sumName), 'aria-sort') === 'descending' &&
      v.every((x, i) => i === 0 || v[i - 1] >= x) && Math.abs(v[0] - Math.max(...sums)) < 1e-9,
    `sort: first click on ${sumName} sorts descending (top ${v[0]})`);
    await page.click(`${column(sumName)} button`);
    v = (await values(sumName)).map(Number);
    check(await page.getAttribute(column(sumName), 'aria-sort') === 'ascending' &&
      v.every((x, i) => i === 0 || v[i - 1] <= x) && Math.abs(v[0] - Math.min(...sums)) < 1e-9,
    `sort: second click sorts ascending (top ${v[0]})`);
    check(await page.locator(`${root} th[aria-sort]`).count() === 1, 'sort: only the sorted column has aria-sort');
    await page.click(`${column('Kernel name')} button`);
    const names = await values('Kernel name');
    const collator = new Intl.Collator('en', { numeric: true });
    check(names.every((x, i) => i === 0 || collator.compare(names[i - 1], x) <= 0), 'sort: strings sort ascending by name');

    const stringCols = ['Parent op category', 'Parent cpu_op', 'Kernel name'].map((n) => ks.header.indexOf(n));
    const expected = ks.rows.filter((r) => stringCols.some((i) => r[i].toLowerCase().includes('gemm'))).length;
    await page.fill(`${root} input[type=search]`, 'GeMM');
    await page.waitForFunction((sel) => / of /.test(document.querySelector(sel).textContent), `${root} .row-count`);
    const filtered = await readTable(root);
    check(filtered.count === `${expected} of ${ks.rows.length} rows`, `filter: "GeMM" keeps ${expected} rows (${filtered.count})`);
    check(filtered.rows.every((r) => r.some((c) => (c.text ?? '').toLowerCase().includes('gemm'))), 'filter: every shown row contains the text');
    await page.screenshot({ path: path.join(screenshots, 'h100-kernels-sorted-filtered.png'), fullPage: true });
    await page.fill(`${root} input[type=search]`, '');
    await page.waitForFunction((sel) => !/ of /.test(document.querySelector(sel).textContent), `${root} .row-count`);
    check(true, 'filter: clearing it shows every row');

    // Export buttons: export.mjs (another module) is loaded on use.
    if (exportPresent) {
      const download = page.waitForEvent('download', { timeout: 10_000 }).catch(() => null);
      await page.click(`${root} button[data-export="csv"]`);
      check(Boolean(await download), 'export: the CSV button downloads the sheet');
    } else {
      await page.click(`${root} button[data-export="csv"]`);
      await page.waitForFunction((sel) => document.querySelector(sel).textContent !== '', `${root} .export-status`);
      check(/not available/.test(await page.textContent(`${root} .export-status`)),
        'export: without export.mjs the CSV button says export is not available');
    }

    // Drill-down by keyboard: second category with ArrowDown + Enter.
    await showView('ops');
    await page.click('[role=tab][data-tab="drill"]');
    const cats = await readTable('.level-category .sheet-table');
    await page.focus('.level-category tbody tr.data >> nth=0');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForFunction((c) => document.querySelector('.level-name h3')?.textContent === `Ops in category ${c}`,
      cats.rows[1][0].text, { timeout: 5000 });
    check(await page.getAttribute('.level-category tbody tr.data >> nth=1', 'aria-selected') === 'true',
      `keyboard: ArrowDown + Enter chooses the second category (${cats.rows[1][0].text})`);
    // Perf-model tabs.
    await page.click('[role=tab][data-tab="models"]');
    const tabsShown = await page.locator('.tabpanel[data-tab="models"] [role=tab]').count();
    check(tabsShown > 0 && await page.locator('.tabpanel[data-tab="models"] .sheet-table').count() === 1,
      `ops: perf models as ${tabsShown} tabs, one table shown`);
    await page.screenshot({ path: path.join(screenshots, 'h100-ops-perf-models.png'), fullPage: true });
    await page.click('[role=tab][data-tab="drill"]');
  }

  async function deviceSelector() {
    await showView('roofline');
    const before = await page.textContent('.device-name');
    await page.selectOption('.device-select select', 'MI300X');
    await page.waitForFunction(() => /MI300X/.test(document.querySelector('section[data-view="roofline"] .device-name, section[data-view="roofline"] .device-notice')?.textContent ?? ''),
      null, { timeout: VIEW_TIMEOUT_MS });
    check(await page.inputValue('.device-select select') === 'MI300X', `device selector: MI300X chosen (was: ${before.slice(0, 40)}…)`);
    await page.waitForSelector('.roofline-plot canvas', { timeout: VIEW_TIMEOUT_MS });
    await page.screenshot({ path: path.join(screenshots, 'h100-roofline-as-mi300x.png'), fullPage: true });
    await page.selectOption('.device-select select', '');
    await page.waitForFunction(() => /H100/.test(document.querySelector('section[data-view="roofline"] .device-name')?.textContent ?? ''),
      null, { timeout: VIEW_TIMEOUT_MS });
    check(true, 'device selector: back to the trace\'s device');
    // The corrected-models toggle: the recomputed report has the " (TraceLens)" columns.
    check(!await page.isChecked('.corrected-toggle input'), 'corrected toggle: off by default (TraceLens\'s figures)');
    await page.click('.corrected-toggle input');
    await page.waitForFunction(() => document.querySelector('.corrected-toggle input')?.checked &&
      document.querySelector('section[data-view="roofline"] .controls [role=status]')?.textContent === '', null, { timeout: VIEW_TIMEOUT_MS });
    check(/H100/.test(await page.textContent('.device-name')), 'corrected toggle: report recomputed with corrected models, device kept');
    await page.click('.corrected-toggle input');
    await page.waitForFunction(() => document.querySelector('.corrected-toggle input')?.checked === false &&
      document.querySelector('section[data-view="roofline"] .controls [role=status]')?.textContent === '', null, { timeout: VIEW_TIMEOUT_MS });
  }

  // Choices made in the ops and roofline views survive a recompute of the report.
  async function stateAcrossRecompute() {
    const ops = 'section[data-view="ops"]';
    const roof = 'section[data-view="roofline"]';
    await showView('ops');
    await page.click(`${ops} [role=tab][data-tab="drill"]`);
    await page.click(`${ops} .level-category tbody tr.data >> nth=1`);
    await page.waitForSelector(`${ops} .level-name tbody tr.data`);
    await page.click(`${ops} .level-name tbody tr.data >> nth=0`);
    await page.waitForSelector(`${ops} .level-args .sheet-table`);
    const crumbs = () => page.$$eval(`${ops} .crumbs li`, (lis) => lis.map((li) => li.textContent));
    const chosen = await crumbs();
    await page.click(`${ops} [role=tab][data-tab="models"]`);
    const modelTab = await page.locator(`${ops} .tabpanel[data-tab="models"] [role=tab]`).nth(1).getAttribute('data-tab');
    await page.click(`${ops} .tabpanel[data-tab="models"] [role=tab][data-tab="${modelTab}"]`);
    await showView('roofline');
    const roofTab = await page.locator(`${roof} [role=tab]`).nth(1).getAttribute('data-tab');
    await page.click(`${roof} [role=tab][data-tab="${roofTab}"]`);

    const selected = (scope, id) => page.getAttribute(`${scope} [role=tab][data-tab="${id}"]`, 'aria-selected');
    const kept = async (after, focusSelector) => {
      check(await selected(roof, roofTab) === 'true', `${after}: the roofline keeps its ${roofTab} tab`);
      check(await page.evaluate((sel) => document.activeElement === document.querySelector(sel), focusSelector),
        `${after}: the control used keeps the keyboard focus`);
      check(/recomputed/.test(await page.textContent('#status')), `${after}: the status line says so (${await page.textContent('#status')})`);
      await showView('ops');
      check(await selected(ops, 'models') === 'true' && await selected(`${ops} .tabpanel[data-tab="models"]`, modelTab) === 'true',
        `${after}: ops keeps the perf models tab and its ${modelTab} sheet`);
      await page.click(`${ops} [role=tab][data-tab="drill"]`);
      const now = await crumbs();
      check(JSON.stringify(now) === JSON.stringify(chosen) && await page.locator(`${ops} .level-args .sheet-table`).count() === 1 &&
        await page.getAttribute(`${ops} .level-category tbody tr.data >> nth=1`, 'aria-selected') === 'true',
      `${after}: the ops drill-down keeps ${chosen.join(' > ')}`);
      await page.click(`${ops} [role=tab][data-tab="models"]`);
      await showView('roofline');
    };

    await page.selectOption(`${roof} .device-select select`, 'MI300X');
    await page.waitForFunction(() => /MI300X/.test(document.querySelector('section[data-view="roofline"] .device-name, section[data-view="roofline"] .device-notice')?.textContent ?? ''),
      null, { timeout: VIEW_TIMEOUT_MS });
    await kept('device MI300X', `${roof} .device-select select`);
    await page.click(`${roof} .corrected-toggle input`);
    await page.waitForFunction(() => document.querySelector('section[data-view="roofline"] .corrected-toggle input')?.checked &&
      document.querySelector('section[data-view="roofline"] .controls [role=status]')?.textContent === '', null, { timeout: VIEW_TIMEOUT_MS });
    await kept('corrected models', `${roof} .corrected-toggle input`);
    // Back to the trace's device and TraceLens's figures.
    await page.click(`${roof} .corrected-toggle input`);
    await page.waitForFunction(() => document.querySelector('section[data-view="roofline"] .corrected-toggle input')?.checked === false &&
      document.querySelector('section[data-view="roofline"] .controls [role=status]')?.textContent === '', null, { timeout: VIEW_TIMEOUT_MS });
    await page.selectOption(`${roof} .device-select select`, '');
    await page.waitForFunction(() => /H100/.test(document.querySelector('section[data-view="roofline"] .device-name')?.textContent ?? ''),
      null, { timeout: VIEW_TIMEOUT_MS });
    await page.click(`${roof} [role=tab] >> nth=0`);
    await showView('ops');
    await page.click(`${ops} [role=tab][data-tab="drill"]`);
  }

  // The cycles view drawn before the cycles arrive, then with none.
  async function cyclesPending() {
    const result = await page.evaluate(async () => {
      const { render } = await import('/views/cycles.mjs');
      const section = document.createElement('section');
      section.dataset.view = 'cycles-test';
      document.querySelector('main').prepend(section);
      render(section, { cycles: null, cyclesPending: true, info: {}, state: {} });
      const pending = section.querySelector('.cycles-pending');
      const out = { text: pending?.textContent ?? '', role: pending?.getAttribute('role'), tables: section.querySelectorAll('.sheet-table').length };
      render(section, { cycles: null, cyclesPending: false, cyclesError: 'Cycle detection failed: test.', info: {}, state: {} });
      out.error = section.querySelector('.cycles-error')?.textContent ?? '';
      section.remove();
      return out;
    });
    check(/^Detecting cycles/.test(result.text) && result.role === 'status' && result.tables === 0,
      `cycles view while the cycles are computed: "${result.text}" in a live region`);
    check(result.error === 'Cycle detection failed: test.', 'cycles view: a failed detection says so in the view');
    check(await page.evaluate(() => document.body.dataset.cycles) === 'ready', 'the cycles arrived after the report (body[data-cycles] = ready)');
  }

  // The views that read HTA's sheets, drawn before those arrive, then after they failed.
  async function htaPending() {
    const result = await page.evaluate(async () => {
      const out = {};
      for (const view of ['critical-path', 'launch-delays']) {
        const { render } = await import(`/views/${view}.mjs`);
        const section = document.createElement('section');
        section.dataset.view = `${view}-test`;
        document.querySelector('main').prepend(section);
        const report = { sheets: [{ name: 'verdict', kind: 'verdict', rows: 0, columns: [] }] };
        render(section, { report, htaPending: true, info: {}, state: {}, reportOptions: {} });
        const pending = section.querySelector('.hta-pending');
        out[view] = { text: pending?.textContent ?? '', role: pending?.getAttribute('role'), tables: section.querySelectorAll('.sheet-table').length };
        render(section, { report, htaPending: false, htaError: 'The Holistic Trace Analysis sheets could not be computed: test.', info: {}, state: {}, reportOptions: {} });
        out[view].error = section.querySelector('.empty-state')?.textContent ?? '';
        out[view].stillPending = section.querySelectorAll('.hta-pending').length;
        section.remove();
      }
      return out;
    });
    for (const [view, r] of Object.entries(result)) {
      check(/^Computing the Holistic Trace Analysis \(HTA\) sheets/.test(r.text) && r.role === 'status' && r.tables === 0,
        `${view} view while HTA's sheets are computed: "${r.text}" in a live region`);
      check(r.error === 'The Holistic Trace Analysis sheets could not be computed: test.' && r.stillPending === 0,
        `${view} view: HTA's sheets that failed say so in the view`);
    }
  }

  // Hover shows a bubble's details; a click shows its row in the table below.
  async function rooflineHover() {
    await showView('roofline');
    await page.waitForSelector('.roofline-plot canvas');
    const hit = await page.evaluate(() => {
      const over = document.querySelector('.roofline-plot .u-over');
      const tip = document.querySelector('.roofline-tip');
      const r = over.getBoundingClientRect();
      for (let y = r.top + 2; y < r.bottom; y += 4) {
        for (let x = r.left + 2; x < r.right; x += 4) {
          over.dispatchEvent(new MouseEvent('mousemove', { clientX: x, clientY: y, bubbles: true }));
          if (!tip.hidden) {
            const dts = [...tip.querySelectorAll('dt')];
            const intensity = dts.find((d) => d.textContent === 'FLOPS/Byte')?.nextElementSibling.textContent;
            return { x, y, title: tip.querySelector('.tip-title').textContent, text: tip.textContent, intensity };
          }
        }
      }
      return null;
    });
    check(Boolean(hit) && /FLOPS\/Byte/.test(hit.text), `roofline: hovering a bubble shows its details (${hit?.title})`);
    if (!hit) return;
    await page.screenshot({ path: path.join(screenshots, 'h100-roofline-hover.png'), fullPage: true });
    await page.evaluate(({ x, y }) => document.querySelector('.roofline-plot .u-over')
      .dispatchEvent(new MouseEvent('click', { clientX: x, clientY: y, bubbles: true })), hit);
    const [, name, sheet] = /^(.*) \((.*)\)$/.exec(hit.title);
    await page.waitForSelector(`section[data-view="roofline"] .tabpanel[data-tab="${sheet}"]:not([hidden]) tr.data.highlight`, { timeout: 5000 });
    const cells = await page.$$eval(`section[data-view="roofline"] .tabpanel[data-tab="${sheet}"] tr.data.highlight td`,
      (tds) => tds.map((td) => td.textContent));
    check(cells[0] === name && cells.includes(hit.intensity),
      `roofline: clicking the bubble highlights its row in the ${sheet} table (${cells[0]}, FLOPS/Byte ${hit.intensity})`);
  }

  // The roofline view on a report with the roofline columns (added when the GPU is
  // known, tracelens-semantics §4.7 "with arch") and unified_perf_summary.
  async function rooflineColumns() {
    const result = await page.evaluate(async () => {
      const { render } = await import('/views/roofline.mjs');
      const n = 3;
      const num = (name, values) => ({ name, type: 'float', validity: new Uint8Array(n).fill(1), values: Float64Array.from(values) });
      const str = (name, values) => {
        const dictionary = [...new Set(values)];
        return { name, type: 'string', validity: new Uint8Array(n).fill(1), dictionary, codes: Int32Array.from(values, (v) => dictionary.indexOf(v)) };
      };
      const gemm = { name: 'GEMM', kind: 'perf_model', rows: n, columns: [
        str('name', ['aten::mm', 'aten::mm', 'aten::addmm']), str('param: M', ['1', '2', '3']),
        num('FLOPS/Byte_first', [10, 100, 1000]), num('TFLOPS/s_mean', [5, 50, 500]), str('Compute Spec', ['matrix_bf16', 'matrix_bf16', 'matrix_bf16']),
        num('Roofline Time (µs)_first', [1, 2, 3]), str('Roofline Bound_first', ['MEMORY_BOUND', 'MEMORY_BOUND', 'COMPUTE_BOUND']),
        num('Pct Roofline_mean', [16.6, 16.6, 50]), num('Kernel Time (µs)_sum', [10, 20, 30]), num('name_count', [1, 1, 1])] };
      const unified = { name: 'unified_perf_summary', kind: 'unified_perf', rows: n, columns: [str('name', ['aten::mm', 'aten::mm', 'aten::addmm']),
        num('FLOPS/Byte', [10, 100, 1000]), str('Roofline Bound', ['MEMORY_BOUND', 'MEMORY_BOUND', 'COMPUTE_BOUND']),
        num('Pct Roofline_mean', [16.6, 16.6, 50]), str('perf_params', ['{}', '{}', '{}'])] };
      const section = document.createElement('section');
      section.dataset.view = 'roofline-test';
      document.querySelector('main').prepend(section);
      // The rows' matrix_bf16 gets the core's bf16 ceiling: only that roof and the memory roof.
      await render(section, { report: { sheets: [gemm, unified], device: { status: 'identified', id: 'TEST', name: 'Test GPU',
        dense_tflops_per_device: { bf16: 1000, fp32_vector: 60 }, mem_bw_TBps_per_device: 3 },
      rooflineCeilings: { matrix_bf16: { peak: 'bf16', tflops: 1000 }, vector_fp32: { peak: 'fp32_vector', tflops: 60 } } }, devices: ['TEST'] });
      const headers = [...section.querySelectorAll('.sheet-table th')].map((th) => th.textContent);
      const bound = [...section.querySelectorAll('.sheet-table tbody tr.data')].map((tr) => tr.textContent);
      section.querySelector('[role=tab][data-tab="unified_perf_summary"]').click();
      const unifiedHeaders = [...section.querySelectorAll('.tabpanel[data-tab="unified_perf_summary"] th')].map((th) => th.textContent);
      const plot = section.querySelector('.roofline-plot');
      const out = { headers, bound, unifiedHeaders, points: plot.dataset.points, roofs: plot.dataset.roofs,
        caption: section.querySelector('figcaption').textContent };
      section.remove();
      return out;
    });
    check(['Roofline Time (µs)_first', 'Roofline Bound_first', 'Pct Roofline_mean'].every((h) => result.headers.some((x) => x.startsWith(h))) &&
      result.bound.some((t) => t.includes('COMPUTE_BOUND')),
    `roofline columns shown when the report has them (${result.headers.slice(0, 9).join(' | ')})`);
    check(result.unifiedHeaders.some((h) => h.startsWith('Roofline Bound')) && result.unifiedHeaders.some((h) => h.startsWith('perf_params')),
      'unified_perf_summary shown with its roofline columns');
    check(result.points === '3' && result.roofs === '2', `roofline: 3 bubbles under the bf16 roof and the memory roof (${result.points}, ${result.roofs})`);
  }

  // The collectives view on a coll_analysis sheet (TraceLens's for the DDP trace, typed
  // as the core types it, its durations in µs as the core marks them), and with none.
  async function collectivesView() {
    const ref = parseCsv(readFileSync(path.join(fixtures, 'hta-a100-ddp-nccl/tracelens-report/coll_analysis.csv'), 'utf8'));
    const result = await page.evaluate(async ({ header, rows }) => {
      const { render } = await import('/views/collectives.mjs');
      const durations = new Set(['dur_sum', 'dur_mean', 'dur_std', 'dur_min', 'dur_max']);
      const columns = header.map((name, c) => {
        const values = rows.map((r) => r[c]);
        const numeric = values.every((v) => v === '' || Number.isFinite(Number(v)));
        const validity = Uint8Array.from(values, (v) => (v === '' ? 0 : 1));
        if (numeric) {
          return { name, type: 'float', unit: durations.has(name) ? 'µs' : '', validity,
            values: Float64Array.from(values, (v) => (v === '' ? 0 : Number(v))) };
        }
        const dictionary = [...new Set(values)];
        return { name, type: 'string', validity, dictionary, codes: Int32Array.from(values, (v) => dictionary.indexOf(v)) };
      });
      const section = document.createElement('section');
      section.dataset.view = 'collectives-test';
      section.id = 'collectives-test';
      document.querySelector('main').prepend(section);
      render(section, { report: { sheets: [{ name: 'coll_analysis', kind: 'collectives', rows: rows.length, columns }] } });
      const shown = [...section.querySelectorAll('tbody tr.data')].map((tr) =>
        [...tr.cells].map((td) => td.querySelector('data')?.value ?? td.textContent));
      const units = [...section.querySelectorAll('th')].find((th) => th.textContent.startsWith('dur_sum'))?.textContent;
      const empty = document.createElement('section');
      empty.dataset.view = 'collectives-test-empty';
      render(empty, { report: { sheets: [] } });
      section.remove();
      return { shown, units, none: empty.querySelector('.no-collectives')?.textContent ?? '' };
    }, ref);
    const same = result.shown.length === ref.rows.length && result.shown.every((r, i) =>
      r.every((v, c) => v === ref.rows[i][c] || Math.abs(Number(v) - Number(ref.rows[i][c])) <= 1e-9 * Math.abs(Number(ref.rows[i][c]))));
    check(same, `collectives: coll_analysis rows shown as given (${result.shown.length} of ${ref.rows.length})`);
    check(/µs/.test(result.units ?? ''), `collectives: dur_sum header shows its unit (${result.units})`);
    check(/^No collectives in this trace/.test(result.none), 'collectives: a report without coll_analysis says there are none');
  }

  // A GPU-only trace (no CPU ops): the ops view says why it is empty, kernels still show.
  async function gpuOnly() {
    await showView('ops');
    check(/GPU-only/.test(await page.textContent('section[data-view="ops"] .empty-state')), 'GPU-only trace: the ops view says there are no CPU ops');
    await showView('kernels');
    check(await page.locator('.sheet-table[data-sheet="kernel_summary"] tr.data').count() > 0, 'GPU-only trace: the kernels view lists kernels');
    for (const view of ['roofline', 'collectives', 'cycles']) {
      await showView(view);
      check(await page.locator(`section[data-view="${view}"] .error`).count() === 0, `GPU-only trace: view ${view} renders`);
    }
    await page.screenshot({ path: path.join(screenshots, 'gpu-only-cycles.png'), fullPage: true });
  }

  async function virtualScrolling() {
    const N = 100_000;
    const made = await page.evaluate(async (n) => {
      const { createTable } = await import('/table.mjs');
      const dictionary = Array.from({ length: 1000 }, (_, i) => `name-${i}`);
      const ones = new Uint8Array(n).fill(1);
      const codes = new Int32Array(n);
      const value = new Float64Array(n);
      const valid = new Uint8Array(n);
      const group = new Float64Array(n);
      const id = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        codes[i] = i % 1000;
        value[i] = ((i * 7919) % 100003) / 7;
        valid[i] = i % 97 === 0 ? 0 : 1;
        if (!valid[i]) value[i] = 0;
        group[i] = i % 10;
        id[i] = i;
      }
      const sheet = { name: 'synthetic', rows: n, columns: [
        { name: 'name', type: 'string', validity: ones, codes, dictionary },
        { name: 'value_us', type: 'float', validity: valid, values: value },
        { name: 'group', type: 'int', validity: ones, values: group },
        { name: 'id', type: 'int', validity: ones, values: id }] };
      const host = document.createElement('div');
      host.id = 'synthetic-host';
      document.querySelector('main').prepend(host);
      const t0 = performance.now();
      host.append(createTable(sheet, { caption: 'synthetic 100,000 rows' }).element);
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      return { ms: performance.now() - t0 };
    }, N);
    const host = '#synthetic-host';
    const domRows = () => page.locator(`${host} tr`).count();
    const rowIndexes = () => page.$$eval(`${host} tr.data`, (rs) => rs.map((r) => Number(r.getAttribute('aria-rowindex'))));
    const scrollTo = (where) => page.evaluate(async ([sel, w]) => {
      const s = document.querySelector(`${sel} .table-scroll`);
      s.scrollTop = w === 'bottom' ? s.scrollHeight : s.scrollHeight * w;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    }, [host, where]);
    check(await page.getAttribute(`${host} table`, 'aria-rowcount') === String(N + 1), `100k: aria-rowcount ${N + 1}`);
    check(await domRows() <= 80, `100k: ${await domRows()} rows in the DOM after rendering in ${made.ms.toFixed(0)} ms`);
    await scrollTo(0.5);
    let idx = await rowIndexes();
    check(await domRows() <= 80 && idx.length > 10 && Math.abs(idx[0] - N / 2) < 200 &&
      idx.every((x, i) => i === 0 || x === idx[i - 1] + 1),
    `100k: scrolled to the middle, rows ${idx[0]}..${idx[idx.length - 1]} rendered (${await domRows()} in the DOM)`);
    await page.mouse.move(400, 400);
    await scrollTo('bottom');
    idx = await rowIndexes();
    check(idx[idx.length - 1] === N + 1 && await domRows() <= 80, `100k: the last row (aria-rowindex ${idx[idx.length - 1]}) is reachable`);

    const sortBy = async (name) => {
      const t0 = Date.now();
      await page.click(`${host} th:has(.col-name:text-is("${name}")) button`);
      return Date.now() - t0;
    };
    const cells = (col) => page.$$eval(`${host} tr.data`, (rs, c) => rs.map((r) => r.cells[c].querySelector('data')?.value ?? null), col);
    const ms = await sortBy('value_us');
    let v = await cells(1);
    check(v[0] !== null && v.every((x, i) => i === 0 || Number(v[i - 1]) >= Number(x)), `100k: sorted by value_us descending in ${ms} ms`);
    check(ms < 3000, `100k: sorting 100,000 rows takes ${ms} ms (< 3 s)`);
    await scrollTo('bottom');
    v = await cells(1);
    check(v.every((x) => x === null), '100k: empty cells sort last (descending)');
    await sortBy('value_us');
    await scrollTo('bottom');
    v = await cells(1);
    check(v.every((x) => x === null), '100k: empty cells sort last (ascending)');
    await scrollTo(0);
    v = await cells(1);
    check(v[0] !== null && v.every((x, i) => i === 0 || Number(v[i - 1]) <= Number(x)), '100k: ascending from the top');
    await sortBy('group');
    const g = await cells(2);
    const ids = (await cells(3)).map(Number);
    check(g.every((x) => x === '9') && ids.every((x, i) => i === 0 || x > ids[i - 1]),
      '100k: sort is stable (equal groups keep the sheet order)');
    await page.fill(`${host} input[type=search]`, 'NAME-42');
    await page.waitForFunction((sel) => / of /.test(document.querySelector(sel).textContent), `${host} .row-count`);
    const count = await page.textContent(`${host} .row-count`);
    check(count === '1,100 of 100,000 rows', `100k: filter "NAME-42" (name-42, name-420…429) keeps 1,100 rows (${count})`);
    await page.locator(host).screenshot({ path: path.join(screenshots, 'synthetic-100k.png') });
    await page.evaluate((sel) => document.querySelector(sel).remove(), host);
  }

  async function hostileKernelName(hostile) {
    await showView('kernels');
    const texts = await page.$$eval('.sheet-table[data-sheet="kernel_summary"] td', (tds) => tds.map((td) => td.textContent));
    check(texts.includes(hostile), 'kernels view: a kernel name with HTML is shown as its text');
    check(await page.evaluate(() => document.querySelectorAll('main img, main b').length) === 0 &&
      await page.evaluate(() => window.__xss === undefined), 'kernels view: no element or script from the kernel name');
    await page.screenshot({ path: path.join(screenshots, 'hostile-kernels.png'), fullPage: true });
    for (const view of ['ops', 'roofline', 'cycles']) await showView(view);
    check(await page.evaluate(() => document.querySelectorAll('main img, main b').length === 0 && window.__xss === undefined),
      'ops, roofline, cycles views of the hostile trace inject nothing');
  }

  async function cycles(gz) {
    await showView('cycles');
    await page.waitForSelector('.strip .lane', { timeout: VIEW_TIMEOUT_MS });
    const patterns = await readTable('.sheet-table[data-sheet="cycles"]');
    const reps = Number(patterns.rows[0][patterns.headers.indexOf('repetitions')].value);
    const marks = await page.locator('.strip .lane >> nth=0').locator('rect.rep').count();
    check(reps > 0 && marks === reps, `cycles: the time strip marks each repetition of pattern 1 (${marks} of ${reps})`);
    check(await page.locator('.pattern-detail .sheet-table[data-sheet="cycle_1"]').count() === 1,
      'cycles: the per-position table of the chosen pattern (cycle_1) is shown');
    // The strip spans the whole trace (the overview's time span), its axis starts at
    // 0 ms = the trace's first event, and the marks sit where they are in the trace:
    // this decode trace's steps run in its last ~2% (464 to 474 ms), so its first mark
    // is far right, not at the strip's start (where a strip from the first repetition
    // would put it).
    const strip = await page.evaluate(() => {
      const svg = document.querySelector('.strip');
      const spanMs = Number([...document.querySelectorAll('#facts dt')].find((dt) => dt.textContent === 'time span')
        .nextElementSibling.querySelector('data').value);
      const lane = svg.querySelector('.lane');
      const marks = [...lane.querySelectorAll('rect.rep')].map((r) => Number(r.getAttribute('x')));
      const bg = lane.querySelector('.lane-bg');
      const ticks = [...svg.querySelectorAll('.axis text')].map((t) => t.textContent);
      return { t0: Number(svg.dataset.t0), t1: Number(svg.dataset.t1), spanMs, first: Math.min(...marks),
        width: Number(bg.getAttribute('width')), ticks };
    });
    const stripMs = (strip.t1 - strip.t0) / 1000;
    check(Math.abs(stripMs - strip.spanMs) <= 1e-6 * strip.spanMs && strip.ticks[0] === '0 ms',
      `cycles: the time strip spans the trace (${stripMs} ms, overview ${strip.spanMs} ms), axis from ${strip.ticks[0]} to ${strip.ticks.at(-1)}`);
    check(strip.first > 0.9 * strip.width, `cycles: the first repetition is drawn where it is in the trace (x ${strip.first.toFixed(0)} of ${strip.width})`);
    await page.screenshot({ path: path.join(screenshots, 'sglang-cycles-all.png'), fullPage: true });
    // The page's first cycles are the CLI's (sollens cycles TRACE: mode all, per stream).
    if (existsSync(cli) && gz) {
      const out = path.join(tmp, 'cli-cycles');
      mkdirSync(out, { recursive: true });
      execFileSync(cli, ['cycles', gz, '--out', out], { stdio: ['ignore', 'ignore', 'pipe'] });
      const ref = { source: 'sollens CLI cycles', ...parseCsv(readFileSync(path.join(out, 'cycles.csv'), 'utf8')) };
      const c = compareRows('cycles', patterns, ref, ['pattern', 'level', 'sequence']);
      check(c.bad === 0 && c.matched === ref.rows.length, `cycles: the patterns table equals ${ref.source} cycles.csv (${c.matched} of ${ref.rows.length} rows)`);
      const positions = parseCsv(readFileSync(path.join(out, 'cycle_1.csv'), 'utf8').replace(/^(#.*\n)+\n?/, ''));
      const shown = await readTable('.pattern-detail .sheet-table[data-sheet="cycle_1"]');
      const c1 = compareRows('cycle_1', shown, { source: 'cli', ...positions }, ['index']);
      check(c1.bad === 0 && c1.matched === Math.min(positions.rows.length, shown.rows.length) && c1.matched > 0,
        `cycles: cycle_1 positions equal the CLI's cycle_1.csv (${c1.matched} rows shown)`);
    }

    await page.selectOption('section[data-view="cycles"] .controls select >> nth=0', 'llm');
    await page.waitForSelector('.sheet-table[data-sheet="cycles_llm"]', { timeout: VIEW_TIMEOUT_MS });
    const llm = await readTable('.sheet-table[data-sheet="cycles_llm"]');
    const lanes = await page.locator('.strip .lane').count();
    check(llm.rows.length > 0 && lanes === llm.rows.length, `cycles llm: ${llm.rows.length} phases, ${lanes} lanes`);
    await page.screenshot({ path: path.join(screenshots, 'sglang-cycles-llm.png'), fullPage: true });

    await page.selectOption('section[data-view="cycles"] .controls select >> nth=1', 'device');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('section[data-view="cycles"] .controls select')][1]?.value === 'device' &&
      document.querySelector('section[data-view="cycles"] .controls [role=status]')?.textContent === '',
    null, { timeout: VIEW_TIMEOUT_MS });
    check(await page.locator('.sheet-table[data-sheet="cycles_llm"]').count() === 1,
      'cycles: order "per device" recomputed, mode llm kept');
    await page.screenshot({ path: path.join(screenshots, 'sglang-cycles-llm-device.png'), fullPage: true });
  }

  return { everyView, tableInteractions, deviceSelector, stateAcrossRecompute, cyclesPending, htaPending, rooflineHover, rooflineColumns, collectivesView, gpuOnly, virtualScrolling, hostileKernelName, cycles,
    helpers: { showView, readTable, compareRows } };
}
