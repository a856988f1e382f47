// The SQL view (web/views/sql.mjs: DuckDB-Wasm over the report's sheets) in Debian's
// headless Chromium (playwright-core), served by web/serve.mjs, on the owlv2 fixture:
//   node tests/web/sql_page_test.mjs [--site build/wasm/web] [--artifacts DIR] [--screenshots DIR]
// lazy      nothing of DuckDB (nor the view's modules) is requested before the SQL view is
//           opened; then its module, worker and wasm come from the page's origin, nothing
//           from anywhere else, and the page's CSP is never violated
// examples  every saved example, chosen from the list and run: its rows equal the same
//           computation done here from the CLI's CSVs (`sollens report TRACE --out DIR`),
//           row by row, number by number (relative tolerance 1e-9)
// csv       Download CSV saves the result with the same rows
// tables    the tables are the report's sheets and the speed of light's (computed when the
//           view asks), each with the columns of the CLI's CSV of that sheet, in order
// errors    a syntax error shows DuckDB's message; the next query runs
// text      kernel names with < and > and an HTML string are cells' text, never elements;
//           the row count and the time are shown
// Prints "sql: N passed, M failed".
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repo, defaultSite, pathOptions, checks, gzOf, startPageServer, launchChromium, requireBuilt, readWholeTable } from './support/harness.mjs';
import { parseCsv } from './views_checks.mjs';

const option = pathOptions();
const site = option('--site', defaultSite);
const artifacts = option('--artifacts', path.join(repo, 'build/wasm/web-artifacts'));
const screenshots = option('--screenshots', path.join(repo, 'build/wasm/web-screenshots'));
const TIMEOUT_MS = 90_000;
const cli = path.join(repo, 'build/native/sollens');
const trace = gzOf('tracelens-h100-owlv2-large');

const { check, finish } = checks('sql');
requireBuilt({ check, finish }, site, { cli });
mkdirSync(artifacts, { recursive: true });
mkdirSync(screenshots, { recursive: true });

// --- the reference: the CLI's CSVs ----------------------------------------------------------
const tmp = mkdtempSync(path.join(tmpdir(), 'sollens-sql-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));  // the CLI's outputs and the traces made here
const cliOut = path.join(tmp, 'report');
execFileSync(cli, ['report', trace, '--out', cliOut, '--no-json', '--no-xlsx'], { stdio: ['ignore', 'ignore', 'pipe'] });
const csvNames = readdirSync(cliOut).filter((f) => f.endsWith('.csv')).map((f) => f.slice(0, -4));
const csv = (name) => {
  const { header, rows } = parseCsv(readFileSync(path.join(cliOut, `${name}.csv`), 'utf8'));
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
};
const num = (text) => (text === '' ? null : Number(text));
const sum = (rows, column) => rows.reduce((s, r) => s + num(r[column]), 0);
// DuckDB orders text by its UTF-8 bytes.
const byBytes = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b));
// export.mjs's names for a repeated column (the Arrow table DuckDB reads).
const uniqueNames = (names) => {
  const seen = new Map();
  return names.map((n) => {
    const k = seen.get(n) ?? 0;
    seen.set(n, k + 1);
    return k ? `${n}.${k}` : n;
  });
};

