// Which view is shown (the sidebar's buttons), and drawing the views of the shown report.
//
// Every view but the overview (views/overview.mjs, drawn as soon as a report arrives)
// is a module under views/ exporting
//   render(section, context)
// called when the view is first shown for a report (again after the report or the
// cycles are recomputed). section is the view's <section>, to fill; context is
//   {report: loaded.report, cycles: loaded.cycles, info: loaded.info, name, devices,
//    cyclesPending (the cycles are still being detected: they come after the report),
//    cyclesError (text, when their detection failed), cyclesMs (how long it took),
//    state (the view's own object, kept across recomputes of this trace's report and
//    cycles: what the view wants to show the same way again),
//    requestReport({device, corrected, includeUnlinked, detectRecompute}) (options left out stay as last
//    asked), requestCycles({mode, order}), showView(name),
//    sol, solPending, solError, solMs, requestSol({device, efficiency}) (the SOL view:
//    speed of light is computed when first asked for)}
//    comparison (null, or the shown trace compared with another: worker.mjs's
//    postComparison), comparisonPending (it comes after the report), comparisonError, shared (a report from a link: no trace behind it),
//    requestComparison({swapped}), openToCompare(file),
//    dropped (the names of the sheets left empty to fit the share link the report came from),
//    reportOptions (app.reportOptions: the options the shown report was asked with, by the page's names),
//    solar (app.solar: the Execution Trace read beside the trace, or alone), requestSolar({device}),
//    openExecutionTrace(file),
//    timeAxis (the time axis's sheets once built, else null), timeAxisPending, timeAxisError,
//    requestTimeAxis() (a Promise; the timeline view is drawn again when it comes),
//    eventDetail(row), rangeSummary(startUs, endUs), trimmedTrace(startUs, endUs) (each a
//    Promise: web/timeline/CONTRACT.md)}
// The Solar view is also drawn with no report (an Execution Trace opened alone, or none
// yet): its context then has report null.
// (the report model is described at the top of worker.mjs). A view not listed here
// keeps its placeholder text.
//
// The ranks view (views/ranks.mjs) is drawn from the rank set (app.ranks), which
// outlives the shown report (a rank's own report opens beside it): its context is
//   {ranks: app.ranks, shownName (the shown report's name, or null), state,
//    openRank(file name), showView(name)}

import { app, viewState } from './state.mjs';
import { isLoading, ui } from './ui.mjs';

const VIEW_MODULES = new Set(['timeline', 'llm', 'ops', 'kernels', 'roofline', 'collectives', 'critical-path', 'launch-delays', 'cycles', 'sol', 'solar', 'compare', 'sql']);
const RANK_SET_VIEWS = new Set(['ranks']);  // drawn from app.ranks, not from the shown report
const shownData = (name) => (RANK_SET_VIEWS.has(name) ? app.ranks : app.report);
// The views drawn from the report (drawn again when it is recomputed); the cycles view
// is drawn from the cycles alone.
// The views that read HTA's sheets, drawn again when they come (the SQL view adds them
// to its tables itself).
export const HTA_VIEWS = ['critical-path', 'launch-delays'];
export const REPORT_VIEWS = ['timeline', 'llm', 'ops', 'kernels', 'roofline', 'collectives', 'critical-path', 'launch-delays', 'sql'];
const renderedViews = new Set();

// How a view asks for a recomputed report or cycles (set by app.mjs): both return
// whether the request went to the worker.
let requests = { requestReport: () => false, requestCycles: () => false, requestSol: () => false,
  requestComparison: () => false, openToCompare: () => {}, openRank: () => {}, requestSolar: () => false,
  openExecutionTrace: () => {}, requestTimeAxis: noTrace, eventDetail: noTrace, rangeSummary: noTrace,
  trimmedTrace: noTrace };
function noTrace() {
  return Promise.reject(new Error('No trace is open.'));
}
export function setViewRequests(r) {
  requests = r;
}

export function showView(name) {
  app.currentView = name;
  addressView(name);
  for (const b of document.querySelectorAll('nav [data-view]')) {
    if (b.dataset.view === name) b.setAttribute('aria-current', 'page');
    else b.removeAttribute('aria-current');
  }
  const loading = isLoading();
  for (const v of document.querySelectorAll('section.view')) {
    // The overview needs a trace; the placeholders say what is coming either way.
    const isPlaceholder = v.classList.contains('placeholder');
    v.hidden = loading || v.dataset.view !== name || (!isPlaceholder && !hasContent(v.dataset.view));
  }
  ui.welcome.hidden = loading || Boolean(app.report) || (name !== 'overview');
  if (hasContent(name) && !loading) renderView(name);
}

