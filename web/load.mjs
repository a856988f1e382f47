// Loading a trace: the engine (the worker running the core) and what the page shows
// while it works and when it answers: the loader and its progress, the report, the
// recomputed report and cycles, errors. How a load is started (file, drop, sample,
// ?trace=) is open.mjs's.

import { createEngine } from './engine.mjs';
import { ToWorker } from './messages.mjs';
import { fmtBytes, fmtFixed, fmtInt } from './format.mjs';
import { HTA_VIEWS, REPORT_VIEWS, redraw, redrawAll, resetViews, showView } from './router.mjs';
import { app, forgetKept, settle } from './state.mjs';
import { enableReportActions, hideError, isLoading, showError, ui } from './ui.mjs';
import { setCatalogue } from './views/diagnostics.mjs';
import * as overview from './views/overview.mjs';

export const engine = createEngine({
  onReady(msg) {
    // 'warm' once the worker has run the core over the bundled sample (worker.mjs).
    document.body.dataset.engine = msg.warm ? 'warm' : 'ready';
    ui.version.textContent = msg.version;
    app.version = msg.version;
    app.devices = msg.devices ?? [];
    // Once: the second READY (warm) carries the same catalogue, and drawing it again
    // would take the focus from an entry the reader has open.
    if (!msg.warm) setCatalogue(msg.diagnostics);
  },
  onProgress: showProgress,
  onDone: showLoaded,
  onReport: showRecomputedReport,
  onHta: showHta,
  onCycles: (msg) => showCycles(msg, true),
  onCyclesError: (msg) => showCycles(msg, false),
  onSol: showSol,
  onSolar: showSolar,
  onComparison: showComparison,
  onRanks: showRanks,
  onError(msg) {
    if (isReopening()) return reopenFailed(msg);
    thenCompare = null;
    thenSolar = null;
    ui.status.textContent = '';  // e.g. "Loading the trace from …"
    settle('cycles');
    // A failed open keeps the report shown, with its trace (the worker kept it).
    if (app.report) app.solar = solarBefore;
    askHtaAgain();
    setBusy(false);
    showError(msg.title, app.report ? `${msg.hint} The report shown before, ${app.report.name}, stays below.` : msg.hint, msg.code);
    document.body.dataset.state = app.report ? 'loaded' : 'error';
  },
  onCrash() {
    showError('The loading worker could not start.',
      'Reload the page. If you host it yourself, serve .mjs files as text/javascript and sollens.wasm as application/wasm.');
    setBusy(false);
  },
});

// A trace to open once the load under way is done, compared with it (two files
// dropped at once): {source, name}.
let thenCompare = null;
let comparing = false;  // the load under way is compared with the shown trace when done
let thenSolar = null;  // an Execution Trace to read once the load under way is done (a File)

// A load replaces the shown report only once it succeeds: until then the report stays
// (hidden under the loader), and a failed open shows its error over it, with the same
// views and address. The worker keeps the shown trace until the new one is read
// (worker.mjs setAside), so the report's recomputes still work after a failure.
// Cancelling stops the worker and with it that trace: the report stays, and its source
// is read again in the background (reopening: that load's id) before it recomputes.
let loadingSource = null;  // the source of the load under way, kept with its report
let solarBefore = null;  // app.solar while a load is under way (the worker keeps it on failure)
let reopening = null;
const isReopening = () => reopening !== null && reopening === engine.currentLoad;

// source: what the worker opens (messages.mjs's OPEN; compare: true keeps the shown
// trace as the baseline); displayName: what the page calls it; then: a trace to open
// next and compare with this one.
export function startLoad(source, displayName, then = null, executionTrace = null) {
  thenCompare = then;
  thenSolar = executionTrace;
  reopening = null;
  solarBefore = app.solar;
  comparing = Boolean(source.compare);
  loadingSource = { ...source, compare: undefined };
  hideError();
  // The status line is the live region: it says a load started (and, when it is done,
  // that it ended); the progress bar's ticks are not read out.
  ui.status.textContent = `Opening ${displayName}…`;
  setBusy(true, displayName);
  engine.open(source);
}

