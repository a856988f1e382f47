// The page: opening traces (file picker, drag and drop, sample), the loading worker,
// and rendering what the core computed. Text that comes from a trace or a file
// name is only ever set with textContent / attributes, never parsed as HTML.
// No analysis happens here: the numbers are the core's (worker.mjs).

import { dataValue, fmtBytes, fmtFixed, fmtInt, row } from './format.mjs';

const SAMPLE = { url: 'samples/h100-bert-small.json.gz', name: 'h100-bert-small.json.gz (sample)' };

const $ = (id) => document.getElementById(id);
const ui = {
  openFile: $('open-file'),
  fileInput: $('file-input'),
  openSample: $('open-sample'),
  loader: $('loader'),
  loaderName: $('loader-name'),
  progress: $('progress'),
  progressLabel: $('progress-label'),
  progressDetail: $('progress-detail'),
  cancel: $('cancel'),
  error: $('error'),
  errorTitle: $('error-title'),
  errorHint: $('error-hint'),
  status: $('status'),
  welcome: $('welcome'),
  main: $('main'),
  dropOverlay: $('drop-overlay'),
  version: $('version'),
};

let worker = null;
let loadId = 0;
let report = null;  // the last 'done' message
let currentView = 'overview';
let devices = [];  // the device database's ids, for device selectors

// --- worker -------------------------------------------------------------------------
function ensureWorker() {
  if (worker) return worker;
  worker = new Worker(new URL('./worker.mjs', import.meta.url), { type: 'module', name: 'sollens' });
  worker.onmessage = (event) => onWorkerMessage(event.data);
  worker.onerror = (event) => {
    event.preventDefault?.();
    showError('The loading worker could not start.',
      'Reload the page. If you host it yourself, serve .mjs files as text/javascript and sollens.wasm as application/wasm.');
    stopWorker();
    setBusy(false);
  };
  return worker;
}

function stopWorker() {
  worker?.terminate();
  worker = null;
}

function onWorkerMessage(msg) {
  if (msg.type === 'ready') {
    ui.version.textContent = msg.version;
    devices = msg.devices ?? [];
    return;
  }
  if (msg.id !== loadId) return;  // from a load that was replaced
  if (msg.type === 'progress') showProgress(msg);
  else if (msg.type === 'report' || msg.type === 'cycles') {
    if (!report) return;
    report = { ...report, [msg.type]: msg[msg.type] };
    renderedViews.clear();
    showView(currentView);
  } else if (msg.type === 'done') {
    report = msg;
    renderedViews.clear();
    renderReport(msg);
    setBusy(false);
    const t = msg.timings;
    ui.status.textContent = `Opened ${msg.name}: ${fmtInt(msg.info.events)} events in ${fmtFixed(t.totalMs / 1000, 2)} s.`;
    document.body.dataset.state = 'loaded';
  } else if (msg.type === 'error') {
    setBusy(false);
    showError(msg.title, msg.hint);
    document.body.dataset.state = report ? 'loaded' : 'error';
  }
}

// --- opening --------------------------------------------------------------------------
function startLoad(message, displayName) {
  loadId += 1;
  hideError();
  ui.status.textContent = '';
  report = null;
  clearReport();
  setBusy(true, displayName);
  ensureWorker().postMessage({ ...message, id: loadId });
}

function openFile(file) {
  if (!file) return;
  startLoad({ type: 'open', file }, file.name);
}

function openSample() {
  startLoad({ type: 'open', url: SAMPLE.url, name: SAMPLE.name }, SAMPLE.name);
}

function cancelLoad() {
  loadId += 1;
  stopWorker();  // parsing is one synchronous call in the worker: stop the worker
  setBusy(false);
  document.body.dataset.state = 'cancelled';
  ui.status.textContent = 'Loading cancelled. Open a trace to continue.';
  ui.welcome.hidden = false;
  ui.openFile.focus();
}

