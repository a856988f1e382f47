// The loading worker (a module worker): owns the wasm module and the loaded trace.
// It reads the file in chunks straight into a buffer in wasm memory (nothing whole
// in the JS heap), decompressing .gz with DecompressionStream on the way, then asks
// the C++ core to parse and analyse it. Everything analysis-specific happens in C++;
// this file only moves bytes and hands the core's JSON to the page.
//
// The messages in and out, and what they carry: messages.mjs.
//
// The report model (what every view reads; typed arrays are transferred, not copied):
//   report = {device: {status, id, name, notice, ...}, rooflineCeilings, timingsMs,
//             includeUnlinked (GPU events with no launch in the trace counted),
//             detectRecompute (is_recompute columns), sheets: [sheet]}
//   rooflineCeilings = {"matrix_bf16": {peak: 'bf16', tflops}, ...}: the device's dense
//            ceiling per Compute Spec, as the core maps them ({} for an unknown GPU)
//   cycles = {summary, kernels, preambles: [string], sheets: [sheet]}
//   sheet  = {name, kind, rows, columns: [column]}   (TraceLens's sheet and column names;
//            kind: 'timeline'|'summary'|'histogram'|'perf_model'|'unified_perf'|'collectives'|'cycles')
//   column = {name, type: 'string'|'int'|'float'|'bool', unit: '' | 'µs' | 'ms' | '%' | 'GFLOP' |
//             'MB' | 'TFLOPS/s' | 'TB/s' | 'GB/s' | 'FLOP/B', validity: Uint8Array (1 = value),
//             values: Float64Array (numbers; null cells hold 0)            for non-strings,
//             codes: Int32Array (-1 = null), dictionary: [string]         for strings}
// Cancelling is terminating this worker (the page does it): parsing is one
// synchronous call, and a new load frees the previous trace anyway.
import { compileModule, failed, instantiate } from './core-module.mjs';
import { readSheet } from './report-model.mjs';
import { STALL_MS, StalledRead, reusedBufferReader } from './reused-buffer-reader.mjs';
import { FromPart, FromReader, FromWorker, ToPart, ToReader, ToWorker, messageRouter } from './messages.mjs';
import { findEventSplit } from './split-point.mjs';

const PROGRESS_INTERVAL_MS = 50;
// The command line's words for it (core/ingest/trace_reader.cpp), where the core
// decompresses the file itself.
const GROW_FACTOR = 1.5;
const SLICE_BYTES = 8 << 20;

let modulePromise = null;
let session = null;
// A comparison's baseline: the trace that was open when another was opened to compare
// with it (OPEN with compare: true); any other open frees it.
let baseline = null;
let sessionName = '';
// Where the open trace came from ({file} or {url, remote}), to read it again: the
// streamed load keeps no text, and a trimmed trace is cut from the original bytes.
let sessionSource = null;
let baselineName = '';

// The compiled module is kept, to start the second instance of a parallel read
// (part-worker.mjs) without compiling again.
let wasmModule = null;
const loadModule = () => (modulePromise ??= compileModule().then((module) => {
  wasmModule = module;
  return instantiate(module);
}).then((sollens) => {
  reportOptions = JSON.parse(sollens.Session.reportOptionsJson());
  return sollens;
}));
// The report options as the module lists them (core/api/report_flags.def):
// [{flag, name (as the page's messages name it), value (null for a switch), help}].
let reportOptions = [];

// What the user is told: title, hint and, where one applies, the diagnostics catalogue's
// code (core/base/diagnostics.def: 'out_of_memory', 'not_json', ...), which every notice
// posted carries as `code` so that the page can link it to the catalogue's entry.
class UserError extends Error {
  constructor(title, hint, code = '') {
    super(title);
    this.title = title;
    this.hint = hint;
    this.code = code;
  }
}

// The core's error ({code, message}: a load's status, or a JSON answer's "error") as a
// UserError: `what` leads the title, the core's words follow.
const coreError = (what, error, hint = '') => new UserError(`${what}: ${message(error.message)}.`, hint, error.code);
// The code a notice carries: a UserError's, else none (an unexpected failure).
const codeOf = (e) => (e instanceof UserError ? e.code : '');

// Opens run one after another: each sets the open traces aside and reads into
// `session`, so two at once (a trace opened while the shown one is read again after a
// cancel) would read into the same session.
let opening = Promise.resolve();
let openAsked = false;  // the warm-up stops between its rounds once a trace is asked for
const inTurn = (task) => (msg) => {
  openAsked = true;
  // A task that throws past its own handling must not stop the ones after it.
  opening = opening.then(() => task(msg)).catch((e) => self.postMessage({ type: FromWorker.ERROR, id: msg.id,
    title: `Something went wrong while opening: ${message(e)}.`, hint: 'Reload the page and try again.', code: '' }));
};

// A message of no known type is ignored.
const route = messageRouter(ToWorker, {
  [ToWorker.OPEN]: inTurn(open),
  [ToWorker.REPORT]: postReport,
  [ToWorker.CYCLES]: (msg) => postCycles(msg.id, msg.mode, msg.order),
  [ToWorker.HTA]: (msg) => postHta(msg.id, msg),
  [ToWorker.SOL]: postSol,
  [ToWorker.SOLAR]: postSolar,
  [ToWorker.COMPARE]: (msg) => postComparison(msg.id, Boolean(msg.swapped), msg.names),
  [ToWorker.OPEN_RANKS]: inTurn(openRanks),
  [ToWorker.TIME_AXIS]: postTimeAxis,
  [ToWorker.EVENT_DETAIL]: postEventDetail,
  [ToWorker.RANGE_SUMMARY]: postRangeSummary,
  [ToWorker.TRIM]: postTrim,
});
self.onmessage = (event) => route(event.data);

loadModule().then(
  async (m) => {
    const ready = (warm) => self.postMessage({ type: FromWorker.READY, version: m.version(),
      devices: JSON.parse(m.Session.deviceNamesJson()), diagnostics: JSON.parse(m.diagnosticsCatalogueJson()), warm });
    ready(false);
    await warmUp(m);
    ready(true);
  },
  () => {},  // reported on the first open
);