// The shown view is in the address (?view=NAME, none for the overview), so that the
// address names it: a reload, or the address sent with ?trace= or #report=, opens on it.
export const VIEW_PARAMETER = 'view';
function addressView(name) {
  const url = new URL(location.href);
  if ((url.searchParams.get(VIEW_PARAMETER) ?? 'overview') === name) return;
  if (name === 'overview') url.searchParams.delete(VIEW_PARAMETER);
  else url.searchParams.set(VIEW_PARAMETER, name);
  history.replaceState(history.state, '', url.href);
}
// The view an address names, if the page has it.
export function viewInAddress() {
  const name = new URLSearchParams(location.search).get(VIEW_PARAMETER);
  return name && document.querySelector(`nav [data-view="${CSS.escape(name)}"]`) ? name : null;
}

// Whether a view has what it is drawn from: the rank set for the ranks view, else the
// report; Solar is drawn without one too (an Execution Trace opened alone, or its button
// to open one).
const hasContent = (name) => (RANK_SET_VIEWS.has(name) ? Boolean(app.ranks) : Boolean(app.report) || name === 'solar');

// The views are drawn again (with the shown report's new figures) when next shown.
export function redraw(...names) {
  for (const name of names) renderedViews.delete(name);
}
export function redrawAll() {
  renderedViews.clear();
}

const viewSection = (name) => document.querySelector(`section.view[data-view="${name}"]`);
// Each view's placeholder as index.html has it, put back when another trace is opened:
// a failed load then shows the placeholders, and the previous trace's tables (and the
// columns they hold) are let go at once.
const placeholders = new Map([...VIEW_MODULES, ...RANK_SET_VIEWS].map((name) =>
  [name, [...viewSection(name).childNodes].map((n) => n.cloneNode(true))]));
// The views of the shown report by default; the ranks view when its rank set goes.
export function resetViews(names = VIEW_MODULES) {
  for (const name of names) {
    const nodes = placeholders.get(name);
    const section = viewSection(name);
    section.replaceChildren(...nodes.map((n) => n.cloneNode(true)));
    section.classList.add('placeholder');
  }
}

async function renderView(name) {
  if (!(VIEW_MODULES.has(name) || RANK_SET_VIEWS.has(name)) || renderedViews.has(name)) return;
  renderedViews.add(name);
  const section = viewSection(name);
  const shown = shownData(name);
  if (requests.notInLink?.(name)) return showNotInLink(section);
  try {
    const module = await import(`./views/${name}.mjs`);
    if (shownData(name) !== shown) return;  // another trace was opened meanwhile
    section.classList.remove('placeholder');
    await module.render(section, RANK_SET_VIEWS.has(name) ? ranksContext() : viewContext(name));
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

// A report from a share link carries only the views it was made on (share.mjs).
function showNotInLink(section) {
  const h = document.createElement('h2');
  h.textContent = document.querySelector(`nav [data-view="${section.dataset.view}"]`)?.textContent.trim() ?? '';
  const p = document.createElement('p');
  p.className = 'empty-state not-in-link';
  p.textContent = 'This view is not in this link: open the trace to see it (a link carries the view it was made on and the overview).';
  section.replaceChildren(h, p);
  section.classList.remove('placeholder');
}

function ranksContext() {
  return { ranks: app.ranks, shownName: app.report?.name ?? null, state: viewState('ranks'),
    openRank: (name) => requests.openRank(name), showView };
}

function viewContext(name) {
  const report = app.report ?? {};
  return {
    report: app.report ? report.report : null,
    cycles: report.cycles,
    cyclesPending: Boolean(report.cyclesPending),
    cyclesError: report.cyclesError ?? null,
    cyclesMs: report.cyclesMs ?? null,
    htaPending: Boolean(report.htaPending),
    htaError: report.htaError ?? null,
    info: report.info,
    name: report.name,
    devices: app.devices,
    state: viewState(name),
    requestReport: (options = {}) => requests.requestReport(options),
    requestCycles: (options = {}) => requests.requestCycles(options),
    sol: report.sol ?? null,
    solPending: Boolean(report.solPending),
    solError: report.solError ?? null,
    solMs: report.solMs ?? null,
    requestSol: (options = {}) => requests.requestSol(options),
    comparison: report.comparison ?? null,
    comparisonError: report.comparisonError ?? null,
    comparisonPending: Boolean(report.comparisonPending),
    shared: Boolean(report.shared),
    dropped: report.dropped ?? [],  // sheets left empty to fit the share link the report came from
    reportOptions: app.reportOptions ?? {},  // the options the report was asked with ({} at the core's defaults)
    requestComparison: (options = {}) => requests.requestComparison(options),
    openToCompare: (file) => requests.openToCompare(file),
    solar: app.solar,
    requestSolar: (options = {}) => requests.requestSolar(options),
    openExecutionTrace: (file) => requests.openExecutionTrace(file),
    timeAxis: report.timeAxis ?? null,
    timeAxisPending: Boolean(report.timeAxisPromise) && !report.timeAxis,
    timeAxisError: report.timeAxisError ?? null,
    requestTimeAxis: () => requests.requestTimeAxis(),
    eventDetail: (row) => requests.eventDetail(row),
    rangeSummary: (startUs, endUs) => requests.rangeSummary(startUs, endUs),
    trimmedTrace: (startUs, endUs) => requests.trimmedTrace(startUs, endUs),
    showView,
  };
}
