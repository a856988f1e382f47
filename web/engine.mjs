// The engine client: the page's side of the loading worker (worker.mjs), which runs
// the C++ core. It owns the worker and its protocol (messages.mjs): every load gets a
// new id, and what the worker still says about a replaced load is dropped here, so
// the page only ever hears about the load it is showing.
//
//   const engine = createEngine({onReady, onProgress, onDone, onReport, onHta, onCycles,
//                                onCyclesError, onSol, onSolar, onComparison, onRanks, onError, onCrash})
// Each handler receives the worker's message as it is (messages.mjs lists them);
// onCrash(event): the worker itself failed (it could not start); it is stopped.
// The time axis's requests are asked (engine.ask): each returns a Promise of the
// worker's reply, rejected when the reply has an error (an Error whose `code` is the
// diagnostics catalogue's, or ''), or when another load replaces this one or the worker
// stops before it comes.

import { FromWorker, ToWorker, messageRouter } from './messages.mjs';

// ?read=two-parts or ?read=one-pass in the page's address decides how a large plain-JSON
// trace is read (worker.mjs, "read in two parts at once"), whatever the machine, for
// benchmarks and tests; otherwise the worker decides by the cores the browser reports.
// ?read=stalling: one pass, every read into a reused buffer taken for stalled at once
// (a test of the page's way around a browser's read that never answers).
const READ_MODES = ['two-parts', 'one-pass', 'stalling'];
function workerUrl() {
  const url = new URL('./worker.mjs', import.meta.url);
  const mode = globalThis.location ? new URL(globalThis.location.href).searchParams.get('read') : null;
  if (READ_MODES.includes(mode)) url.searchParams.set('read', mode);
  return url;
}
const startWorker = () => new Worker(workerUrl(), { type: 'module', name: 'sollens' });

// createWorker is for tests (a stand-in with postMessage, terminate, onmessage and
// onerror); the page uses the module worker.
export function createEngine(handlers, { createWorker = startWorker } = {}) {
  let worker = null;
  let loadId = 0;
  let askId = 0;
  const asked = new Map();  // ask → {resolve, reject}

  const route = messageRouter(FromWorker, {
    [FromWorker.READY]: handlers.onReady,
    [FromWorker.PROGRESS]: handlers.onProgress,
    [FromWorker.DONE]: handlers.onDone,
    [FromWorker.REPORT]: handlers.onReport,
    [FromWorker.HTA]: handlers.onHta,
    [FromWorker.CYCLES]: handlers.onCycles,
    [FromWorker.CYCLES_ERROR]: handlers.onCyclesError,
    [FromWorker.SOL]: handlers.onSol,
    [FromWorker.SOLAR]: handlers.onSolar,
    [FromWorker.COMPARISON]: handlers.onComparison,
    [FromWorker.RANKS]: handlers.onRanks,
    [FromWorker.TIME_AXIS]: settle,
    [FromWorker.EVENT_DETAIL]: settle,
    [FromWorker.RANGE_SUMMARY]: settle,
    [FromWorker.TRIM]: settle,
    [FromWorker.ERROR]: handlers.onError,
  });

  function receive(message) {
    // READY is about the worker, not a load; the others are for the current load only.
    if (message?.type !== FromWorker.READY && message?.id !== loadId) return;
    if (!route(message)) console.error('sollens: a message of no known type from the worker', message?.type);
  }

  function settle(message) {
    const waiting = asked.get(message.ask);
    if (!waiting) return;
    asked.delete(message.ask);
    if (message.error) waiting.reject(Object.assign(new Error(message.error), { code: message.code ?? '' }));
    else waiting.resolve(message);
  }

  // The asks of a load that is no longer shown (or of a stopped worker) never get a reply.
  function dropAsks(why) {
    for (const { reject } of asked.values()) reject(new Error(why));
    asked.clear();
  }

  function start() {
    if (worker) return;
    worker = createWorker();
    worker.onmessage = (event) => receive(event.data);
    worker.onerror = (event) => {
      event.preventDefault?.();
      stop();
      handlers.onCrash(event);
    };
  }

  function stop() {
    dropAsks('the page stopped reading this trace');
    worker?.terminate();
    worker = null;
  }

  // A request about the current load: false when there is no worker to ask.
  function request(message) {
    if (!worker) return false;
    worker.postMessage({ ...message, id: loadId });
    return true;
  }

  return {
    // Starts the worker (and so the module's compilation) ahead of the first load.
    start,
    // Stops the worker: the only way to cancel a parse, one synchronous call in it.
    stop,
    get running() { return worker !== null; },
    // The current load's id: each open or abandon makes a new one.
    get currentLoad() { return loadId; },
    // Forgets the current load (nothing more is heard about it); returns the new id,
    // for a load the page makes itself (a report from a share link).
    abandon() {
      dropAsks('another report is shown');
      return ++loadId;
    },
    // source: {file} or {url, name} or {url, name, remote: true}, each with compare: true
    // to compare it with the open trace (messages.mjs).
    open(source) {
      dropAsks('another trace was opened');
      loadId += 1;
      start();
      request({ type: ToWorker.OPEN, ...source });
    },
    // files: [{file, name}], the rank traces of one run (messages.mjs's OPEN_RANKS).
    openRanks(files) {
      dropAsks('another trace was opened');
      loadId += 1;
      start();
      request({ type: ToWorker.OPEN_RANKS, files });
    },
    // options: the report options by the names the module gives them (messages.mjs).
    requestReport: (options) => request({ type: ToWorker.REPORT, ...options }),
    requestCycles: ({ mode, order }) => request({ type: ToWorker.CYCLES, mode, order }),
    // The shown report's HTA sheets again (options: the report's), answered by HTA.
    requestHta: (options) => request({ type: ToWorker.HTA, ...options }),
    // capture: the trace of the graph capture the open trace replays, read first.
    requestSol: ({ device, efficiency, capture }) => request({ type: ToWorker.SOL, device, efficiency, capture }),
    // file: an Execution Trace to read first (none: Solar again for another device).
    // Starts the worker when none runs (an Execution Trace opened alone).
    requestSolar({ file, device }) {
      start();
      return request({ type: ToWorker.SOLAR, file, device });
    },
    requestComparison: ({ swapped, names }) => request({ type: ToWorker.COMPARE, swapped, names }),
    // A time-axis request (ToWorker.TIME_AXIS, EVENT_DETAIL, RANGE_SUMMARY, TRIM with its
    // fields): a Promise of the reply (messages.mjs).
    ask(type, fields = {}) {
      const ask = ++askId;
      return new Promise((resolve, reject) => {
        asked.set(ask, { resolve, reject });
        if (!request({ type, ...fields, ask })) {
          asked.delete(ask);
          reject(new Error('no trace is being read: open one first'));
        }
      });
    },
  };
}