// The bundled sample read, reported and its cycles found WARM_UP_ROUNDS times while the
// user picks a file: the browser runs new WebAssembly code unoptimized at first and
// optimizes what has run often, so the user's first trace meets optimized code (after
// three rounds owlv2's first read took 0.47 s, as later ones; after one, 0.75-0.85 s).
// A trace asked for stops it after the round under way, so that it does not wait for
// the rest. Anything failing here is ignored: the page works the same without it, only
// slower on the first trace.
const WARM_UP_SAMPLE = 'samples/h100-bert-small.json.gz';
const WARM_UP_ROUNDS = 3;
async function warmUp(sollens) {
  let warm = null;
  try {
    const response = await fetch(WARM_UP_SAMPLE);
    if (!response.ok) return;
    const sample = await response.blob();
    for (let round = 0; round < WARM_UP_ROUNDS && !(round > 0 && openAsked); round++) {
      warm?.delete();
      warm = new sollens.Session();
      await streamInto(sollens, warm, await blobSource(sample), () => {});
      warm.buildReport(['--no-hta']);
      warm.buildHta([]);
      warm.buildCycles('all', 'stream');
    }
  } catch {
    // see above
  } finally {
    try {
      warm?.delete();
    } catch {
      // deleted already, by streamInto on a failed load
    }
  }
}

// PROGRESS messages of one load (or one file of several: `item`), at most one per
// PROGRESS_INTERVAL_MS unless forced, each with the time since the poster was made.
function progressPoster(id, item = {}) {
  const t0 = performance.now();
  let lastPost = 0;
  return (phase, done, total, events, force) => {
    const now = performance.now();
    if (!force && now - lastPost < PROGRESS_INTERVAL_MS) return;
    lastPost = now;
    self.postMessage({ type: FromWorker.PROGRESS, id, phase, done, total: Math.max(total, done), events,
      elapsedMs: now - t0, ...item });
  };
}

async function open({ id, file, url, name, remote, compare }) {
  const t0 = performance.now();
  const progress = progressPoster(id);
  try {
    let sollens;
    try {
      sollens = await loadModule();
    } catch (e) {
      throw new UserError(`The WebAssembly module could not be started: ${message(e)}`,
        'Use a current browser (Chrome, Edge, Firefox or Safari) and reload the page. If you host the page yourself, serve sollens.wasm as application/wasm.');
    }
    aside = setAside(Boolean(compare));

    let source;
    if (remote) {
      source = await remoteSource(url);
    } else {
      let blob = file;
      if (url) {
        let response;
        try {
          response = await fetch(url);
        } catch (e) {
          throw new UserError(`The sample could not be fetched: ${message(e)}`, 'Check that the page is still being served, then try again.');
        }
        if (!response.ok)
          throw new UserError(`The sample could not be fetched (HTTP ${response.status}).`,
            'Build the page first (bash .ci/dev.sh main copies the sample next to it), then reload.');
        blob = await response.blob();
      }
      source = await blobSource(blob);
    }
    name = name ?? file.name;
    sessionName = name;
    sessionSource = file ? { file } : { url, remote: Boolean(remote) };
    const { fileBytes, gzip } = source;
    session = new sollens.Session();
    const { read, streamMs, finishMs, parts } = splitsWell(source)
      ? await streamInTwoParts(sollens, session, source, progress)
      : await streamInto(sollens, session, source, progress);
    dropAside(aside);
    aside = null;
    const tParse = performance.now();
    const info = JSON.parse(session.infoJson());
    // The core's words for a file cut short (core/ingest/cut_short.h), as the CLI's.
    const warnings = JSON.parse(session.warningsJson());
    const cutShort = warnings.some((w) => w.code === 'truncated' || w.code === 'gzip_truncated');
    const cutShortLoss = warnings.find((w) => w.code === 'cut_short_gpu')?.message ?? '';
    const traceMetadata = session.traceMetadataJson();  // JSON text: keeps 64-bit ints exact
    const gpuTimeline = JSON.parse(session.gpuTimelineJson(false));
    progress('analyse', 1, 1, info.events ?? 0, true);
    const report = buildReport();
    const tDone = performance.now();
    self.postMessage({
      type: FromWorker.DONE, id, name, fileBytes: remote ? read : fileBytes, gzip, cutShort, cutShortLoss, diagnostics: warnings, info, traceMetadata, gpuTimeline, report,
      timings: { readMs: streamMs, treeMs: finishMs, analyseMs: tDone - tParse, totalMs: tDone - t0, parts: parts ?? 1,
        readAgain: Boolean(source.readAgain) },
    }, transferables(report));
  } catch (e) {
    if (session) {
      session.delete();
      session = null;
    }
    restoreAside(aside);
    aside = null;
    if (e instanceof UserError) self.postMessage({ type: FromWorker.ERROR, id, title: e.title, hint: e.hint, code: e.code });
    else
      self.postMessage({ type: FromWorker.ERROR, id, title: `Something went wrong while opening the trace: ${message(e)}.`, code: '',
        hint: 'Reload the page and try again. If it happens again with this trace, please report it with the trace attached if you can share it.' });
    return;
  }
  // HTA's sheets and the cycles after the report, not before it: the page shows the
  // overview while they are computed, so their time no longer delays it (a 1 GB trace:
  // HTA's sheets ~0.9 s of a ~1.5 s report; owlv2: cycles ~45 ms of a ~0.5 s analysis,
  // timed under node). The cycles per stream, as the CLI (sollens cycles) and the core
  // default: the page shows the CLI's cycles until another order is asked for. A failure
  // here leaves the report standing.
  postHta(id);
  postCycles(id, 'all', 'stream');
  if (baseline || compare) postComparison(id, false);
}

