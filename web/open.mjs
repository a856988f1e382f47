// Opening a trace: the file picker, the sample, drag and drop anywhere on the page,
// Escape to cancel, and ?trace=URL. Loading it is load.mjs's.

import { leaveSharedLink } from './actions/share-link.mjs';
import { cancelLoad, startLoad } from './load.mjs';
import { isLoading, showError, ui } from './ui.mjs';

const SAMPLE = { url: 'samples/h100-bert-small.json.gz', name: 'h100-bert-small.json.gz (sample)' };

// Opening a trace replaces a report from a link (and the link in the address).
function open(source, displayName, then = null) {
  leaveSharedLink();
  startLoad(source, displayName, then);
}

function openFile(file) {
  if (!file) return;
  open({ file }, file.name);
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
    const files = e.dataTransfer?.files;
    if (!files || files.length === 0) return;
    if (isLoading()) cancelLoad();
    if (files.length === 2) {
      // Two runs: the first is the baseline, the second the variant (swappable in the view).
      open({ file: files[0] }, files[0].name, { source: { file: files[1] }, name: files[1].name });
      return;
    }
    openFile(files[0]);
    if (files.length > 2) ui.status.textContent = `Several files dropped; opening ${files[0].name} (drop two to compare them).`;
  });
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