// Several rank traces of one run (files: [{file, name}], sorted): the ranks view shows
// them side by side. What was shown goes; each rank's file is kept to open its report.
export function startRanksLoad(files, displayName) {
  reopening = null;
  forgetRanks();
  thenCompare = null;
  thenSolar = null;
  app.solar = null;  // the worker's session, which holds the Execution Trace, is replaced
  comparing = false;
  hideError();
  ui.status.textContent = `Opening ${displayName}…`;
  app.report = null;
  clearShown();
  enableReportActions(false);
  app.rankFiles = new Map(files.map(({ file, name }) => [name, file]));
  app.currentView = 'ranks';
  setBusy(true, displayName);
  engine.openRanks(files);
}

// The rank set is let go (another trace or set was opened).
export function forgetRanks() {
  app.ranks = null;
  app.rankFiles = null;
  resetViews(['ranks']);
  redraw('ranks');
}

function showRanks(msg) {
  app.ranks = msg.ranks;
  redraw('ranks');
  const { ranks, skipped } = msg.ranks;
  ui.status.textContent = `Read ${ranks.length} rank traces: the Ranks view shows them side by side.${
    skipped.length ? ` Set aside (PyTorch Execution Traces, no timings): ${skipped.join(', ')}.` : ''}`;
  document.body.dataset.state = 'ranks';
  enableReportActions(true);  // Copy link and Download take the rank set on the Ranks view
  setBusy(false);
}

export function cancelLoad() {
  thenCompare = null;
  thenSolar = null;
  engine.abandon();
  engine.stop();  // parsing is one synchronous call in the worker: stop the worker
  setBusy(false);
  document.body.dataset.state = 'cancelled';
  ui.openFile.focus();
  if (app.report && !app.report.shared && app.report.source) return reopenShown();
  ui.status.textContent = 'Loading cancelled. Open a trace to continue.';
  if (!app.report) ui.welcome.hidden = false;
}

// The shown report's trace read again into a fresh worker, quietly: the report and its
// views stay as they are; until it is in, a recompute says to wait.
function reopenShown() {
  app.solar = null;  // the Execution Trace was in the stopped worker
  redraw('solar');
  ui.status.textContent = `Loading cancelled: ${app.report.name} stays. Its trace is read again in the background, for its views to recompute.`;
  engine.open(app.report.source);
  reopening = engine.currentLoad;
}

let reopenedLoad = null;  // its cycles (the worker detects them again) leave the shown ones
function reopened() {
  reopenedLoad = reopening;
  reopening = null;
  // Its HTA sheets are the default report's: the shown report's are asked for instead.
  if (app.report.htaPending) skipHta = 1;
  askHtaAgain();
  ui.status.textContent = `${app.report.name} is read again: its views recompute as before.`;
}

function reopenFailed(msg) {
  reopening = null;
  app.report.detached = true;
  showError(`Loading was cancelled, and ${app.report.name} could not be read again: ${msg.title}`,
    'The report stays as it was, but it cannot be recomputed: open its trace again for that.');
}

// A recompute asked while the shown trace is read again (after a cancel), or after that
// failed: the status line says so, and nothing is asked.
function notBehindYet() {
  if (isReopening()) ui.status.textContent = 'The trace is being read again after the cancel: try again in a moment.';
  else if (app.report?.detached) ui.status.textContent = 'Loading was cancelled and this trace could not be read again: open it again to recompute.';
  else return false;
  return true;
}

// Another report replaces whatever is being loaded or shown (a share link's): returns
// the load it is, for isCurrentLoad.
export function replaceShown() {
  const load = engine.abandon();  // a load in progress no longer shows
  if (isLoading()) {
    engine.stop();
    setBusy(false);
  }
  hideError();
  app.report = null;
  clearShown();
  enableReportActions(false);
  return load;
}

// Whether nothing replaced that load since (another trace or link was opened).
export const isCurrentLoad = (load) => load === engine.currentLoad;

// Draws a report that replaces the shown one: the overview now, the other views when shown.
export function drawReport(loaded) {
  redrawAll();
  clearShown();
  overview.render(loaded);
}

// Empties every view, and forgets what they kept for the last report.
function clearShown() {
  resetViews();
  forgetKept();
  delete document.body.dataset.cycles;
  delete document.body.dataset.hta;
  overview.clear();
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
    showView(app.currentView);
  }
}