// Several rank traces of one run (OPEN_RANKS): each is read and parsed in turn, its
// summary kept (core/api/rank_set.h) and its trace freed before the next, so only one
// trace is in memory at a time; then the cross-rank sheets. What was open is closed.
async function openRanks({ id, files }) {
  let ranks = null;
  try {
    const sollens = await loadModule();
    keepAsBaseline(false);
    session?.delete();
    session = null;
    sessionSource = null;
    ranks = new sollens.Ranks();
    const skipped = [];  // Execution Traces: no profiler events to summarise
    for (const [index, { file, name }] of files.entries()) {
      const progress = progressPoster(id, { item: index + 1, items: files.length, itemName: name });
      try {
        const source = await blobSource(file);
        session = new sollens.Session();
        await streamInto(sollens, session, source, progress);
      } catch (e) {
        if (e instanceof UserError) throw new UserError(`${name}: ${e.title}`, e.hint, e.code);
        throw e;
      }
      if (JSON.parse(session.warningsJson()).some((w) => w.code === 'execution_trace')) skipped.push(name);
      else {
        const added = ranks.add(session, name);
        if (failed(added)) throw coreError(`${name} could not be summarised`, added);
      }
      session.delete();
      session = null;
    }
    if (ranks.size() === 0)
      throw new UserError('None of these files is a Kineto trace with events.', 'Drop the rank traces that torch.profiler wrote (one .json or .json.gz per rank).');
    const described = JSON.parse(ranks.build());
    if (described.error) throw coreError('The ranks could not be compared', described.error);
    const result = { ranks: described.ranks, simplifiedMode: described.simplifiedMode,
      metadataMismatches: described.metadataMismatches, skipped,
      sheets: described.sheets.map((sheet) => readSheet(ranks, sheet)) };
    self.postMessage({ type: FromWorker.RANKS, id, ranks: result }, transferables(result));
  } catch (e) {
    session?.delete();
    session = null;
    if (e instanceof UserError) self.postMessage({ type: FromWorker.ERROR, id, title: e.title, hint: e.hint, code: e.code });
    else self.postMessage({ type: FromWorker.ERROR, id, title: `Something went wrong while reading the ranks: ${message(e)}.`, code: '',
      hint: 'Reload the page and try again.' });
  } finally {
    ranks?.delete();
  }
}

// Set once a read into a reused buffer stalled (reused-buffer-reader.mjs): the worker's
// later loads read as where the browser has no BYOB reader.
let reusedBuffersStalled = false;

// Streams `source` through `target`'s chunked reader (core/ingest/trace_stream.h): each
// piece, decompressed on the way for a .gz, is written into wasm memory and parsed as
// it arrives, so that neither the JS heap nor wasm memory ever holds the whole text,
// only the store the core keeps; then the event tree. progress(phase, done, total,
// events, force). A .gz cut short keeps what it held (the core is told, and warns as the
// command line does). Returns {read (bytes of the file), streamMs (reading and parsing),
// finishMs (the tree)}. A trace that cannot be read frees the session and throws.
// `part`: the first part of a read in two parts (streamInTwoParts): {begin (starts the
// core's reader), join (async, once this part is read: the second part handed to the
// core, or the status that says why not)}; a failure then returns {failed: status}
// instead of throwing, so that the file can be read again in one pass.
async function streamInto(sollens, target, source, progress, part = null) {
  const t0 = performance.now();
  const { fileBytes, gzip, capacity } = source;
  const begun = part ? part.begin() : target.beginStream(capacity);
  if (failed(begun)) throw coreError("This trace could not be read in the browser's memory", begun,
    'WebAssembly pages can use at most 4 GB. Use the sollens command line for this trace.');
  let written = 0;
  let read = 0;  // bytes of the file
  let stopped = false;  // the core refused a chunk: finishStream says why
  let { stream } = source;
  // Plain JSON from a file, read in one pass, is read here into one buffer used again
  // and again, where the browser can (reusedBufferReader). Not a two-part read's first
  // part: with the part worker's read of the same file at the same time, Chromium's BYOB
  // reads stalled for good in 3 loads of about 35 (web_split on a loaded machine).
  // Otherwise the file's side is read by another stream: {stream, read (bytes of the
  // file so far), ended (all of it was read)}, or null for plain JSON read here in slices.
  let reader = source.blob && !gzip && !part && !reusedBuffersStalled
    ? reusedBufferReader(source.blob, READ_MODE === 'stalling' ? 0 : STALL_MS) : null;
  let file = null;
  if (!reader) {
    file = source.blob ? readElsewhere(source.blob, gzip) : null;
    if (!file && gzip) file = inflateHere(stream);
    if (file) ({ stream } = file);
    reader = stream.getReader();
  }
  for (;;) {
    let result;
    try {
      result = await reader.read();
    } catch (e) {
      if (e instanceof StalledRead) {
        // Read again from the start, by the file-reading worker, in this load and the next.
        reusedBuffersStalled = true;
        source.readAgain = true;
        return streamInto(sollens, target, source, progress, part);
      }
      if (e instanceof UserError) throw e;
      // A gzip stream that stops short (a file cut while copied or written) fails
      // only once all of it was read, after handing on what it held: keep that, as
      // the command line does, and say so.
      if (gzip && file.ended && written > 0) {
        target.streamInputCutShort();
        break;
      }
      if (gzip)
        throw new UserError(`This .gz file could not be decompressed: ${message(e)}.`,
          'The file may be damaged or cut short. A gzip made of several members (pigz -i, or gzip files joined with cat) cannot be read by the browser: decompress it with gunzip and open the .json instead.',
          'gzip_corrupt');
      throw new UserError(`The file could not be read: ${message(e)}.`,
        'Choose the file again; it may have been moved, changed or removed since it was picked.');
    }
    if (result.done) break;
    const chunk = result.value;
    read = file ? file.read : read + chunk.byteLength;
    // HEAPU8 is replaced when wasm memory grows: always take the current view.
    const address = target.streamPrepare(chunk.byteLength);
    if (address) sollens.HEAPU8.set(chunk, address);
    if (!address || !target.streamCommit(chunk.byteLength)) {
      stopped = true;
      reader.cancel().catch(() => {});
      break;
    }
    written += chunk.byteLength;
    progress('read', read, fileBytes, target.streamEvents(), false);
  }
  if (file) read = file.read;
  progress('read', fileBytes, fileBytes, target.streamEvents(), true);
  if (written === 0 && !stopped)
    throw new UserError('This file is empty once decompressed.', 'Choose the trace file again.', 'gzip_empty');
  const joined = part && !stopped ? await part.join() : null;
  const tStream = performance.now();
  progress('parse', 0, 1, target.streamEvents(), true);
  // No second part joined (one pass, or a first part that stopped): the reader says how it ended.
  const status = !joined ? target.finishStream() : failed(joined) ? joined : target.finishFirstPart();
  const tDone = performance.now();
  // A part that failed for want of memory fails in one pass too; anything else may
  // be a cut that was not between two events, and is read again in one pass.
  if (part && failed(status) && status.code !== 'out_of_memory' && status.code !== 'trace_too_large') return { failed: status };
  if (failed(status)) {
    target.delete();
    if (target === session) session = null;
    if (status.code === 'out_of_memory' || status.code === 'trace_too_large')
      throw coreError("This trace is too large for the browser's memory", status,
        'WebAssembly pages can use at most 4 GB. Use the sollens command line for this trace.');
    throw coreError('This file is not a Kineto trace', status,
      'Open a PyTorch profiler trace: the .json or .json.gz that torch.profiler writes (export_chrome_trace or tensorboard_trace_handler).');
  }
  return { read, streamMs: tStream - t0, finishMs: tDone - tStream };
}

