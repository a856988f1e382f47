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
  // h-share
  exportReport: $('export-report'),
  shareLink: $('share-link'),
  sharePanel: $('share-panel'),
  shareDetail: $('share-detail'),
  shareUrl: $('share-url'),
  shareClose: $('share-close'),
  sharedNotice: $('shared-notice'),
};

let worker = null;
let loadId = 0;
let report = null;  // the last 'done' message, with the later 'report' and 'cycles' merged in
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
  else if (msg.type === 'report') {
    // Merged into the same object: a view being drawn for this load stays current.
    if (!report) return;
    report.report = msg.report;
    for (const name of REPORT_VIEWS) renderedViews.delete(name);
    showView(currentView);
    // The redrawn view replaces its own "Recomputing…" status: say it is done here.
    ui.status.textContent = 'The report was recomputed: the views show its new figures.';
  } else if (msg.type === 'cycles' || msg.type === 'cycles-error') {
    if (!report) return;
    // Announced (the status is a live region) when asked for, or when the cycles view
    // was waiting for them on screen.
    if (cyclesAsked) ui.status.textContent = msg.type === 'cycles' ? 'The cycles were detected again.' : msg.title;
    else if (currentView === 'cycles' && !ui.status.textContent.endsWith('Cycles detected.'))
      ui.status.textContent = `${ui.status.textContent} Cycles detected.`.trim();
    cyclesAsked = false;
    if (msg.type === 'cycles') {
      report.cycles = msg.cycles;
      report.cyclesMs = msg.ms ?? null;
      report.cyclesError = null;
    } else {
      // A failed recompute keeps the cycles on screen (the status line says why); with
      // none to show, the view says it.
      report.cyclesError = report.cycles ? null : msg.title;
    }
    report.cyclesPending = false;
    document.body.dataset.cycles = msg.type === 'cycles' ? 'ready' : 'error';
    renderedViews.delete('cycles');
    settleCycles();
    showView(currentView);
  } else if (msg.type === 'done') {
    // The report comes first; the cycles follow in their own message.
    report = msg;
    report.cycles = null;
    report.cyclesPending = true;
    report.version = ui.version.textContent;  // for the export's "generator"
    setShareActions(true);
    renderedViews.clear();
    renderReport(msg);
    document.body.dataset.cycles = 'pending';  // after renderReport: it clears the last report's
    setBusy(false);
    const t = msg.timings;
    ui.status.textContent = `Opened ${msg.name}: ${fmtInt(msg.info.events)} events in ${fmtFixed(t.totalMs / 1000, 2)} s.`;
    document.body.dataset.state = 'loaded';
  } else if (msg.type === 'error') {
    ui.status.textContent = '';  // e.g. "Loading the trace from …"
    settleCycles();
    setBusy(false);
    showError(msg.title, msg.hint);
    document.body.dataset.state = report ? 'loaded' : 'error';
  }
}

