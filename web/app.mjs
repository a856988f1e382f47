// The page: wires the frame (index.html) to the modules that do the work, and opens
// what the address asks for. No analysis happens in the page: the numbers are the
// core's (worker.mjs, through engine.mjs). Text that comes from a trace or a file name
// is only ever set with textContent / attributes, never parsed as HTML.
//
//   open.mjs     opening a trace: file picker, sample, drag and drop, ?trace=URL
//   load.mjs     the engine and what the page shows while it loads and when it answers
//   router.mjs   which view is shown; drawing the views (views/*.mjs) of the report
//   state.mjs    the shown report and what the views keep
//   actions/     Download report (JSON), Copy link and opening a #report= link
//   ui.mjs       the frame's elements: loader, error box, status line, share panel

import { wireExportReport } from './actions/export-report.mjs';
import { hasSharedLink, notInLink, openSharedLink, wireShareLink } from './actions/share-link.mjs';
import { engine, eventDetail, openExecutionTrace, rangeSummary, requestComparison, requestCycles, requestReport, requestSol, requestSolar,
  requestTimeAxis, trimmedTrace } from './load.mjs';
import { openRank, openToCompare, openTraceParameter, wireOpening } from './open.mjs';
import { setViewRequests, showView, viewInAddress } from './router.mjs';
import { wireDiagnostics } from './views/diagnostics.mjs';
import { wireOverview } from './views/overview.mjs';

setViewRequests({ requestReport, requestCycles, requestSol, requestComparison, openToCompare, openRank, requestSolar, openExecutionTrace,
  notInLink, requestTimeAxis, eventDetail, rangeSummary, trimmedTrace });
wireOverview({ requestReport });
wireOpening();
wireDiagnostics();
for (const b of document.querySelectorAll('nav [data-view]'))
  b.addEventListener('click', () => showView(b.dataset.view));
document.body.dataset.state = 'empty';
const traceParameter = new URLSearchParams(location.search).get('trace');
// ?view=NAME opens the report on that view (router.mjs keeps the shown view there).
const addressedView = viewInAddress();
showView(addressedView && (hasSharedLink() || traceParameter) ? addressedView : 'overview');

wireExportReport();
wireShareLink();

if (hasSharedLink()) {
  openSharedLink();  // no worker: the report is in the link
} else if (traceParameter) {
  openTraceParameter(traceParameter);
} else {
  engine.start();  // start compiling the module while the user picks a file
}