// --- a large plain-JSON trace read in two parts at once --------------------------------------
// The file is cut at a ',' between two events near its middle (split-point.mjs); this
// worker reads the first part and a second instance of the core, in a worker of its own
// (part-worker.mjs), the second, on the other core; the second part's rows are then
// appended to this store. Where the cut was not between two events, or either part
// fails, the file is read again in one pass (which gives the exact warnings and errors).
// Not for .gz (a deflate stream cannot be entered in the middle), nor past
// TWO_PARTS_MAX_BYTES: the second part's rows are held twice while they are handed
// over, which a trace near the 4 GB of WebAssembly memory cannot afford.
// Only with TWO_PARTS_MIN_CORES or more: each part's parse needs a core, and the reading
// of the file (the browser's own process), the worker that feeds the first part and the
// handing over need more. On the project's 2-core machine the two parts each ran at
// about 60 % of one pass's speed, and handing the rows over cost more than that saved
// (1 GB: 10.6 s to read and parse against 8.0 s in one pass; web/README.md).
// ?read=two-parts / ?read=one-pass in the page's address decide instead (engine.mjs).
const TWO_PARTS_MIN_BYTES = 16 << 20;
const TWO_PARTS_MAX_BYTES = 1.5 * 2 ** 30;
const TWO_PARTS_MIN_CORES = 4;
const SPLIT_WINDOW_BYTES = 4 << 20;
const READ_MODE = new URL(import.meta.url).searchParams.get('read') ?? 'auto';

const splitsWell = (source) => !source.gzip && Boolean(source.blob) && wasmModule !== null &&
  source.fileBytes >= TWO_PARTS_MIN_BYTES && source.fileBytes <= TWO_PARTS_MAX_BYTES &&
  (READ_MODE === 'two-parts' ||
   (READ_MODE === 'auto' && (self.navigator?.hardwareConcurrency ?? 1) >= TWO_PARTS_MIN_CORES));

async function streamInTwoParts(sollens, target, source, progress) {
  const { blob, fileBytes } = source;
  const middle = Math.floor(fileBytes / 2);
  const around = new Uint8Array(await readSlice(blob, middle, Math.min(fileBytes, middle + SPLIT_WINDOW_BYTES)));
  const split = findEventSplit(around, middle, middle);
  const second = split > 0 ? readSecondPart(blob, split, fileBytes) : null;
  if (!second) return streamInto(sollens, target, source, progress);
  const first = { fileBytes: split + 1, gzip: false, capacity: split + 1, blob: blob.slice(0, split + 1) };
  // The progress of both parts together.
  const both = (phase, done, total, events, force) =>
    progress(phase, phase === 'read' ? done + second.read : done, phase === 'read' ? fileBytes : total,
      events + second.events, force);
  let outcome;
  try {
    outcome = await streamInto(sollens, target, first, both, {
      begin: () => target.beginStreamPart(fileBytes, split, false),
      join: async () => {
        const answer = await second.answer;
        if (answer.failed) return answer.failed;
        let address;
        try {
          address = target.allocate(answer.bytes.byteLength);  // may grow memory: HEAPU8 after
        } catch {
          // No room for the second part beside the first: one pass needs less.
          return { code: 'split_missed', message: 'the second part does not fit beside the first' };
        }
        sollens.HEAPU8.set(answer.bytes, address);
        return { code: 'ok', message: '' };
      },
    });
  } finally {
    second.stop();
  }
  if (!outcome.failed) return { ...outcome, read: fileBytes, parts: 2 };
  return streamInto(sollens, target, source, progress);
}

// The second part read by part-worker.mjs: {answer (a Promise of {bytes} or {failed:
// {code, message}}), read, events (its progress so far), stop()}; null where no worker
// can start.
function readSecondPart(blob, split, fileBytes) {
  let worker;
  try {
    worker = new Worker(new URL('./part-worker.mjs', import.meta.url), { type: 'module' });
  } catch {
    return null;
  }
  const part = { read: 0, events: 0, stop: () => worker.terminate() };
  part.answer = new Promise((resolve) => {
    worker.onmessage = ({ data }) => {
      if (data.type === FromPart.PROGRESS) {
        part.read = data.read;
        part.events = data.events;
      } else if (data.type === FromPart.PART) {
        part.read = data.read;
        resolve({ bytes: data.bytes });
      } else if (data.type === FromPart.FAILED) {
        resolve({ failed: { code: data.code || 'split_missed', message: data.message } });
      }
    };
    worker.onerror = (e) => resolve({ failed: { code: 'split_missed', message: e.message || 'the second part\'s worker failed' } });
  });
  worker.postMessage({ type: ToPart.READ, module: wasmModule, blob, split, fileBytes });
  return part;
}

