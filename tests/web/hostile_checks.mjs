// Hostile text in every view, run by e2e_test.mjs: a report whose every string holds
// HTML must show that HTML as text in the overview, the ops drill-down and perf tabs,
// the kernels, the roofline (tooltip, legend, tables), the collectives and the cycles
// (time strip labels and titles, pattern tables) and SOL (notes, tables, chart).
//
// The report is a real one (the core's, built under node from the vLLM TP8 trace,
// which has ops, perf models, kernels, a collective and a cycle), with the payload
// appended to every string a trace or a link can carry: table cells, parameter
// column names, perf sheet names, trace facts, device names, warnings, cycle
// summaries. It reaches the page as a share link made with web/share.mjs's own
// encoder, so the page renders it exactly as it would a link someone sent.
// Numbers are untouched, and the strings the views parse keep their shape (each
// element of a Python list repr gets the payload), so every view has rows to draw.
import path from 'node:path';
import { readdirSync } from 'node:fs';
import { nodeReport } from './node_report.mjs';

const TIMEOUT_MS = 15_000;
// An element and a script: either would show up in the DOM, run, or open a dialog.
export const PAYLOAD = '<img src=x onerror=alert(1)><script>window.__xss=1</script>';
const bad = (s) => `${s}${PAYLOAD}`;
// "['GEMM', 'elementwise']" -> "['GEMM<img…>', 'elementwise<img…>']" (the ops drill-down
// matches categories inside it); any other string gets the payload at its end.
const badString = (s) => (/^\[.*\]$/s.test(s) && s.includes("'")
  ? s.replace(/'((?:[^'\\]|\\.)*)'/g, (_, x) => `'${bad(x)}'`) : bad(s));

// The kind stays: the views choose sheets by it (a link with another kind shows less).
function badSheet(sheet, rename) {
  return {
    name: rename ? bad(sheet.name) : sheet.name,
    kind: sheet.kind,
    rows: sheet.rows,
    columns: sheet.columns.map((c) => ({
      ...c,
      name: c.name.startsWith('param: ') ? bad(c.name) : c.name,
      unit: c.unit ? bad(c.unit) : c.unit,
      ...(c.type === 'string' ? { dictionary: c.dictionary.map(badString) } : {}),
    })),
  };
}


// The loaded report (state.mjs's app.report shape) of `trace`, with the payload everywhere.
async function hostileReport(site, trace) {
  const { load } = await nodeReport(site);
  const loaded = load(trace);
  const sol = JSON.parse(loaded.session.buildSol('', 1));
  const { readSheet } = await import(path.join(site, 'report-model.mjs'));
  sol.sheets = sol.sheets.map((sheet) => readSheet(loaded.session, sheet));
  loaded.session.delete();
  const { info } = loaded;
  const metadata = JSON.parse(loaded.traceMetadata);
  return {
    name: bad(path.basename(trace)),
    version: bad(loaded.version),
    fileBytes: loaded.fileBytes,
    gzip: loaded.gzip,
    info: {
      ...info,
      format: bad(info.format),
      traceName: bad(info.traceName || 'trace'),
      versionHints: [...info.versionHints, bad('hint')],
      gpuPids: info.gpuPids.map(bad),
      eventsByCategory: info.eventsByCategory.map(([k, n]) => [bad(k), n]),
      eventsByPhase: info.eventsByPhase.map(([k, n]) => [bad(k), n]),
      devices: [...info.devices.map((d) => ({ ...d, name: bad(d.name) })),
        { id: 99, name: bad('GPU'), totalGlobalMem: null, computeMajor: null, computeMinor: null, numSms: null, warpSize: null }],
      distributed: info.distributed ? { ...info.distributed, backend: bad(info.distributed.backend), ncclVersion: bad(info.distributed.ncclVersion) } : null,
      warnings: [...info.warnings, bad('warning')],
    },
    traceMetadata: JSON.stringify({ ...metadata, traceName: bad('trace') }),
    gpuTimeline: [...loaded.gpuTimeline, { type: bad('extra'), 'time ms': 1, percent: 1 }],
    report: {
      device: { ...loaded.report.device, status: 'identified', id: bad('H100'), name: bad('NVIDIA H100'), how: bad('how'),
        dense_tflops_per_device: { ...(loaded.report.device.dense_tflops_per_device ?? { bf16: 989 }), [bad('peak')]: 123 },
        mem_bw_TBps_per_device: loaded.report.device.mem_bw_TBps_per_device ?? 3.35 },
      rooflineCeilings: Object.fromEntries(Object.entries(loaded.report.rooflineCeilings ?? {})
        .map(([spec, c]) => [spec, { ...c, peak: bad(c.peak) }])),
      timingsMs: loaded.report.timingsMs,
      sheets: loaded.report.sheets.map((s) => badSheet(s, s.kind === 'perf_model')),
    },
    cycles: {
      summary: bad(loaded.cycles.summary),
      kernels: loaded.cycles.kernels,
      preambles: loaded.cycles.preambles.map(bad),
      sheets: loaded.cycles.sheets.map((s) => badSheet(s, false)),
    },
    sol: {
      device: bad('H100'),
      device_identification: { ...loaded.report.device, id: bad('H100'), name: bad('NVIDIA H100') },
      efficiency_factor: sol.efficiency_factor,
      module_frames: false,
      notes: [...sol.notes.map(bad), bad('note')],
      metrics: sol.metrics,
      sheets: sol.sheets.map((s) => badSheet(s, false)),
    },
    dropped: [bad('dropped_sheet')],
  };
}