function setBusy(busy, name) {
  document.body.dataset.state = busy ? 'loading' : document.body.dataset.state;
  ui.loader.hidden = !busy;
  ui.openFile.disabled = busy;
  ui.openSample.disabled = busy;
  if (busy) {
    ui.welcome.hidden = true;
    for (const v of document.querySelectorAll('section.view')) v.hidden = true;
    ui.loaderName.textContent = name;
    ui.progress.value = 0;
    ui.progressLabel.textContent = 'Reading…';
    ui.progressDetail.textContent = '';
    ui.cancel.focus();
  } else {
    showView(currentView);
  }
}

function showProgress({ phase, done, total, events }) {
  ui.progress.max = Math.max(total, 1);
  ui.progress.value = Math.min(done, total);
  if (phase === 'read') {
    ui.progressLabel.textContent = 'Reading the file';
    ui.progressDetail.textContent = `${fmtBytes(done)} of ${fmtBytes(total)} read`;
  } else {
    ui.progressLabel.textContent = 'Parsing events';
    ui.progressDetail.textContent = `${fmtBytes(done)} of ${fmtBytes(total)} parsed, ${fmtInt(events)} events`;
  }
}

function showError(title, hint) {
  ui.errorTitle.textContent = title;
  ui.errorHint.textContent = hint ?? '';
  ui.error.hidden = false;
  if (!report) ui.welcome.hidden = false;
}

function hideError() {
  ui.error.hidden = true;
}

// --- views ------------------------------------------------------------------------------
function showView(name) {
  currentView = name;
  for (const b of document.querySelectorAll('nav [data-view]')) {
    if (b.dataset.view === name) b.setAttribute('aria-current', 'page');
    else b.removeAttribute('aria-current');
  }
  const loading = !ui.loader.hidden;
  for (const v of document.querySelectorAll('section.view')) {
    // The overview needs a trace; the placeholders say what is coming either way.
    const isPlaceholder = v.classList.contains('placeholder');
    v.hidden = loading || v.dataset.view !== name || (!isPlaceholder && !report);
  }
  ui.welcome.hidden = loading || Boolean(report) || (name !== 'overview');
  if (report && !loading) renderView(name);
}

// --- view modules -----------------------------------------------------------------------
// Every view but the overview is a module under views/ exporting
//   render(section, context)
// called when the view is first shown for a report (again after the report or the
// cycles are recomputed). section is the view's <section>, to fill; context is
//   {report: msg.report, cycles: msg.cycles, info: msg.info, name, devices,
//    requestReport({device, corrected}), requestCycles({mode, order}), showView(name)}
// (the report model is described at the top of worker.mjs). A view not listed here
// keeps its placeholder text.
const VIEW_MODULES = new Set(['ops', 'kernels', 'roofline', 'collectives', 'cycles']);
const renderedViews = new Set();
const viewSection = (name) => document.querySelector(`section.view[data-view="${name}"]`);
// Each view's placeholder as index.html has it, put back when another trace is opened:
// a failed load then shows the placeholders, and the previous trace's tables (and the
// columns they hold) are let go at once.
const placeholders = new Map([...VIEW_MODULES].map((name) =>
  [name, [...viewSection(name).childNodes].map((n) => n.cloneNode(true))]));
function resetViews() {
  for (const [name, nodes] of placeholders) {
    const section = viewSection(name);
    section.replaceChildren(...nodes.map((n) => n.cloneNode(true)));
    section.classList.add('placeholder');
  }
}

async function renderView(name) {
  if (!VIEW_MODULES.has(name) || renderedViews.has(name)) return;
  renderedViews.add(name);
  const section = viewSection(name);
  const shown = report;
  try {
    const module = await import(`./views/${name}.mjs`);
    if (report !== shown) return;  // another trace was opened meanwhile
    section.classList.remove('placeholder');
    await module.render(section, viewContext());
  } catch (e) {
    // One broken view must not take the page down: say so in its section.
    renderedViews.delete(name);
    const p = document.createElement('p');
    p.className = 'error';
    p.textContent = `This view could not be shown: ${e?.message ?? e}`;
    section.append(p);
    console.error(e);
  }
}