// A .json.gz decompressed on this thread, by the browser's DecompressionStream:
// {stream, read, ended}.
function inflateHere(gzStream) {
  const file = { read: 0, ended: false };
  file.stream = gzStream
    .pipeThrough(new TransformStream({
      transform(chunk, controller) {
        file.read += chunk.byteLength;
        controller.enqueue(chunk);
      },
      flush() {
        file.ended = true;
      },
    }))
    .pipeThrough(new DecompressionStream('gzip'));
  return file;
}

// The file read (and a .gz inflated) on a thread of its own (read-worker.mjs), so that
// the core parses one piece while the next is read: {stream, read, ended}; null where
// a worker cannot start one.
function readElsewhere(blob, gzip) {
  let reader;
  try {
    reader = new Worker(new URL('./read-worker.mjs', import.meta.url), { type: 'module' });
  } catch {
    return null;
  }
  const file = { read: 0, ended: false };
  const queue = [];  // messages not yet pulled
  let notify = null;
  reader.onmessage = ({ data }) => {
    queue.push(data);
    notify?.();
  };
  reader.onerror = (e) => {
    queue.push({ type: FromReader.ERROR, message: e.message || 'the file-reading worker failed', fileEnded: false });
    notify?.();
  };
  file.stream = new ReadableStream({
    async pull(controller) {
      while (queue.length === 0) await new Promise((resolve) => { notify = resolve; });
      notify = null;
      const msg = queue.shift();
      file.read = msg.read ?? file.read;
      if (msg.type === FromReader.DATA) {
        let bytes = 0;
        for (const chunk of msg.chunks) {
          controller.enqueue(chunk);
          bytes += chunk.byteLength;
        }
        reader.postMessage({ type: ToReader.CREDIT, bytes });
        return;
      }
      reader.terminate();
      if (msg.type === FromReader.END) {
        file.ended = true;
        controller.close();
      } else {
        file.ended = Boolean(msg.fileEnded);
        controller.error(new Error(msg.message));
      }
    },
    cancel() {
      reader.terminate();
    },
  }, { highWaterMark: 0 });
  reader.postMessage({ type: ToReader.READ, blob, gzip });
  return file;
}

// The open trace becomes the baseline (compare), or the baseline is freed.
// The traces open while another loads ({session, sessionName, sessionSource, baseline,
// baselineName}): kept until the new one is read, so that a failed open leaves the
// page's report with its trace behind it (recompute, SOL, cycles still answer). Two
// traces are in memory meanwhile, as when two are compared. With compare, the open
// trace becomes the baseline at once (the comparison is made with it).
let aside = null;
function setAside(compare) {
  const kept = { session, sessionName, sessionSource, baseline, baselineName };
  if (compare && session) {
    baseline = session;
    baselineName = sessionName;
  } else {
    baseline = null;
  }
  session = null;
  return kept;
}
// The new trace is in: what was set aside goes, but for the baseline it became.
function dropAside(kept) {
  for (const s of [kept?.session, kept?.baseline]) if (s && s !== baseline) s.delete();
}
// The new trace failed (its session already freed): the traces before it are back.
function restoreAside(kept) {
  if (!kept) return;
  ({ session, sessionName, sessionSource, baseline, baselineName } = kept);
}

function keepAsBaseline(compare) {
  if (compare && !session) return;  // nothing open: a plain open
  baseline?.delete();
  baseline = null;
  if (!compare) return;
  baseline = session;
  baselineName = sessionName;
  session = null;
}

// names: [baseline, variant], the runs' names in the compared columns (sollens diff
// --names); left out, the core's defaults.
function postComparison(id, swapped, names = ['', '']) {
  try {
    if (!session || !baseline) throw new UserError('Two traces must be open to compare them.', '');
    const [base, variant] = swapped ? [session, baseline] : [baseline, session];
    const described = JSON.parse(variant.buildComparison(base, String(names[0] ?? ''), String(names[1] ?? '')));
    if (described.error) throw coreError('The comparison failed', described.error);
    const comparison = {
      baseline: swapped ? sessionName : baselineName, variant: swapped ? baselineName : sessionName, swapped,
      names: described.names, sheets: described.sheets.map((sheet) => readSheet(variant, sheet)),
    };
    self.postMessage({ type: FromWorker.COMPARISON, id, comparison }, transferables(comparison));
  } catch (e) {
    self.postMessage({ type: FromWorker.COMPARISON, id, title: e instanceof UserError ? e.title : `The comparison failed: ${message(e)}.`,
      code: codeOf(e) });
  }
}

// The HTA sheets of the report just posted, asked with the same options.
function postHta(id, options = {}) {
  try {
    if (!session) throw new UserError('No trace is open.', 'Open a trace first.');
    const described = JSON.parse(session.buildHta(reportWords(options)));
    if (described.error) throw coreError('The Holistic Trace Analysis sheets could not be computed', described.error);
    const hta = { ms: described.ms, sheets: described.sheets.map((sheet) => readSheet(session, sheet)) };
    self.postMessage({ type: FromWorker.HTA, id, hta }, transferables(hta));
  } catch (e) {
    self.postMessage({ type: FromWorker.HTA, id, title: e instanceof UserError ? e.title : `The Holistic Trace Analysis sheets could not be computed: ${message(e)}.`,
      code: codeOf(e) });
  }
}

function postCycles(id, mode, order) {
  try {
    if (!session) throw new UserError('No trace is open.', 'Open a trace first.');
    const t0 = performance.now();
    const cycles = buildCycles(mode, order);
    self.postMessage({ type: FromWorker.CYCLES, id, cycles, ms: performance.now() - t0 }, transferables(cycles));
  } catch (e) {
    self.postMessage({ type: FromWorker.CYCLES_ERROR, id, title: e instanceof UserError ? e.title : `Cycle detection failed: ${message(e)}.`,
      code: codeOf(e) });
  }
}