// A view asks for the report or the cycles again (another device, mode or order):
// both return whether the request went to the worker (not for a report from a link).
// The report's options not given stay as last asked (the roofline's device and
// corrected toggle, the overview's unlinked GPU events).
export function requestReport(options = {}) {
  if (app.report.shared) return sharedCannotRecompute();
  if (notBehindYet()) return false;
  const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  const next = { ...app.reportOptions, ...given };
  if (!engine.requestReport(next)) return false;
  app.reportOptions = next;
  return true;
}

export function requestCycles({ mode = 'all', order = 'stream' } = {}) {
  if (app.report.shared) return sharedCannotRecompute();
  if (notBehindYet()) return false;
  if (!engine.running) return false;
  app.cyclesAsked = true;
  return engine.requestCycles({ mode, order });
}

// Speed of light for the SOL view, computed when first asked for (it builds a second
// event tree, with the python frames).
export function requestSol({ device = '', efficiency = 1, capture = null } = {}) {
  if (app.report.shared) return sharedCannotRecompute();
  if (notBehindYet()) return false;
  if (!engine.requestSol({ device, efficiency, capture })) return false;
  app.report.solPending = true;
  return true;
}

// --- the time axis (views/timeline.mjs; web/timeline/CONTRACT.md) -------------------
// Built by the worker when the view first asks (not with the report, whose time it
// would add to): kept as app.report.timeAxis, and the view drawn again when it comes.
// A recomputed report keeps it (the events do not change); another trace drops it.
const NO_TRACE_BEHIND = 'This report came from a link and has no trace behind it: open the trace to see its time axis.';

export function requestTimeAxis() {
  const { report } = app;
  if (!report) return Promise.reject(new Error('No trace is open.'));
  if (report.timeAxis) return Promise.resolve(report.timeAxis);
  if (report.shared) return Promise.reject(new Error(NO_TRACE_BEHIND));
  if (notBehindYet()) return Promise.reject(new Error(ui.status.textContent));
  report.timeAxisPromise ??= engine.ask(ToWorker.TIME_AXIS, { device: app.reportOptions?.device ?? '' }).then(
    (msg) => {
      if (app.report === report) Object.assign(report, { timeAxis: msg.timeAxis, timeAxisError: null });
      redrawTimeline(report);
      return msg.timeAxis;
    },
    (e) => {
      // Kept as the answer (asking again would fail the same way); the view that asked
      // shows it, so the view is not drawn again here.
      report.timeAxisError = e.message;
      throw e;
    });
  return report.timeAxisPromise;
}

function redrawTimeline(report) {
  if (app.report !== report) return;
  redraw('timeline');
  showView(app.currentView);
}

// Asked of the worker about the shown trace: each a Promise (rejected with the words to show).
function askTrace(type, fields, pick) {
  if (!app.report) return Promise.reject(new Error('No trace is open.'));
  if (app.report.shared) return Promise.reject(new Error(NO_TRACE_BEHIND));
  if (notBehindYet()) return Promise.reject(new Error(ui.status.textContent));
  return engine.ask(type, fields).then(pick);
}
export const eventDetail = (row) => askTrace(ToWorker.EVENT_DETAIL, { row }, (msg) => msg.detail);
export const rangeSummary = (startUs, endUs) =>
  askTrace(ToWorker.RANGE_SUMMARY, { startUs, endUs }, (msg) => msg.summary);
export const trimmedTrace = (startUs, endUs) =>
  askTrace(ToWorker.TRIM, { startUs, endUs }, (msg) => ({ bytes: msg.bytes, name: msg.name }));

// The view is drawn again, so that its controls show what the report really is.
function sharedCannotRecompute() {
  ui.status.textContent = 'This report came from a link and has no trace behind it: open the trace to recompute it.';
  redraw(app.currentView);
  showView(app.currentView);
  return false;
}

