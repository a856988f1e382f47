// The page's state, in one place: what is shown and what the views remember.
// Modules read and write `app` directly; the functions below keep the parts that
// belong together consistent.

export const app = {
  // The shown report: a load's DONE message with the later REPORT and CYCLES merged in
  // (so that a view being drawn for it stays current), or the report from a share link
  // (shared: true). null while none is shown. Its HTA sheets come after it (the
  // worker's HTA message): report.htaPending until they are in report.report.sheets,
  // report.htaError when they failed.
  report: null,
  currentView: 'overview',
  version: '',       // the core's version (the worker's READY), for the export's "generator"
  devices: [],       // the device database's ids, for device selectors
  cyclesAsked: false,  // the cycles under way were asked for by the cycles view
  // The options of the last report asked of the worker for this trace, by the names
  // Session.reportOptionsJson() gives them ({device, corrected, includeUnlinked, ...});
  // one not set is at the core's default (worker.mjs's reportWords).
  reportOptions: null,
  // The rank traces of one run read together (the worker's RANKS message: the
  // cross-rank sheets), and their files by name, to open a rank's own report; null
  // while none is open. They stay while a rank's report is shown.
  ranks: null,
  rankFiles: null,
  // The Execution Trace read beside the shown trace, or alone (the Solar view):
  // {name, pending, asked: {device}, result (worker.mjs's postSolar), ms, error: {title, hint}},
  // null when none. Opening another trace drops it (the worker's session holds it).
  solar: null,
};

// What each view was showing (drill-down choice, tabs, focused control), kept while
// the report or the cycles are recomputed and dropped when another trace is opened:
// a view's state is its own object, which only the view reads and writes.
let viewStates = new Map();
export function viewState(name) {
  if (!viewStates.has(name)) viewStates.set(name, {});
  return viewStates.get(name);
}

// Promises waiting for a part of the shown report that follows it, 'cycles' or 'hta'
// (report.cyclesPending, report.htaPending; the share link and the export carry them):
// settled when it arrives, fails, or the report is replaced.
const waiters = { cycles: [], hta: [] };
export function settle(part) {
  for (const resolve of waiters[part].splice(0)) resolve();
}
export const settled = (part) =>
  (app.report?.[`${part}Pending`] ? new Promise((resolve) => waiters[part].push(resolve)) : Promise.resolve());

// Drops what was kept for the last report (before another one is shown).
export function forgetKept() {
  viewStates = new Map();
  app.cyclesAsked = false;
  settle('cycles');
  settle('hta');
}