// --- results as typed-array columns (the report model above) -------------------------
// The options the page set, by name ({device: 'MI300X', corrected: true, ...}), as the
// command-line words Session.buildReport reads; options left unset are not sent.
function reportWords(options) {
  return reportOptions.flatMap(({ flag, name, value }) => {
    const given = options[name];
    if (value === null) return given === true ? [flag] : [];
    return given === undefined || given === null || given === '' ? [] : [flag, String(given)];
  });
}

// The report without HTA's sheets (postHta sends them next).
function buildReport(options = {}) {
  const { includeUnlinked, detectRecompute } = options;
  const described = JSON.parse(session.buildReport([...reportWords(options), '--no-hta']));
  if (described.error) throw coreError('The report could not be computed', described.error,
    'Choose a device from the list, or leave it on "from the trace".');
  return { device: described.device, rooflineCeilings: described.rooflineCeilings, timingsMs: described.timingsMs,
    includeUnlinked: Boolean(includeUnlinked), detectRecompute: Boolean(detectRecompute),
    sheets: described.sheets.map((sheet) => readSheet(session, sheet)) };
}

// The report's gpu_timeline sheet as the overview's rows ({type, 'time ms', percent}).
function timelineRows(report) {
  const sheet = report.sheets.find((s) => s.name === 'gpu_timeline');
  if (!sheet) return [];
  const column = (name) => sheet.columns.find((c) => c.name === name);
  const [type, ms, percent] = [column('type'), column('time ms'), column('percent')];
  return Array.from({ length: sheet.rows }, (_, r) => ({
    type: type.dictionary[type.codes[r]],
    'time ms': ms.validity[r] ? ms.values[r] : null,
    percent: percent.validity[r] ? percent.values[r] : null,
  }));
}

function buildCycles(mode, order) {
  const described = JSON.parse(session.buildCycles(mode ?? 'all', order ?? 'stream'));
  if (described.error) throw coreError('Cycle detection failed', described.error);
  return { summary: described.summary, kernels: described.kernels, preambles: described.preambles,
    sheets: described.sheets.map((sheet) => readSheet(session, sheet)) };
}

// Speed of light: sol = sol.json's {device (the SOL device's name), device_identification,
// efficiency_factor, module_frames, notes, metrics: {name: value}} and sheets: [sheet]
// (core/api/page_session.h, core/writers/sol_json.h).
async function postSol({ id, device, efficiency, capture }) {
  try {
    if (!session) throw new UserError('No trace is open.');
    const t0 = performance.now();
    if (capture) await readCapture(await loadModule(), capture);
    const described = JSON.parse(session.buildSol(device ?? '', Number(efficiency ?? 1)));
    if (described.error) throw coreError('Speed of light could not be computed', described.error);
    const sol = { ...described, sheets: described.sheets.map((sheet) => readSheet(session, sheet)) };
    self.postMessage({ type: FromWorker.SOL, id, sol, ms: performance.now() - t0 }, transferables(sol));
  } catch (e) {
    self.postMessage({ type: FromWorker.SOL, id, error: e instanceof UserError ? e.title : `Speed of light could not be computed: ${message(e)}.`,
      code: codeOf(e) });
  }
}

// Solar: an Execution Trace read into the open session (a fresh one when no Kineto
// trace is open), then solar = {name, measured (linked to the Kineto trace), document
// (solar.json), summary, sheets} (core/api/page_session.h's buildSolar).
let executionTraceName = '';
async function postSolar({ id, file, device }) {
  try {
    const t0 = performance.now();
    const sollens = await loadModule();
    if (file) {
      session ??= new sollens.Session();
      await readExecutionTrace(sollens, file);
      executionTraceName = file.name;
    }
    if (!session) throw new UserError('No Execution Trace is open.', 'Drop one on the page.');
    const described = JSON.parse(session.buildSolar(device ?? ''));
    if (described.error) throw coreError('Solar could not be computed', described.error);
    const solar = { name: executionTraceName, measured: described.measured, document: described.solar,
      summary: described.summary, sheets: described.sheets.map((sheet) => readSheet(session, sheet)) };
    self.postMessage({ type: FromWorker.SOLAR, id, solar, ms: performance.now() - t0 }, transferables(solar));
  } catch (e) {
    const user = e instanceof UserError;
    self.postMessage({ type: FromWorker.SOLAR, id, title: user ? e.title : `Solar could not be computed: ${message(e)}.`,
      hint: user ? e.hint : '', code: codeOf(e) });
  }
}

// The trace of the graph capture whose graphs the open trace replays, read beside it.
async function readCapture(sollens, file) {
  await readIntoBuffer(sollens, file, 'Choose the graph-capture trace again.');
  const status = session.loadCapture();
  if (failed(status)) throw coreError(`${file.name} could not be read as the trace of a graph capture`, status,
    'Choose the Kineto trace recorded while the CUDA / HIP graphs were captured.');
}

// An Execution Trace read into the session beside the Kineto trace loaded there (it stays).
async function readExecutionTrace(sollens, file) {
  await readIntoBuffer(sollens, file, 'Choose the Execution Trace again.');
  const status = session.loadExecutionTrace();
  if (!failed(status)) return;
  if (status.code === 'et_is_kineto')
    throw new UserError(`${file.name} is a Kineto trace, not an Execution Trace.`,
      'Open it with Open trace… (or drop it alone), then drop its Execution Trace (the *_et.json or .json.gz that ExecutionTraceObserver writes) on the page.',
      status.code);
  throw coreError(`${file.name} is not a PyTorch Execution Trace`, status,
    'Drop the file that torch.profiler.ExecutionTraceObserver wrote (its top-level object has "nodes").');
}

