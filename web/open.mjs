// Opening a trace: the file picker, the sample, drag and drop anywhere on the page,
// Escape to cancel, and ?trace=URL. Loading it is load.mjs's.
//
// Several files dropped or chosen at once: one trace opens; two ask whether they are
// two runs to compare (the first the baseline) or two ranks of one run; three or more,
// or a folder of them, are the ranks of one run (the Ranks view). A PyTorch Execution
// Trace (told by its content: sniff.mjs) goes to the Solar view, beside the trace
// opened with it or the one shown; beside rank traces it is set aside.

import { leaveSharedLink, openSollensFile } from './actions/share-link.mjs';
import { cancelLoad, forgetRanks, openExecutionTrace, startLoad, startRanksLoad } from './load.mjs';
import { droppedFiles, isTraceName, pickedFiles } from './open-many.mjs';
import { traceKind } from './sniff.mjs';
import { app } from './state.mjs';
import { hideError, isLoading, showError, ui } from './ui.mjs';
import { el } from './widgets.mjs';

const SAMPLE = { url: 'samples/h100-bert-small.json.gz', name: 'h100-bert-small.json.gz (sample)' };

// Opening a trace replaces a report from a link (and the link in the address).
function open(source, displayName, then = null, executionTrace = null) {
  leaveSharedLink();
  closeTwoChoice();
  forgetRanks();
  startLoad(source, displayName, then, executionTrace);
}

// A rank's own report, from the Ranks view: the rank set stays (the Ranks view keeps it).
export function openRank(name) {
  const file = app.rankFiles?.get(name);
  if (!file) {
    if (app.ranks?.shared)
      showError(`${name} is not here: this rank set came from a link or a .sollens file, which holds the cross-rank sheets only.`,
        'Open the rank traces themselves (Choose rank traces… or Choose a folder…) to see each rank\'s own report.');
    return;
  }
  leaveSharedLink();
  app.currentView = 'overview';
  startLoad({ file }, name);
}

function openRanks(files, displayName) {
  leaveSharedLink();
  closeTwoChoice();
  startRanksLoad(files, displayName);
}

function openFile(file) {
  if (file) openSeveral([{ file, name: file.name }]);
}

// The files' kinds (sniff.mjs). Reading their first bytes takes a moment: meanwhile the
// page's state says a file is being opened, as a load's does; keepState() puts the
// state back when no trace is loaded after all (an Execution Trace alone).
async function identify(files) {
  const before = document.body.dataset.state;
  document.body.dataset.state = 'opening';
  const kinds = await Promise.all(files.map((f) => traceKind(f.file)));
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
  wireRankPickers();
}

// The Ranks view's pickers (in its placeholder and in the drawn view, so listened to
// on the document): several files, or a folder.
function wireRankPickers() {
  document.addEventListener('click', (e) => {
    const id = e.target?.closest?.('button')?.id;
    if (id === 'ranks-choose-files') document.getElementById('ranks-file-input')?.click();
    if (id === 'ranks-choose-folder') document.getElementById('ranks-folder-input')?.click();
  });
  document.addEventListener('change', (e) => {
    const input = e.target;
    if (input?.id !== 'ranks-file-input' && input?.id !== 'ranks-folder-input') return;
    const folder = input.id === 'ranks-folder-input';
    const files = pickedFiles(input.files).filter((f) => !folder || isTraceName(f.name));
    input.value = '';
    openSeveral(files, { asRanks: true });
  });
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
    const take = droppedFiles(e.dataTransfer);
    if (!e.dataTransfer?.files?.length) return;
    if (isLoading()) cancelLoad();
    take().then((files) => openSeveral(files), (err) =>
      showError(`The dropped folder could not be read: ${err?.message ?? err}`, 'Drop the trace files themselves instead.'));
  });
}

// What several files are (see the top of this file). asRanks: chosen as rank traces
// (the Ranks view's pickers), so two are two ranks, not two runs.
async function openSeveral(files, { asRanks = false } = {}) {
  if (files.length === 0) {
    showError('There is no trace in what was dropped or chosen.', 'Choose .json or .json.gz traces as torch.profiler writes them (a folder\'s other files are left out).');
    return;
  }
  if (files.length > 1) ui.status.textContent = `Looking at ${files.length} files…`;
  const { kinds, keepState } = await identify(files);
  const sollens = files.findIndex((_, i) => kinds[i] === 'sollens');
  if (sollens >= 0) {
    keepState();
    if (files.length > 1) ui.status.textContent = `Opening ${files[sollens].name} alone (a .sollens file is a whole report).`;
    closeTwoChoice();
    forgetRanks();
    openSollensFile(files[sollens].file);
    return;
  }
  const traces = files.filter((_, i) => kinds[i] !== 'et');
  const executionTraces = files.filter((_, i) => kinds[i] === 'et');
  const executionTrace = executionTraces[0]?.file ?? null;
  const extraEt = executionTraces.length > 1 ? ` Several Execution Traces: reading ${executionTraces[0].name}.` : '';
  if (traces.length === 0) {
    keepState();
    openExecutionTrace(executionTrace);  // beside the shown trace (after the one loading)
  } else if (traces.length === 1) {
    open({ file: traces[0].file }, traces[0].name, null, executionTrace);
  } else if (traces.length === 2 && !asRanks) {
    keepState();
    askTwo(traces, executionTrace);
  } else {
    openRanks(traces, `${traces.length} rank traces`);
    if (executionTraces.length) {
      ui.status.textContent += ` Set aside (PyTorch Execution Traces; open one with a single rank's trace for Solar): ${executionTraces.map((f) => f.name).join(', ')}.`;
    }
    return;
  }
  if (extraEt) ui.status.textContent += extraEt;
}

// Two traces: two runs to compare, or two ranks of one run? The user says.
let twoChoice = null;
function askTwo([a, b], executionTrace = null) {
  closeTwoChoice();
  hideError();
  const panel = el('div', 'notice two-traces');
  panel.id = 'two-traces';
  panel.setAttribute('role', 'group');
  panel.setAttribute('aria-labelledby', 'two-traces-text');
  const text = el('p', '', `Two traces: ${a.name} and ${b.name}. Are they two runs to compare, or two ranks of one run?`);
  text.id = 'two-traces-text';
  const button = (id, label, act) => {
    const x = el('button', '', label);
    x.type = 'button';
    x.id = id;
    x.addEventListener('click', act);
    return x;
  };
  panel.append(text,
    button('two-compare', `Compare them (${a.name} is the baseline)`, () =>
      open({ file: a.file }, a.name, { source: { file: b.file }, name: b.name }, executionTrace)),
    button('two-ranks', 'Open them as ranks', () => openRanks([a, b], '2 rank traces')),
    button('two-cancel', 'Cancel', closeTwoChoice));
  ui.status.after(panel);
  twoChoice = panel;
  ui.status.textContent = 'Two traces dropped: compare them, or open them as ranks of one run?';
  panel.querySelector('#two-compare').focus();
}

function closeTwoChoice() {
  twoChoice?.remove();
  twoChoice = null;
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