function viewContext() {
  return {
    report: report.report,
    cycles: report.cycles,
    info: report.info,
    name: report.name,
    devices,
    requestReport: ({ device = '', corrected = false } = {}) =>
      worker?.postMessage({ type: 'report', id: loadId, device, corrected }),
    requestCycles: ({ mode = 'all', order = 'stream' } = {}) =>
      worker?.postMessage({ type: 'cycles', id: loadId, mode, order }),
    showView,
  };
}

function clearReport() {
  resetViews();
  for (const id of ['facts', 'timeline-legend', 'warnings']) $(id).replaceChildren();
  for (const id of ['gpu-timeline', 'devices', 'categories']) $(id).tBodies[0].replaceChildren();
  const svg = $('timeline-chart');
  for (const el of [...svg.children]) if (el.tagName !== 'title') el.remove();
  $('trace-name').textContent = '';
}

// --- rendering ----------------------------------------------------------------------------
const TIMELINE_LABELS = {
  computation_time: 'computation',
  exposed_comm_time: 'exposed communication',
  exposed_memcpy_time: 'exposed memcpy',
  busy_time: 'busy',
  idle_time: 'idle',
  total_time: 'total',
  total_comm_time: 'total communication',
  total_memcpy_time: 'total memcpy',
};
// The rows that partition total_time (the core guarantees they sum to it).
const TIMELINE_PARTS = ['computation_time', 'exposed_comm_time', 'exposed_memcpy_time', 'idle_time'];

function renderReport(msg) {
  clearReport();
  const { info } = msg;
  $('trace-name').textContent = msg.name;

  const facts = $('facts');
  const fact = (term, value, exact) => {
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    if (exact !== undefined) dd.append(dataValue(exact, value));
    else dd.textContent = value;
    facts.append(dt, dd);
  };
  fact('file', msg.name);
  fact('size', msg.gzip ? `${fmtBytes(info.jsonBytes)} of JSON (${fmtBytes(msg.fileBytes)} gzip)` : `${fmtBytes(info.jsonBytes)} of JSON`);
  fact('format', info.format);
  fact('events', `${fmtInt(info.events)} (${fmtInt(info.gpuEvents)} on the GPU, ${fmtInt(info.linkedGpuEvents)} linked to a launch)`, info.events);
  fact('time span', `${fmtFixed(info.spanMs, 3)} ms`, info.spanMs);
  if (info.traceName) fact('trace name', info.traceName);
  if (info.distributed) {
    const d = info.distributed;
    fact('ranks', `rank ${d.rank ?? '?'} of ${d.worldSize ?? '?'}${d.backend ? ` (${d.backend})` : ''}`);
  } else {
    fact('ranks', 'single process (no distributedInfo)');
  }
  fact('GPU processes', info.gpuPids.length ? info.gpuPids.join(', ') : 'none');
  for (const hint of info.versionHints) fact('format hint', hint);
  fact('opened in', `${fmtFixed(msg.timings.totalMs / 1000, 2)} s (read ${fmtFixed(msg.timings.readMs / 1000, 2)} s, parse ${fmtFixed(msg.timings.parseMs / 1000, 2)} s, analyse ${fmtFixed(msg.timings.analyseMs / 1000, 2)} s)`);

  renderTimeline(msg.gpuTimeline);

  const devices = $('devices').tBodies[0];
  for (const d of info.devices) {
    const cc = d.computeMajor == null ? '?' : `${d.computeMajor}.${d.computeMinor ?? '?'}`;
    const mem = d.totalGlobalMem == null ? '?' : fmtFixed(d.totalGlobalMem / 2 ** 30, 1);
    devices.append(row([d.id ?? '?', d.name || '(no name)', cc, d.numSms ?? '?', mem]));
  }
  $('devices-none').hidden = info.devices.length > 0;
  $('devices').hidden = info.devices.length === 0;

  const warnings = $('warnings');
  if (info.warnings.length === 0) {
    const li = document.createElement('li');
    li.className = 'none';
    li.textContent = 'none';
    warnings.append(li);
  }
  for (const w of info.warnings) {
    const li = document.createElement('li');
    li.textContent = w;
    warnings.append(li);
  }

  const cats = $('categories').tBodies[0];
  for (const [cat, n] of info.eventsByCategory) cats.append(row([cat, dataValue(n, fmtInt(n))]));
}