// Each saved example (web/views/sql.mjs's EXAMPLES, by id) computed from the CSVs: the
// result's header and rows (numbers as numbers, texts as texts, null for NULL).
const EXPECTED = {
  'top-kernels': () => {
    const groups = new Map();
    for (const r of csv('kernel_summary')) {
      const g = groups.get(r['Kernel name']) ?? { total: 0, launches: 0, share: 0 };
      g.total += num(r['Kernel duration (µs)_sum']);
      g.launches += num(r['Kernel duration (µs)_count']);
      g.share += num(r['Percent of kernels time (%)']);
      groups.set(r['Kernel name'], g);
    }
    const rows = [...groups].sort(([a, x], [b, y]) => y.total - x.total || byBytes(a, b)).slice(0, 10)
      .map(([name, g]) => [name, g.total, g.launches, g.share]);
    return { header: ['Kernel name', 'total (µs)', 'launches', 'share of kernel time (%)'], rows };
  },
  'op-categories': () => {
    const rows = csv('ops_summary_by_category').map((r) => [r['op category'], num(r.Count), num(r.total_direct_kernel_time_ms),
      num(r.total_direct_kernel_time_ms) / num(r.Count) * 1000, num(r['Percentage (%)'])]);
    rows.sort((a, b) => b[2] - a[2] || byBytes(a[0], b[0]));
    return { header: ['op category', 'op calls', 'kernel time (ms)', 'per call (µs)', 'Percentage (%)'], rows };
  },
  'gemm-roofline': () => {
    const rows = csv('GEMM').filter((r) => num(r['Roofline Time (µs)_first']) > 0).map((r) => {
      const [mean, roof, calls] = [num(r['Kernel Time (µs)_mean']), num(r['Roofline Time (µs)_first']), num(r.name_count)];
      // The shapes are text in the sheet (TraceLens's param: columns), ordered as text.
      return [r.name, r['param: M'], r['param: N'], r['param: K'], calls, mean, roof, (mean - roof) * calls,
        num(r['Pct Roofline_mean']), r['Roofline Bound_first']];
    });
    rows.sort((a, b) => b[7] - a[7] || byBytes(a[0], b[0]) || byBytes(a[1], b[1]) || byBytes(a[2], b[2]) || byBytes(a[3], b[3]));
    return { header: ['name', 'M', 'N', 'K', 'calls', 'measured (µs)', 'roofline (µs)', 'time lost (µs)', '% of roofline', 'bound'],
      rows: rows.slice(0, 10) };
  },
  'short-kernels': () => {
    const short = csv('short_kernels_summary');
    const kernels = csv('kernel_summary');
    const [count, all] = [sum(short, 'Short Kernel count'), sum(kernels, 'Kernel duration (µs)_count')];
    const [time, allTime] = [sum(short, 'Short Kernel duration (µs) sum'), sum(kernels, 'Kernel duration (µs)_sum')];
    return { header: ['short kernels', 'all kernels', 'share of launches (%)', "short kernels' time (µs)", 'share of kernel time (%)'],
      rows: [[count, all, 100 * count / all, time, 100 * time / allTime]] };
  },
};

const near = (a, b) => a === b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
// A page cell ({value} for a number, {text} otherwise; an empty cell is NULL) against a value.
function sameCell(cell, want) {
  if (want === null) return cell.value === undefined && cell.text === '';
  if (typeof want === 'number') return cell.value !== undefined && near(Number(cell.value), want);
  return cell.text === want;
}
// The first difference between a result and the expected rows, or '' when equal.
function difference(got, want) {
  if (JSON.stringify(got.headers) !== JSON.stringify(want.header)) return `header ${JSON.stringify(got.headers)}`;
  if (got.rows.length !== want.rows.length) return `${got.rows.length} rows, ${want.rows.length} expected`;
  for (const [r, row] of want.rows.entries())
    for (const [c, value] of row.entries())
      if (!sameCell(got.rows[r][c], value))
        return `row ${r + 1} "${want.header[c]}": page ${JSON.stringify(got.rows[r][c])}, CSVs ${value}`;
  return '';
}
// The same for the CSV the page downloads (its text as export.mjs writes numbers).
function csvDifference(text, want) {
  const { header, rows } = parseCsv(text);
  const cells = rows.map((r) => r.map((t, c) => (typeof want.rows[0]?.[c] === 'number' ? { value: t } : { text: t })));
  return difference({ headers: header, rows: cells }, want);
}

