// Opening a trace: the file picker, the sample, drag and drop anywhere on the page,
// Escape to cancel, and ?trace=URL. Loading it is load.mjs's. A PyTorch Execution
// Trace (told by its content: sniff.mjs) goes to the Solar view, beside the trace
// dropped with it or the one shown.

import { leaveSharedLink } from './actions/share-link.mjs';
import { cancelLoad, openExecutionTrace, startLoad } from './load.mjs';
import { traceKind } from './sniff.mjs';
import { isLoading, showError, ui } from './ui.mjs';

const SAMPLE = { url: 'samples/h100-bert-small.json.gz', name: 'h100-bert-small.json.gz (sample)' };

// Opening a trace replaces a report from a link (and the link in the address).
function open(source, displayName, then = null, executionTrace = null) {
  leaveSharedLink();
  startLoad(source, displayName, then, executionTrace);
}

async function openFile(file) {
  if (!file) return;
  const { kinds, keepState } = await identify([file]);
  if (kinds[0] === 'et') {
    keepState();
    openExecutionTrace(file);
  } else {
    open({ file }, file.name);
  }
}

// The files' kinds (sniff.mjs). Reading their first bytes takes a moment: meanwhile the
// page's state says a file is being opened, as a load's does; keepState() puts the
// state back when no trace is loaded after all (an Execution Trace alone).
async function identify(files) {
  const before = document.body.dataset.state;
  document.body.dataset.state = 'opening';
  const kinds = await Promise.all(files.map(traceKind));
  const keepState = () => {
    if (document.body.dataset.state === 'opening') document.body.dataset.state = before;
  };
  return { kinds, keepState };
}

// The shown trace becomes the baseline, this file the variant (views/compare.mjs).
export function openToCompare(file) {
  if (!file) return;
  open({ file, compare: true }, file.name);
}

export function wireOpening() {
  ui.openFile.addEventListener('click', () => ui.fileInput.click());
  ui.fileInput.addEventListener('change', () => {
    openFile(ui.fileInput.files[0]);
    ui.fileInput.value = '';  // choosing the same file again opens it again
  });
  ui.openSample.addEventListener('click', () => open({ url: SAMPLE.url, name: SAMPLE.name }, SAMPLE.name));
  ui.cancel.addEventListener('click', cancelLoad);
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && isLoading()) cancelLoad();
  });
  wireDragAndDrop();
}

// Drag and drop anywhere on the page.
function wireDragAndDrop() {
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
    const files = [...(e.dataTransfer?.files ?? [])];
    if (files.length > 0) openDropped(files);
  });
}

// Kineto traces (one, or two to compare) and an Execution Trace, read after them.
async function openDropped(files) {
  const { kinds, keepState } = await identify(files);
  const executionTraces = files.filter((_, i) => kinds[i] === 'et');
  const traces = files.filter((_, i) => kinds[i] !== 'et');
  const executionTrace = executionTraces[0] ?? null;
  const extraEt = executionTraces.length > 1 ? ` Several Execution Traces dropped; reading ${executionTrace.name}.` : '';
  if (traces.length === 0) {
    keepState();
    openExecutionTrace(executionTrace);  // beside the shown trace (after the one loading)
    if (extraEt) ui.status.textContent += extraEt;
    return;
  }
  if (isLoading()) cancelLoad();
  if (traces.length === 2) {
    // Two runs: the first is the baseline, the second the variant (swappable in the view).
    open({ file: traces[0] }, traces[0].name, { source: { file: traces[1] }, name: traces[1].name }, executionTrace);
  } else {
    open({ file: traces[0] }, traces[0].name, null, executionTrace);
    if (traces.length > 2) ui.status.textContent = `Several files dropped; opening ${traces[0].name} (drop two to compare them).`;
  }
  if (extraEt) ui.status.textContent += extraEt;
}

// ?trace=URL: open a trace from another site (it must allow CORS). The URL is the
// user's own (typed or followed); it is shown while loading and in every error.
export function openTraceParameter(value) {
  const url = traceUrl(value);
  if (!url) {
    document.body.dataset.state = 'error';
    return;
  }
  const name = decodeURIComponent(url.pathname.split('/').pop() || url.hostname);
  open({ url: url.href, name, remote: true }, url.href);
  ui.status.textContent = `Loading the trace from ${url.href} (the address given after ?trace= in this page's link).`;
}

// The address to fetch, or null when it cannot be fetched (the error says why).
function traceUrl(value) {
  let url;
  try {
    url = new URL(value, location.href);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    showError(`The trace address in this page's link is not a web address: ${value}`,
      'Only http:// and https:// addresses can be opened (?trace=https://…/trace.json.gz).');
    return null;
  }
  if (location.protocol === 'https:' && url.protocol === 'http:') {
    showError(`This page cannot fetch a plain http:// address: ${url.href}`,
      'Browsers block http:// requests from an https:// page (mixed content). Use an https:// address for the trace.');
    return null;
  }
  if (url.username || url.password) {
    showError(`The trace address contains a user name or password: ${url.origin}`,
      'Addresses with credentials are not fetched. Use an address that needs none.');
    return null;
  }
  return url;
}