// Stage 1 of 3: the events are parsed as the file is read; 2: the event tree; 3: the sheets.
function showProgress({ phase, done, total, events, elapsedMs, item, items, itemName }) {
  ui.progress.max = Math.max(total, 1);
  ui.progress.value = Math.min(done, total);
  // Several rank traces: which one (the bar is that file's).
  if (items) ui.loaderName.textContent = `trace ${item} of ${items}: ${itemName}`;
  if (phase === 'read') {
    ui.progressLabel.textContent = 'Step 1 of 3: reading and parsing the file';
    ui.progressDetail.textContent = `${fmtBytes(done)} of ${fmtBytes(total)} read${readRate(done, elapsedMs)}, ${fmtInt(events)} events`;
  } else if (phase === 'parse') {
    ui.progressLabel.textContent = 'Step 2 of 3: linking events';
    ui.progressDetail.textContent = `${fmtInt(events)} events read; building the event tree`;
  } else {
    ui.progressLabel.textContent = 'Step 3 of 3: computing the report';
    ui.progressDetail.textContent = `${fmtInt(events)} events; every sheet, as the CLI computes them`;
  }
}

// " at 412 MiB/s" of the file as it is on disk (in the units of the sizes beside it);
// nothing in the first 200 ms, before a rate means anything.
function readRate(bytes, elapsedMs) {
  if (!(elapsedMs > 200) || !(bytes > 0)) return '';
  return ` at ${fmtFixed(bytes / 2 ** 20 / (elapsedMs / 1e3), 0)} MiB/s`;
}

// The report comes first; the cycles follow in their own message.
function showLoaded(msg) {
  if (isReopening()) return reopened();
  app.solar = null;  // the worker's session, which held the Execution Trace, is replaced
  msg.source = loadingSource;  // to read it again after a cancelled load
  app.report = msg;
  app.reportOptions = {};  // the first report's: every option at the core's default
  msg.cycles = null;
  msg.cyclesPending = true;
  msg.htaPending = true;
  msg.htaError = null;
  skipHta = 0;
  msg.comparisonPending = comparing;  // the worker posts it after the cycles
  msg.version = app.version;  // for the export's "generator"
  enableReportActions(true);
  drawReport(msg);
  document.body.dataset.cycles = 'pending';  // after drawReport: it clears the last report's
  document.body.dataset.hta = 'pending';
  setBusy(false);
  const t = msg.timings;
  ui.status.textContent = `Opened ${msg.name}: ${fmtInt(msg.info.events)} events in ${fmtFixed(t.totalMs / 1000, 2)} s.${
    msg.cutShort ? ' The file is cut short: only the events before the cut were read.' : ''}`;
  document.body.dataset.state = 'loaded';
  if (thenCompare) {
    const { source, name } = thenCompare;
    startLoad({ ...source, compare: true }, name, null, thenSolar);
  } else if (thenSolar) {
    openExecutionTrace(thenSolar);
    thenSolar = null;
  }
}

// A PyTorch Execution Trace, read beside the shown Kineto trace (or alone): the Solar
// view shows it. One dropped while a trace loads is read once that load is done.
export function openExecutionTrace(file) {
  if (isLoading()) {
    thenSolar = file;
    ui.status.textContent = `${file.name} will be read once the trace is open.`;
    return;
  }
  hideError();
  app.solar = { name: file.name, pending: true, asked: { device: '' } };
  ui.status.textContent = `Reading the Execution Trace ${file.name}…`;
  engine.requestSolar({ file, device: '' });
  redraw('solar');
  showView('solar');
}

// Solar again for another device (its Execution Trace stays read).
export function requestSolar({ device = '' } = {}) {
  if (!app.solar || !engine.requestSolar({ device })) return false;
  app.solar.pending = true;
  app.solar.asked = { device };
  return true;
}

// A failed recompute keeps the figures shown (the view says why); a failed read has
// none to keep.
function showSolar(msg) {
  const { solar } = app;
  if (!solar) return;
  solar.pending = false;
  if (msg.solar) {
    solar.result = msg.solar;
    solar.ms = msg.ms ?? null;
    solar.error = null;
    ui.status.textContent = `Solar: ${msg.solar.name} read${msg.solar.measured ? `, linked with ${app.report?.name ?? 'the open trace'}` : ''}.`;
  } else {
    solar.error = { title: msg.title, hint: msg.hint };
    ui.status.textContent = msg.title;
  }
  redraw('solar');
  showView(app.currentView);
}