const { server, origin } = await startPageServer(site);
let browser;
try {
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') pageErrors.push(`console: ${m.text()}`); });
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.goto(`${origin}/`);
  await page.setInputFiles('#file-input', trace);
  await page.waitForFunction(() => ['loaded', 'error'].includes(document.body.dataset.state), null, { timeout: TIMEOUT_MS });
  check(await page.evaluate(() => document.body.dataset.state) === 'loaded', 'the owlv2 trace opens');
  // Every other view of the report too: none of them may pull DuckDB in.
  for (const view of ['kernels', 'ops', 'overview']) await page.click(`nav [data-view="${view}"]`);
  await page.waitForTimeout(500);

  // --- lazy: nothing of DuckDB before the view opens --------------------------------------
  const isSqlFile = (url) => /\/vendor\/duckdb\/|\/views\/sql[.-]/.test(url);
  const before = requests.filter(isSqlFile);
  check(before.length === 0, `no DuckDB file (nor the SQL view's modules) requested before the SQL view opens (${before.join(', ') || 'none'})`);
  const sql = 'section.view[data-view="sql"]';
  const runs = () => page.$eval(`${sql} .sql-panel`, (p) => Number(p.dataset.runs ?? 0));
  await page.click('nav [data-view="sql"]');
  await page.waitForFunction((s) => Number(document.querySelector(`${s} .sql-panel`)?.dataset.runs ?? 0) >= 1 ||
    document.querySelector(`${s} .sql-error:not([hidden])`), sql, { timeout: TIMEOUT_MS });
  check(await page.$eval(sql, (s) => !s.querySelector('.sql-error:not([hidden])')), 'DuckDB starts, loads the sheets and runs the query in the box');
  const duck = requests.filter((u) => u.includes('/vendor/duckdb/')).map((u) => u.slice(origin.length));
  check(['/vendor/duckdb/duckdb-browser.mjs', '/vendor/duckdb/duckdb-browser-eh.worker.js', '/vendor/duckdb/duckdb-eh.wasm'].every((u) => duck.includes(u)),
    `then DuckDB's module, worker and eh wasm come from the page's origin (${duck.join(', ')})`);
  await page.screenshot({ path: path.join(screenshots, 'sql-opened.png'), fullPage: true });

  // Runs the query in the box (Ctrl+Enter, or the Run button) and waits for it to finish.
  const runQuery = async (how = 'button') => {
    const n = await runs();
    if (how === 'keys') {
      await page.focus(`${sql} #sql-query`);
      await page.keyboard.press('Control+Enter');
    } else await page.click(`${sql} .sql-run`);
    await page.waitForFunction(([s, k]) => Number(document.querySelector(`${s} .sql-panel`).dataset.runs) > k, [sql, n], { timeout: TIMEOUT_MS });
  };
  const shownError = () => page.$eval(`${sql} .sql-error`, (e) => (e.hidden ? null : e.textContent));
  const result = () => readWholeTable(page, `${sql} .sql-result .sheet-table`);
  const status = () => page.$eval(`${sql} .sql-status`, (p) => p.textContent);

  // --- examples: each against the same computation on the CSVs -----------------------------
  const examples = await page.$$eval(`${sql} #sql-example option`, (os) => os.map((o) => o.value).filter(Boolean));
  check(JSON.stringify(examples) === JSON.stringify(Object.keys(EXPECTED)), `the saved examples are listed (${examples.join(', ')})`);
  for (const id of examples) {
    await page.selectOption(`${sql} #sql-example`, id);
    const filled = await page.$eval(`${sql} #sql-query`, (t) => t.value);
    await runQuery(id === 'op-categories' ? 'keys' : 'button');
    const error = await shownError();
    const want = EXPECTED[id]?.();
    const diff = error ? `error: ${error}` : want ? difference(await result(), want) : 'no expected result';
    check(filled.includes('FROM') && diff === '', `example ${id}: ${want?.rows.length ?? '?'} rows equal the CLI's CSVs computed here${diff ? ` (${diff})` : ''}`);
    await page.screenshot({ path: path.join(screenshots, `sql-example-${id}.png`), fullPage: true });
    if (id === 'top-kernels') {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(`${sql} .sql-download`)]);
      const saved = readFileSync(await download.path(), 'utf8');
      const d = csvDifference(saved, want);
      check(d === '' && download.suggestedFilename().endsWith('.csv'), `Download CSV saves the result (${download.suggestedFilename()}) with the same rows${d ? ` (${d})` : ''}`);
    }
  }
  // --- tables: the report's sheets with the CSVs' columns ---------------------------------
  // The speed-of-light sheets come when the worker has computed them (the view asks).
  await page.waitForSelector(`${sql} .sql-table[data-table="sol_by_step"]`, { timeout: TIMEOUT_MS }).catch(() => {});
  const tables = await page.$$eval(`${sql} .sql-table`, (lis) => lis.map((li) => ({
    name: li.dataset.table, columns: [...li.querySelectorAll('.sql-columns .sql-name')].map((b) => b.textContent) })));
  const withCsv = tables.filter((t) => csvNames.includes(t.name));
  const wrong = withCsv.filter((t) => {
    const header = parseCsv(readFileSync(path.join(cliOut, `${t.name}.csv`), 'utf8')).header;
    return JSON.stringify(t.columns) !== JSON.stringify(uniqueNames(header));
  });
  const missing = csvNames.filter((n) => !tables.some((t) => t.name === n));
  check(tables.length > 10 && missing.length === 0 && wrong.length === 0,
    `the tables are the report's ${tables.length} sheets, the speed of light's with them; each of the CLI's ${csvNames.length} CSVs is one, with its columns in order ` +
    `(missing: ${missing.join(', ') || 'none'}; other columns: ${wrong.map((t) => t.name).join(', ') || 'none'})`);

  const said = await status();
  check(/^\d[\d,]* rows? in [\d.,]+ ms\.$/.test(said), `the row count and the time are shown ("${said}")`);

  // --- errors: a syntax error is said, and the next query runs ------------------------------
  await page.fill(`${sql} #sql-query`, 'SELEC "Kernel name" FROM kernel_summary');
  await runQuery('keys');
  const message = await shownError();
  const stale = await page.$$eval(`${sql} .sql-result .sheet-table`, (t) => t.length);
  const canDownload = await page.$eval(`${sql} .sql-download`, (b) => !b.disabled);
  check(stale === 0 && !canDownload, 'the failed query leaves no result shown (the last one would read as its result) and nothing to download');
  check(/syntax error/i.test(message ?? '') && /SELEC/.test(message ?? ''), `a syntax error shows DuckDB's message (${JSON.stringify(message?.slice(0, 80))})`);
  await page.screenshot({ path: path.join(screenshots, 'sql-syntax-error.png'), fullPage: true });
  await page.fill(`${sql} #sql-query`, 'SELECT count(*) AS kernels FROM kernel_summary');
  await runQuery();
  const after = await result();
  check(await shownError() === null && after.rows.length === 1 && Number(after.rows[0][0].value) === csv('kernel_summary').length,
    `the next query runs and the error is gone (${after.rows[0]?.[0]?.value} kernel_summary rows, the CSV has ${csv('kernel_summary').length})`);

  // --- text: names from the trace and HTML in a query stay text -----------------------------
  await page.fill(`${sql} #sql-query`, `SELECT DISTINCT "Kernel name" FROM kernel_summary WHERE "Kernel name" LIKE '%<%>%' ORDER BY 1`);
  await runQuery();
  const angled = [...new Set(csv('kernel_summary').map((r) => r['Kernel name']).filter((n) => /<.*>/.test(n)))].sort(byBytes);
  const named = await result();
  const elements = await page.$$eval(`${sql} .sql-result tbody td`, (tds) => tds.filter((td) => td.children.length > 0).length);
  check(angled.length > 0 && difference(named, { header: ['Kernel name'], rows: angled.map((n) => [n]) }) === '' && elements === 0,
    `the ${angled.length} kernel names with <…> are the cells' text, equal to the CSV's, with no element in a cell`);
  await page.fill(`${sql} #sql-query`, `SELECT '<img src=x onerror="window.__sqlInjected=1">' AS "<b>html</b>", 'a & b' AS amp`);
  await runQuery();
  const html = await result();
  const injected = await page.evaluate((s) => ({ img: document.querySelector(`${s} .sql-result img, ${s} .sql-result thead b`) !== null,
    flag: window.__sqlInjected !== undefined }), sql);
  check(!injected.img && !injected.flag && html.headers[0] === '<b>html</b>' && html.rows[0]?.[0]?.text === '<img src=x onerror="window.__sqlInjected=1">' &&
    html.rows[0]?.[1]?.text === 'a & b', 'an HTML string and an HTML column name are shown as text: no element, no script');
  await page.screenshot({ path: path.join(screenshots, 'sql-text.png'), fullPage: true });

  // --- nothing from elsewhere -------------------------------------------------------------
  const foreign = requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:') && !u.startsWith('blob:'));
  check(foreign.length === 0, `no request left the page's origin (${foreign.join(', ') || 'none'})`);
  const csp = await page.evaluate(() => window.__cspViolations);
  check(csp.length === 0, `no CSP violation (${csp.join('; ') || 'none'})`);
  check(pageErrors.length === 0, `no page errors (${pageErrors.join('; ')})`);
} catch (e) {
  check(false, `the page test ran to its end (${e.message})`);
} finally {
  await browser?.close();
  server.kill();
}
finish();