export async function hostileChecks({ context, origin, repo, site, fixtures, check, screenshots }) {
  const dir = path.join(fixtures, 'tracelens-b200-vllm-tp8');
  const trace = path.join(dir, readdirSync(dir).find((f) => f.endsWith('.json.gz')));
  const loaded = await hostileReport(site, trace);
  const { encodeShare } = await import(path.join(repo, 'web/share.mjs'));
  const { url } = await encodeShare(loaded, `${origin}/`);

  const page = await context.newPage();
  const dialogs = [];
  const errors = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.goto(url);
  await page.waitForFunction(() => ['loaded', 'error'].includes(document.body.dataset.state), null, { timeout: TIMEOUT_MS });
  if (!check(await page.evaluate(() => document.body.dataset.state) === 'loaded', 'hostile: the share link with HTML in every string opens')) {
    await page.close();
    return;
  }

  // Nothing from the data became an element, ran, or opened a dialog. The page itself
  // has no <img>, <iframe>, … and no <script> in its body.
  const clean = async (where) => {
    const found = await page.evaluate(() => ({
      elements: [...document.body.querySelectorAll('img, script, iframe, object, embed, foreignObject')].map((e) => e.outerHTML.slice(0, 80)),
      xss: window.__xss,
      csp: window.__csp,
    }));
    check(found.elements.length === 0 && found.xss === undefined && found.csp.length === 0 && dialogs.length === 0 && errors.length === 0,
      `hostile ${where}: shown as text; nothing injected, run or blocked${found.elements.length ? `; elements: ${found.elements.join(' ')}` : ''}` +
      `${found.xss !== undefined ? '; a script ran' : ''}${found.csp.length ? `; CSP: ${found.csp.join(' ')}` : ''}` +
      `${dialogs.length ? `; dialogs: ${dialogs.join(' ')}` : ''}${errors.length ? `; errors: ${errors.join(' ')}` : ''}`);
  };
  // The payload is on the page as text (else "nothing injected" would prove nothing).
  const shows = async (selector, what) => {
    const n = await page.$$eval(selector, (els, p) => els.reduce((k, e) => k + e.textContent.split(p).length - 1, 0), PAYLOAD);
    check(n > 0, `hostile ${what}: the HTML is on the page as text (${n} times)`);
  };
  const showView = async (view) => {
    await page.click(`nav [data-view="${view}"]`);
    await page.waitForFunction((v) => {
      const s = document.querySelector(`section.view[data-view="${v}"]`);
      return s && !s.hidden && !s.classList.contains('placeholder') && s.querySelector('h2, .sheet-table, .empty-state');
    }, view, { timeout: TIMEOUT_MS });
    return `section.view[data-view="${view}"]`;
  };

  // Overview: file and trace name, facts, devices, warnings, categories, notice.
  await showView('overview');
  for (const [sel, what] of [['#trace-name', 'overview: file name'], ['#facts', 'overview: trace facts'], ['#devices', 'overview: device names'],
    ['#warnings', 'overview: warnings'], ['#categories', 'overview: categories'], ['#gpu-timeline', 'overview: timeline rows'],
    ['#shared-notice', 'overview: the link\'s notice']]) await shows(sel, what);
  await page.screenshot({ path: path.join(screenshots, 'hostile-overview.png'), fullPage: true });
  await clean('overview');

  // Ops: drill down category -> op -> argument sets, then every perf-model tab.
  let s = await showView('ops');
  await page.click(`${s} [role=tab][data-tab="drill"]`);
  await shows(`${s} .level-category .sheet-table tbody`, 'ops: categories');
  await page.click(`${s} .level-category tbody tr.data >> nth=0`);
  await page.waitForSelector(`${s} .level-name .sheet-table tbody tr.data`, { timeout: TIMEOUT_MS });
  await shows(`${s} .level-name h3`, 'ops: the chosen category\'s heading');
  await page.click(`${s} .level-name tbody tr.data >> nth=0`);
  await page.waitForSelector(`${s} .level-args .sheet-table tbody tr.data`, { timeout: TIMEOUT_MS });
  await shows(`${s} .crumbs`, 'ops: breadcrumbs');
  await shows(`${s} .level-args .sheet-table`, 'ops: unique argument sets');
  await page.screenshot({ path: path.join(screenshots, 'hostile-ops-drilldown.png'), fullPage: true });
  await clean('ops drill-down');
  await page.click(`${s} [role=tab][data-tab="models"]`);
  const modelTabs = await page.locator(`${s} .tabpanel[data-tab="models"] [role=tab]`).count();
  for (let i = 0; i < modelTabs; i++) await page.locator(`${s} .tabpanel[data-tab="models"] [role=tab]`).nth(i).click();
  await shows(`${s} .tabpanel[data-tab="models"] [role=tab]`, `ops: perf-model tab names (${modelTabs} tabs)`);
  await shows(`${s} .tabpanel[data-tab="models"] .sheet-table thead`, 'ops: parameter column names');
  await clean('ops perf tabs');

  // Kernels.
  s = await showView('kernels');
  await shows(`${s} .sheet-table[data-sheet="kernel_summary"] tbody`, 'kernels: kernel names');
  await shows(`${s} .sheet-table[data-sheet="kernel_summary"] thead`, 'kernels: column units');
  await clean('kernels');

  // Roofline: legend, caption, every tab; the tooltip of a bubble found by scanning.
  s = await showView('roofline');
  await page.waitForSelector(`${s} .roofline-plot canvas`, { timeout: TIMEOUT_MS });
  await shows(`${s} .roofline-figure .legend`, 'roofline: legend (perf sheet names)');
  await shows(`${s} .device-name`, 'roofline: device name');
  await shows(`${s} .roofline-figure figcaption`, 'roofline: ceiling names');
  const tip = await page.evaluate(() => {
    const over = document.querySelector('section[data-view="roofline"] .roofline-plot .u-over');
    const t = document.querySelector('section[data-view="roofline"] .roofline-tip');
    const r = over.getBoundingClientRect();
    for (let y = r.top + 2; y < r.bottom; y += 3) {
      for (let x = r.left + 2; x < r.right; x += 3) {
        over.dispatchEvent(new MouseEvent('mousemove', { clientX: x, clientY: y, bubbles: true }));
        if (!t.hidden) return true;
      }
    }
    return false;
  });
  check(tip, 'hostile roofline: hovering finds a bubble');
  if (tip) await shows(`${s} .roofline-tip`, 'roofline: tooltip (op name, parameters)');
  await page.screenshot({ path: path.join(screenshots, 'hostile-roofline.png'), fullPage: true });
  const rooflineTabs = await page.locator(`${s} [role=tab]`).count();
  for (let i = 0; i < rooflineTabs; i++) await page.locator(`${s} [role=tab]`).nth(i).click();
  await shows(`${s} .tabpanel .sheet-table tbody`, `roofline: table rows (${rooflineTabs} tabs)`);
  await clean('roofline');

  // Collectives.
  s = await showView('collectives');
  await shows(`${s} .sheet-table tbody`, 'collectives: coll_analysis rows');
  await clean('collectives');

  // Critical path and launch delays (HTA's sheets, once the core writes them): event names.
  s = await showView('critical-path');
  if (await page.locator(`${s} .sheet-table`).count()) await shows(`${s} .sheet-table tbody`, 'critical path: event names');
  await clean('critical path');
  await showView('launch-delays');
  await clean('launch delays');

  // Cycles: the sentences of what was found, the strip's lane labels and mark titles, every pattern's tables.
  s = await showView('cycles');
  await page.waitForSelector(`${s} .strip .lane`, { timeout: TIMEOUT_MS });
  await shows(`${s} .pattern-sentences`, 'cycles: what was found, in sentences');
  await shows(`${s} .strip title`, 'cycles: time strip mark titles');
  const labels = await page.$$eval(`${s} .strip .lane`, (gs) => gs.map((g) => `${g.querySelector('text').textContent} | ${g.getAttribute('aria-label')}`));
  check(labels.length > 0 && labels.every((l) => l.includes(PAYLOAD)),
    `hostile cycles: time strip lane labels and their names show the HTML as text (${labels.length} lanes)`);
  const lanes = await page.locator(`${s} .strip .lane`).count();
  for (let i = 0; i < lanes; i++) {
    await page.locator(`${s} .strip .lane`).nth(i).click();
    const tabCount = await page.locator(`${s} .pattern-detail [role=tab]`).count();
    for (let t = 0; t < tabCount; t++) await page.locator(`${s} .pattern-detail [role=tab]`).nth(t).click();
  }
  await shows(`${s} .pattern-detail`, 'cycles: pattern tables and preambles');
  await page.screenshot({ path: path.join(screenshots, 'hostile-cycles.png'), fullPage: true });
  await clean('cycles');

  // SOL, carried by the link: device, notes, layer types (op categories here).
  s = await showView('sol');
  await shows(`${s} .sol-notes`, 'sol: device and notes');
  await shows(`${s} .sheet-table tbody`, 'sol: layer type rows');
  await shows(`${s} .sol-chart title`, 'sol: chart bar titles');
  await page.screenshot({ path: path.join(screenshots, 'hostile-sol.png'), fullPage: true });
  await clean('sol');
  await page.close();
}