// The whole file into the session's buffer, decompressed on the way.
async function readIntoBuffer(sollens, file, again) {
  const source = await blobSource(file);
  let { capacity } = source;
  let address = allocate(() => session.allocate(capacity), capacity);
  let written = 0;
  const stream = source.gzip ? source.stream.pipeThrough(new DecompressionStream('gzip')) : source.stream;
  const reader = stream.getReader();
  for (;;) {
    let result;
    try {
      result = await reader.read();
    } catch (e) {
      throw new UserError(`${file.name} could not be read: ${message(e)}.`,
        'The file may be damaged or cut short: decompress it with gunzip and drop the .json instead.', 'file_unreadable');
    }
    if (result.done) break;
    const chunk = result.value;
    if (written + chunk.byteLength > capacity) {
      capacity = Math.max(written + chunk.byteLength, Math.ceil(capacity * GROW_FACTOR));
      address = allocate(() => session.grow(capacity), capacity);
    }
    sollens.HEAPU8.set(chunk, address + written);
    written += chunk.byteLength;
  }
  if (written === 0) throw new UserError(`${file.name} is empty once decompressed.`, again, 'file_empty');
  session.setSize(written);
}

// --- the time axis (web/timeline/CONTRACT.md) -------------------------------------------
// Each answers {id, ask, ...} or {id, ask, error} (messages.mjs).
function answerAsk(type, msg, work) {
  try {
    if (!session) throw new UserError('No trace is open.', '');
    const { reply, transfer } = work();
    self.postMessage({ type, id: msg.id, ask: msg.ask, ...reply }, transfer ?? []);
  } catch (e) {
    self.postMessage({ type, id: msg.id, ask: msg.ask, error: e instanceof UserError ? e.title : message(e), code: codeOf(e) });
  }
}

// Parsed JSON of the core, or the core's error thrown as the user's words.
function coreAnswer(json) {
  const answer = JSON.parse(json);
  const { error } = answer;
  if (error) throw new UserError(`${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}.`, '', error.code);
  return answer;
}

function postTimeAxis(msg) {
  answerAsk(FromWorker.TIME_AXIS, msg, () => {
    const described = coreAnswer(session.buildTimeAxis(String(msg.device ?? '')));
    const [lanes, events, spans] = described.sheets.map((sheet) => readSheet(session, sheet));
    const timeAxis = { lanes, events, spans, traceStartUs: described.traceStartUs,
      buildMs: described.buildMs, inputsMs: described.inputsMs };
    return { reply: { timeAxis }, transfer: transferables({ sheets: [lanes, events, spans] }) };
  });
}

function postEventDetail(msg) {
  answerAsk(FromWorker.EVENT_DETAIL, msg, () => ({ reply: coreAnswer(session.eventDetail(Number(msg.row))) }));
}

function postRangeSummary(msg) {
  answerAsk(FromWorker.RANGE_SUMMARY, msg, () => {
    const described = coreAnswer(session.rangeSummary(Number(msg.startUs), Number(msg.endUs)));
    const summary = readSheet(session, described.sheets[0]);
    return { reply: { summary }, transfer: transferables({ sheets: [summary] }) };
  });
}

// The file read again into the session's buffer (decompressed), then cut by the core.
async function postTrim(msg) {
  let blob = null;
  try {
    if (!session || !sessionSource) throw new UserError('No trace file is open to cut.', '');
    blob = sessionSource.file ?? await fetchAgain(sessionSource);
    await readIntoBuffer(await loadModule(), blob, 'Open the trace again.');
  } catch (e) {
    self.postMessage({ type: FromWorker.TRIM, id: msg.id, ask: msg.ask,
      error: e instanceof UserError ? e.title : `The trace could not be read again: ${message(e)}.`, code: codeOf(e) });
    return;
  }
  answerAsk(FromWorker.TRIM, msg, () => {
    const status = session.trimBuffer(Number(msg.startUs), Number(msg.endUs));
    if (failed(status)) throw coreError('The trace could not be cut', status);
    const bytes = session.trimmedBytes().slice();  // a copy out of wasm memory
    const base = sessionName.replace(/\.json(\.gz)?$/i, '') || 'trace';
    const ms = (us) => (Number(us) / 1000).toFixed(3).replace(/\.?0+$/, '');
    return { reply: { bytes, name: `${base}.${ms(msg.startUs)}-${ms(msg.endUs)}ms.json` }, transfer: [bytes.buffer] };
  });
}

async function fetchAgain({ url, remote }) {
  const response = await fetch(url, remote ? { mode: 'cors', credentials: 'omit', referrerPolicy: 'no-referrer' } : {});
  if (!response.ok) throw new UserError(`The trace could not be fetched again (HTTP ${response.status}).`, '');
  return response.blob();
}

function transferables(result) {
  return result.sheets.flatMap((sheet) =>
    sheet.columns.flatMap((c) => [c.validity.buffer, (c.values ?? c.codes).buffer]));
}

function postReport(msg) {
  try {
    if (!session) throw new UserError('No trace is open.', 'Open a trace first.');
    const report = buildReport(msg);
    // The overview shows the whole trace's timeline, also when the report's is split by
    // is_recompute; else the report's own (before its columns are transferred).
    const gpuTimeline = msg.detectRecompute ? JSON.parse(session.gpuTimelineJson(Boolean(msg.includeUnlinked)))
      : timelineRows(report);
    self.postMessage({ type: FromWorker.REPORT, id: msg.id, report, gpuTimeline }, transferables(report));
    postHta(msg.id, msg);
  } catch (e) {
    const user = e instanceof UserError;
    self.postMessage({ type: FromWorker.ERROR, id: msg.id, title: user ? e.title : `Something went wrong: ${message(e)}.`, code: codeOf(e),
      hint: user ? e.hint : 'Reload the page and open the trace again.' });
  }
}

function allocate(call, bytes) {
  try {
    return call();
  } catch (e) {
    throw new UserError(`There is not enough memory to hold this trace (${(bytes / 2 ** 20).toFixed(0)} MiB of JSON).`,
      'WebAssembly pages can use at most 4 GB. Close other tabs and try again, or use the sollens command line for this trace.',
      'out_of_memory');
  }
}