function renderTimeline(rows) {
  const tbody = $('gpu-timeline').tBodies[0];
  const byType = new Map(rows.map((r) => [r.type, r]));
  for (const r of rows) {
    const tr = row([TIMELINE_LABELS[r.type] ?? r.type, dataValue(r['time ms'], fmtFixed(r['time ms'], 3)),
      dataValue(r.percent, fmtFixed(r.percent, 2))]);
    tr.dataset.type = r.type;
    if (TIMELINE_PARTS.includes(r.type)) tr.classList.add(`part-${r.type}`);
    tbody.append(tr);
  }

  // One stacked bar of the parts that add up to total_time, and its legend.
  const svg = $('timeline-chart');
  const legend = $('timeline-legend');
  const NS = 'http://www.w3.org/2000/svg';
  let x = 0;
  for (const type of TIMELINE_PARTS) {
    const r = byType.get(type);
    if (!r) continue;
    const width = Math.max(0, r.percent) * 6;  // viewBox is 600 wide
    if (width > 0) {
      const rect = document.createElementNS(NS, 'rect');
      rect.setAttribute('x', String(x));
      rect.setAttribute('y', '0');
      rect.setAttribute('width', String(width));
      rect.setAttribute('height', '44');
      rect.setAttribute('class', `part-${type}`);
      const title = document.createElementNS(NS, 'title');
      title.textContent = `${TIMELINE_LABELS[type]}: ${fmtFixed(r['time ms'], 3)} ms (${fmtFixed(r.percent, 2)} %)`;
      rect.append(title);
      svg.append(rect);
      x += width;
    }
    const li = document.createElement('li');
    const swatch = document.createElement('span');
    swatch.className = `swatch part-${type}`;
    swatch.setAttribute('aria-hidden', 'true');
    li.append(swatch, `${TIMELINE_LABELS[type]} ${fmtFixed(r.percent, 2)} %`);
    legend.append(li);
  }
}

// --- events --------------------------------------------------------------------------------
ui.openFile.addEventListener('click', () => ui.fileInput.click());
ui.fileInput.addEventListener('change', () => {
  openFile(ui.fileInput.files[0]);
  ui.fileInput.value = '';  // choosing the same file again opens it again
});
ui.openSample.addEventListener('click', openSample);
ui.cancel.addEventListener('click', cancelLoad);
for (const b of document.querySelectorAll('nav [data-view]'))
  b.addEventListener('click', () => showView(b.dataset.view));

// Drag and drop anywhere on the page.
let dragDepth = 0;
const hasFiles = (e) => Array.from(e.dataTransfer?.types ?? []).includes('Files');
document.addEventListener('dragenter', (e) => {
  if (!hasFiles(e)) return;
  e.preventDefault();
  dragDepth += 1;
  ui.dropOverlay.hidden = false;
});
document.addEventListener('dragover', (e) => {
  if (!hasFiles(e)) return;
  e.preventDefault();
  e.dataTransfer.dropEffect = 'copy';
  ui.dropOverlay.hidden = false;
});
document.addEventListener('dragleave', () => {
  dragDepth = Math.max(0, dragDepth - 1);
  if (dragDepth === 0) ui.dropOverlay.hidden = true;
});
document.addEventListener('drop', (e) => {
  e.preventDefault();  // never let the browser navigate to the dropped file
  dragDepth = 0;
  ui.dropOverlay.hidden = true;
  const files = e.dataTransfer?.files;
  if (!files || files.length === 0) return;
  if (!ui.loader.hidden) cancelLoad();
  openFile(files[0]);
  if (files.length > 1) ui.status.textContent = `Several files dropped; opening ${files[0].name}.`;
});
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && !ui.loader.hidden) cancelLoad();
});

document.body.dataset.state = 'empty';
showView('overview');
ensureWorker();  // start compiling the module while the user picks a file