// The shown trace compared with the kept one: the compare view shows it.
export function requestComparison({ swapped = false, names } = {}) {
  if (!app.report || app.report.shared || !engine.running || notBehindYet()) return false;
  return engine.requestComparison({ swapped, names });
}

function showComparison(msg) {
  const { report } = app;
  if (!report) return;
  report.comparison = msg.comparison ?? null;
  report.comparisonPending = false;
  report.comparisonError = msg.comparison ? null : msg.title;
  ui.status.textContent = msg.comparison
    ? `Compared ${msg.comparison.variant} (variant) with ${msg.comparison.baseline} (baseline).` : msg.title;
  redraw('compare');
  showView('compare');
}

function showRecomputedReport(msg) {
  // Merged into the same object: a view being drawn for this load stays current.
  if (!app.report) return;
  app.report.report = msg.report;
  app.report.gpuTimeline = msg.gpuTimeline;
  app.report.htaPending = true;
  app.report.htaError = null;
  document.body.dataset.hta = 'pending';
  overview.render(app.report);
  redraw(...REPORT_VIEWS);
  showView(app.currentView);
  // The redrawn view replaces its own "Recomputing…" status: say it is done here.
  ui.status.textContent = 'The report was recomputed: the views show its new figures.';
}

// The HTA sheets of the report shown, asked with its options (app.reportOptions): after
// a failed open the worker still holds its trace, but the sheets it was computing were
// for a load since replaced, and never came.
let skipHta = 0;  // HTA messages still to come that are not the shown report's
function askHtaAgain() {
  if (!app.report?.htaPending || app.report.shared) return;
  if (!engine.requestHta(app.reportOptions ?? {})) showHta({ title: 'The trace is no longer open in the page, so its Holistic Trace Analysis sheets could not be computed: open it again.' });
}

// Merged into the shown report, before its verdict (where the CLI writes them); the
// views that read them are drawn again.
function showHta(msg) {
  const { report } = app;
  if (!report?.htaPending) return;
  if (skipHta > 0) {
    skipHta -= 1;
    return;
  }
  report.htaPending = false;
  if (msg.hta) {
    const sheets = report.report.sheets;
    const verdict = sheets.findIndex((s) => s.name === 'verdict');
    sheets.splice(verdict < 0 ? sheets.length : verdict, 0, ...msg.hta.sheets);
    report.htaMs = msg.hta.ms ?? null;
    report.htaError = null;
  } else {
    report.htaError = msg.title;
  }
  document.body.dataset.hta = msg.hta ? 'ready' : 'error';
  redraw(...HTA_VIEWS);
  settle('hta');
  showView(app.currentView);
}

function showCycles(msg, detected) {
  const { report } = app;
  if (!report || (report.cycles && !app.cyclesAsked && engine.currentLoad === reopenedLoad)) return;
  // Announced (the status is a live region) when asked for, or when the cycles view
  // was waiting for them on screen.
  if (app.cyclesAsked) ui.status.textContent = detected ? 'The cycles were detected again.' : msg.title;
  else if (app.currentView === 'cycles' && !ui.status.textContent.endsWith('Cycles detected.'))
    ui.status.textContent = `${ui.status.textContent} Cycles detected.`.trim();
  app.cyclesAsked = false;
  if (detected) {
    report.cycles = msg.cycles;
    report.cyclesMs = msg.ms ?? null;
    report.cyclesError = null;
  } else {
    // A failed recompute keeps the cycles on screen (the status line says why); with
    // none to show, the view says it.
    report.cyclesError = report.cycles ? null : msg.title;
  }
  report.cyclesPending = false;
  document.body.dataset.cycles = detected ? 'ready' : 'error';
  redraw('cycles');
  settle('cycles');
  showView(app.currentView);
}

// A failed recompute keeps the speed of light on screen (the status line says why).
function showSol(msg) {
  const { report } = app;
  if (!report) return;
  report.solPending = false;
  if (msg.error) {
    report.solError = report.sol ? null : msg.error;
    if (app.currentView === 'sol' || app.currentView === 'llm') ui.status.textContent = msg.error;
  } else {
    report.sol = msg.sol;
    report.solMs = msg.ms ?? null;
    report.solError = null;
  }
  redraw('sol', 'llm');  // the LLM view reads the phase sheets of the speed of light
  showView(app.currentView);
}