const PAGE_MAX_JSON_BYTES = 2 ** 32;

// A File or Blob: its size is known, a .gz's trailer tells the JSON's size.
async function blobSource(blob) {
  const fileBytes = blob.size;
  if (fileBytes === 0) throw new UserError('This file is empty.', 'Choose the trace file again: it has no bytes at all.', 'file_empty');
  const head = new Uint8Array(await readSlice(blob, 0, 2));
  const gzip = head[0] === 0x1f && head[1] === 0x8b;
  // The core counts a trace's bytes in 32 bits here (trace_too_large): JSON of 4 GiB or
  // more is refused now rather than after reading 4 GiB of it.
  if (!gzip && fileBytes >= PAGE_MAX_JSON_BYTES)
    throw new UserError("This trace is too large for the page",
      `Its JSON is ${(fileBytes / 2 ** 30).toFixed(1)} GiB; the page reads less than 4 GiB. Use the sollens command line for this trace.`,
      'trace_too_large');
  // A gzip member ends with ISIZE, the uncompressed size mod 2^32: presize from it
  // and grow if the data turns out longer (several members, or over 4 GiB). A file
  // cut short ends with whatever bytes were there: a trailer claiming more than any
  // trace compresses to is not believed (the buffer then starts at the guess below).
  let capacity = fileBytes;
  if (gzip && fileBytes >= 18) {
    const trailer = new DataView(await readSlice(blob, fileBytes - 4, fileBytes));
    const claimed = trailer.getUint32(0, true);
    capacity = claimed > 0 && claimed <= fileBytes * MAX_GZIP_RATIO ? claimed : fileBytes * GZIP_RATIO_GUESS;
  }
  // Plain JSON: 8 MiB slices (far fewer, larger chunks than blob.stream()).
  return { fileBytes, gzip, capacity, blob, stream: gzip ? blob.stream() : sliceStream(blob, SLICE_BYTES) };
}

// --- ?trace=URL (the page checked it is http(s)) ---------------------------------------------
// Fetched here, in the worker, and streamed into wasm memory like a file: nothing whole
// in the JS heap. No credentials and no referrer are sent. A browser does not say why a
// cross-origin fetch failed (CORS refusal and network failure are the same TypeError),
// so the message names both. The size is unknown for .gz (and may be for JSON): the
// buffer starts from Content-Length and grows.
const GZIP_RATIO_GUESS = 8;  // a first guess of JSON bytes per .gz byte for traces
// Twice the most JSON bytes per .gz byte of any trace in tests/fixtures (30, a 2021
// ResNet-50 trace; the BERT sample 15): a trailer claiming more is taken for garbage.
const MAX_GZIP_RATIO = 64;
const REMOTE_MIN_BYTES = 16 << 20;

async function remoteSource(url) {
  const hint = 'Check the address. If it is right, the server may be down, or it does not let other sites read the file: it must send an Access-Control-Allow-Origin header (CORS). You can also download the file and open it with the Open trace button.';
  let response;
  try {
    response = await fetch(url, { mode: 'cors', credentials: 'omit', referrerPolicy: 'no-referrer', cache: 'no-store' });
  } catch (e) {
    throw new UserError(`The trace at ${url} could not be fetched: the request failed or was refused (${message(e)}).`, hint);
  }
  if (!response.ok)
    throw new UserError(`The trace at ${url} could not be fetched: the server answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}.`,
      response.status === 404 || response.status === 410 ? 'There is no file at this address: check it.' : 'Check the address, or download the file and open it with the Open trace button.');
  if (!response.body) throw new UserError(`The trace at ${url} came back without a body.`, hint);
  const length = Number(response.headers.get('Content-Length')) || 0;
  const reader = response.body.getReader();
  const readChunk = async () => {
    try {
      return await reader.read();
    } catch (e) {
      throw new UserError(`The download of ${url} broke off: ${message(e)}.`, 'Try again, or download the file and open it with the Open trace button.');
    }
  };
  // Sniff the gzip magic from the first bytes, then hand those bytes on first.
  const first = [];
  let got = 0;
  while (got < 2) {
    const r = await readChunk();
    if (r.done) break;
    first.push(r.value);
    got += r.value.byteLength;
  }
  if (got === 0) throw new UserError(`The file at ${url} is empty.`, 'Check the address: the server sent no bytes.');
  const head = first.length === 1 ? first[0] : Uint8Array.from(first.flatMap((c) => [...c]));
  const gzip = got >= 2 && head[0] === 0x1f && head[1] === 0x8b;
  const stream = new ReadableStream({
    start(controller) {
      for (const chunk of first) controller.enqueue(chunk);
    },
    async pull(controller) {
      const r = await readChunk();
      if (r.done) controller.close();
      else controller.enqueue(r.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
  const capacity = Math.max(gzip ? length * GZIP_RATIO_GUESS : length, REMOTE_MIN_BYTES);
  return { fileBytes: length, gzip, capacity, stream };
}

// One slice is read ahead (highWaterMark 1): the browser reads the next while the core
// parses this one.
function sliceStream(blob, sliceBytes) {
  let offset = 0;
  return new ReadableStream({
    async pull(controller) {
      if (offset >= blob.size) return controller.close();
      const end = Math.min(offset + sliceBytes, blob.size);
      controller.enqueue(new Uint8Array(await blob.slice(offset, end).arrayBuffer()));
      offset = end;
    },
  }, { highWaterMark: 1 });
}

async function readSlice(blob, begin, end) {
  try {
    return await blob.slice(begin, end).arrayBuffer();
  } catch (e) {
    throw new UserError(`The file could not be read: ${message(e)}.`,
      'Choose the file again; it may have been moved, changed or removed since it was picked.');
  }
}

// The text of an error, without a final period (the sentences here add their own).
function message(e) {
  return (e instanceof Error ? e.message : String(e)).replace(/[.\s]+$/, '');
}