// --- opening --------------------------------------------------------------------------
function startLoad(message, displayName) {
  loadId += 1;
  hideError();
  // The status line is the live region: it says a load started (and, on 'done', that
  // it ended); the progress bar's ticks are not read out.
  ui.status.textContent = `Opening ${displayName}…`;
  report = null;
  clearReport();
  setShareActions(false);
  leaveSharedLink();
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
//    cyclesPending (the cycles are still being detected: they come after the report),
//    cyclesError (text, when their detection failed), cyclesMs (how long it took),
//    state (the view's own object, kept across recomputes of this trace's report and
//    cycles: what the view wants to show the same way again),
//    requestReport({device, corrected}), requestCycles({mode, order}), showView(name)}
// (the report model is described at the top of worker.mjs). A view not listed here
// keeps its placeholder text.
const VIEW_MODULES = new Set(['ops', 'kernels', 'roofline', 'collectives', 'cycles']);
// The views drawn from the report (drawn again when it is recomputed); the cycles view
// is drawn from the cycles alone.
const REPORT_VIEWS = ['ops', 'kernels', 'roofline', 'collectives'];
const renderedViews = new Set();
// What each view was showing (drill-down choice, tabs, focused control), kept while
// the report or the cycles are recomputed and dropped when another trace is opened:
// context.state is the view's own object, which only the view reads and writes.
let viewStates = new Map();
const viewState = (name) => {
  if (!viewStates.has(name)) viewStates.set(name, {});
  return viewStates.get(name);
};

// Promises waiting for the cycles of this load (the share link carries them):
// settled when they arrive, fail, or the load is replaced.
let cyclesWaiters = [];
let cyclesAsked = false;  // the cycles under way were asked for by the cycles view
function settleCycles() {
  for (const resolve of cyclesWaiters.splice(0)) resolve();
}
const cyclesSettled = () => (report?.cyclesPending ? new Promise((resolve) => cyclesWaiters.push(resolve)) : Promise.resolve());
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
    await module.render(section, viewContext(name));
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

function viewContext(name) {
  return {
    report: report.report,
    cycles: report.cycles,
    cyclesPending: Boolean(report.cyclesPending),
    cyclesError: report.cyclesError ?? null,
    cyclesMs: report.cyclesMs ?? null,
    info: report.info,
    name: report.name,
    devices,
    state: viewState(name),
    // Both return whether the request went to the worker (not for a report from a link).
    requestReport: ({ device = '', corrected = false } = {}) => {
      if (report.shared) return sharedCannotRecompute();
      if (!worker) return false;
      worker.postMessage({ type: 'report', id: loadId, device, corrected });
      return true;
    },
    requestCycles: ({ mode = 'all', order = 'stream' } = {}) => {
      if (report.shared) return sharedCannotRecompute();
      if (!worker) return false;
      cyclesAsked = true;
      worker.postMessage({ type: 'cycles', id: loadId, mode, order });
      return true;
    },
    showView,
  };
}

function clearReport() {
  resetViews();
  viewStates = new Map();
  cyclesAsked = false;
  settleCycles();
  delete document.body.dataset.cycles;
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
  if (msg.timings) fact('opened in', `${fmtFixed(msg.timings.totalMs / 1000, 2)} s (read ${fmtFixed(msg.timings.readMs / 1000, 2)} s, parse ${fmtFixed(msg.timings.parseMs / 1000, 2)} s, analyse ${fmtFixed(msg.timings.analyseMs / 1000, 2)} s)`);
  else fact('source', 'a share link: the report as computed when the link was made (no trace loaded here)');

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

// --- h-share: export, share links, ?trace=URL ----------------------------------------
// export.mjs and share.mjs are imported on first use (not in the first payload).
function setShareActions(enabled) {
  ui.exportReport.disabled = !enabled;
  ui.shareLink.disabled = !enabled;
  if (!enabled) ui.sharePanel.hidden = true;
}

ui.exportReport.addEventListener('click', async () => {
  if (!report) return;
  const { exportReport } = await import('./export.mjs');
  exportReport(report);
  ui.status.textContent = `Saved the report of ${report.name} as JSON (the CLI's report.json layout).`;
});

ui.shareLink.addEventListener('click', async () => {
  if (!report) return;
  const shown = report;
  ui.shareLink.disabled = true;
  try {
    if (shown.cyclesPending) {
      ui.status.textContent = 'Waiting for the cycles (the link carries them)…';
      await cyclesSettled();
      if (report !== shown) return;
    }
    ui.status.textContent = 'Making the link…';
    const { encodeShare } = await import('./share.mjs');
    const link = await encodeShare(shown, location.href);
    if (report !== shown) return;
    ui.shareUrl.value = link.url;
    const size = `${fmtInt(link.chars)} characters`;
    ui.shareDetail.textContent = link.dropped.length
      ? `This report is too big for a link, so these tables are left empty in it: ${link.dropped.join(', ')}. The link has ${size}. For everything, use Download report (JSON) or send the trace.`
      : `The link has ${size}. Anyone who opens it sees this report; their browser computes nothing and uploads nothing.`;
    ui.sharePanel.hidden = false;
    let copied = false;
    try {
      await navigator.clipboard.writeText(link.url);
      copied = true;
    } catch {
      // no clipboard permission (or not a secure context): the field is there to copy by hand
    }
    ui.shareUrl.focus();
    ui.shareUrl.select();
    ui.status.textContent = copied ? `Link copied to the clipboard (${size}).` : `The link is selected below: copy it with Ctrl+C (${size}).`;
  } catch (e) {
    ui.status.textContent = '';
    showError(e.title ?? `The link could not be made: ${e.message}`, e.hint ?? 'Use Download report (JSON) instead.');
  } finally {
    ui.shareLink.disabled = !report;
  }
});
ui.shareClose.addEventListener('click', () => {
  ui.sharePanel.hidden = true;
  ui.shareLink.focus();
});

const SHARE_PREFIX = '#report=';
async function openSharedLink() {
  loadId += 1;  // a load in progress no longer shows
  const id = loadId;
  if (!ui.loader.hidden) {
    stopWorker();  // the link replaces a trace being opened
    setBusy(false);
  }
  hideError();
  report = null;
  clearReport();
  setShareActions(false);
  ui.welcome.hidden = true;
  ui.status.textContent = 'Opening the report in the link…';
  try {
    const { decodeShare } = await import('./share.mjs');
    const shared = await decodeShare(location.hash);
    if (id !== loadId) return;
    report = shared;
    renderedViews.clear();
    renderReport(shared);
    document.body.dataset.cycles = 'ready';  // the link carries them
    setShareActions(true);
    ui.sharedNotice.textContent = shared.dropped.length
      ? `This report came from a link made with sollens ${shared.version}. It was too big for a link: these tables are empty here: ${shared.dropped.join(', ')}. Open the trace itself to see them.`
      : `This report came from a link made with sollens ${shared.version}. Open the trace itself to recompute it (another device, corrected models).`;
    ui.sharedNotice.hidden = false;
    ui.status.textContent = `Opened the report of ${shared.name} from the link.`;
    document.body.dataset.state = 'loaded';
    showView(currentView);
  } catch (e) {
    if (id !== loadId) return;
    ui.status.textContent = '';
    if (e.title) showError(e.title, e.hint);
    else showError(`This share link could not be opened: ${e.message}.`, 'Ask for the link again, or for the trace file itself.');
    document.body.dataset.state = 'error';
  }
}

// Opening a trace replaces a report from a link: drop the link from the address so
// that a reload shows what is on screen.
function leaveSharedLink() {
  ui.sharedNotice.hidden = true;
  if (location.hash.startsWith(SHARE_PREFIX)) history.replaceState(null, '', location.pathname + location.search);
}

// The view is drawn again, so that its controls show what the report really is.
function sharedCannotRecompute() {
  ui.status.textContent = 'This report came from a link and has no trace behind it: open the trace to recompute it.';
  renderedViews.delete(currentView);
  showView(currentView);
  return false;
}

// ?trace=URL: open a trace from another site (it must allow CORS). The URL is the
// user's own (typed or followed); it is shown while loading and in every error.
function openTraceParameter(value) {
  let url;
  try {
    url = new URL(value, location.href);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    showError(`The trace address in this page's link is not a web address: ${value}`,
      'Only http:// and https:// addresses can be opened (?trace=https://…/trace.json.gz).');
    document.body.dataset.state = 'error';
    return;
  }
  if (location.protocol === 'https:' && url.protocol === 'http:') {
    showError(`This page cannot fetch a plain http:// address: ${url.href}`,
      'Browsers block http:// requests from an https:// page (mixed content). Use an https:// address for the trace.');
    document.body.dataset.state = 'error';
    return;
  }
  if (url.username || url.password) {
    showError(`The trace address contains a user name or password: ${url.origin}`,
      'Addresses with credentials are not fetched. Use an address that needs none.');
    document.body.dataset.state = 'error';
    return;
  }
  const name = decodeURIComponent(url.pathname.split('/').pop() || url.hostname);
  startLoad({ type: 'open', url: url.href, name, remote: true }, url.href);
  ui.status.textContent = `Loading the trace from ${url.href} (the address given after ?trace= in this page's link).`;
}

window.addEventListener('hashchange', () => {
  if (location.hash.startsWith(SHARE_PREFIX)) openSharedLink();
});

const traceParameter = new URLSearchParams(location.search).get('trace');
if (location.hash.startsWith(SHARE_PREFIX)) {
  openSharedLink();  // no worker: the report is in the link
} else if (traceParameter) {
  openTraceParameter(traceParameter);
} else {
  ensureWorker();  // start compiling the module while the user picks a file
}
// --- end h-share ---------------------------------------------------------------------
