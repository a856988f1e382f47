// The Embind module under node: loads a trace through the same path the page uses
// (bytes written into wasm memory) and checks gpu_timeline against TraceLens's CSV.
//   node --no-experimental-fetch module_test.mjs MODULE.mjs TRACE.json.gz REFERENCE.csv
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';

const [modulePath, tracePath, referencePath] = process.argv.slice(2);
// Emscripten 3.1.6's ES6 output still uses __dirname/require in its node branch.
globalThis.require = createRequire(import.meta.url);
globalThis.__dirname = path.dirname(path.resolve(modulePath));

const { default: createSollens } = await import(path.resolve(modulePath));
const wasmBinary = readFileSync(path.resolve(modulePath).replace(/\.mjs$/, '.wasm'));
const sollens = await createSollens({ wasmBinary });

let failures = 0;
const check = (ok, what) => {
  console.log(`${ok ? 'ok' : 'FAILED'}: ${what}`);
  if (!ok) failures++;
};

const json = gunzipSync(readFileSync(tracePath));
const session = new sollens.Session();
const address = session.allocate(json.length);
sollens.HEAPU8.set(json, address);
const loaded = session.load();
check(loaded.code === 'ok' && loaded.message === '', `load succeeds (${loaded.code}: ${loaded.message})`);
check(session.eventCount() > 0, `events read: ${session.eventCount()}`);

const parse = (csv) => csv.trim().split('\n').map((line) => line.split(','));
const ours = parse(session.gpuTimelineCsv());
const theirs = parse(readFileSync(referencePath, 'utf8'));
check(ours.length === theirs.length && ours[0].join() === theirs[0].join(), 'gpu_timeline header and rows');
for (let r = 1; r < theirs.length; r++) {
  for (let c = 1; c < theirs[r].length; c++) {
    const a = Number(ours[r][c]), b = Number(theirs[r][c]);
    check(Math.abs(a - b) <= 1e-6 * Math.abs(b) + 1e-12, `${theirs[r][0]} ${theirs[0][c]}: ${a} vs ${b}`);
  }
}

// The report as typed-array columns (what the page's tables read): every sheet the
// TraceLens report has for this trace is there, and a numeric and a string column
// decoded from the views equal TraceLens's CSV (ops_summary: names and kernel times).
const reportDir = path.dirname(referencePath);
const described = JSON.parse(session.buildReport([]));
check(!described.error && Array.isArray(described.sheets), 'buildReport describes the sheets');
const sheetNames = described.sheets.map((sh) => sh.name);
check(sheetNames.includes('gpu_timeline') && sheetNames.includes('ops_summary') && sheetNames.includes('GEMM'),
  `sheets: ${sheetNames.join(' ')}`);
const opsSheet = described.sheets[sheetNames.indexOf('ops_summary')];
const opsIndex = opsSheet.id;
const colIndex = (name) => opsSheet.columns.findIndex((c) => c.name === name);
const names = Array.from(session.columnCodes(opsIndex, colIndex('name')));
const dictionary = JSON.parse(session.columnDictionaryJson(opsIndex, colIndex('name')));
const times = Float64Array.from(session.columnNumbers(opsIndex, colIndex('total_direct_kernel_time_ms')));
const validity = Uint8Array.from(session.columnValidity(opsIndex, colIndex('total_direct_kernel_time_ms')));
const refOps = parse(readFileSync(path.join(reportDir, 'ops_summary.csv'), 'utf8'));
const refName = refOps[0].indexOf('name'), refTime = refOps[0].indexOf('total_direct_kernel_time_ms');
check(opsSheet.rows === refOps.length - 1 && names.length === opsSheet.rows && validity.every((v) => v === 1),
  `ops_summary has TraceLens's ${refOps.length - 1} rows`);
let sameRows = true;
for (let r = 1; r < refOps.length; r++) {
  const b = Number(refOps[r][refTime]);
  if (dictionary[names[r - 1]] !== refOps[r][refName] || Math.abs(times[r - 1] - b) > 1e-6 * Math.abs(b)) sameRows = false;
}
check(sameRows, 'ops_summary name codes + dictionary and kernel times equal TraceLens');
// Kinds and units from the core (the page reads them instead of guessing from names).
const gemmSheet = described.sheets[sheetNames.indexOf('GEMM')];
const unitOfColumn = (sheet, name) => sheet.columns.find((c) => c.name === name)?.unit;
check(opsSheet.kind === 'summary' && gemmSheet?.kind === 'perf_model' && described.sheets[sheetNames.indexOf('gpu_timeline')].kind === 'timeline',
  'sheets say their kind (ops_summary summary, GEMM perf_model, gpu_timeline timeline)');
check(unitOfColumn(opsSheet, 'total_direct_kernel_time_ms') === 'ms' && unitOfColumn(opsSheet, 'total_direct_kernel_time_sum') === 'µs' &&
  unitOfColumn(opsSheet, 'name') === '' && unitOfColumn(gemmSheet, 'TFLOPS/s_mean') === 'TFLOPS/s',
  'columns say their unit (ms, µs, none, TFLOPS/s)');
check(typeof described.rooflineCeilings === 'object' && described.rooflineCeilings !== null, 'buildReport gives the roofline ceilings');
check(session.sheetCsv(opsIndex).split('\n')[0] === readFileSync(path.join(reportDir, 'ops_summary.csv'), 'utf8').split('\n')[0],
  'sheetCsv writes TraceLens\'s header');
const unknownDevice = JSON.parse(session.buildReport(['--device', 'no-such-gpu'])).error;
check(unknownDevice?.code === 'unknown_device' && /unknown device/.test(unknownDevice.message),
  'an unknown device name is an error with its code, not a guess');
const cycles = JSON.parse(session.buildCycles('all', 'device'));
check(typeof cycles.summary === 'string' && cycles.kernels > 0 && cycles.sheets[0]?.name === 'cycles' &&
  cycles.preambles.length === cycles.sheets.length, `buildCycles: ${cycles.summary}`);
check(session.sheetCsv(opsIndex).length > 0, 'report tables stay valid after buildCycles');
// Structure mode's cycles table says how each pattern was found; uplifter mode's is uplifter's.
const cyclesHeader = (described) => session.sheetCsv(described.sheets[0].id).split('\n')[0];
check(cyclesHeader(cycles).includes('found_by'), 'mode all: cycles table has found_by');
const uplifter = JSON.parse(session.buildCycles('uplifter', 'device'));
check(uplifter.sheets[0]?.name === 'cycles' && !cyclesHeader(uplifter).includes('found_by'),
  'mode uplifter: uplifter\'s cycles table (no found_by)');
const rebuilt = JSON.parse(session.buildReport(['--device', 'H100_SXM5_80GB', '--corrected']));
// H100 SXM (deviceDB/H100_SXM5_80GB.json): bf16 989.4 dense; FP32 GEMMs on the fp32 vector units.
check(rebuilt.rooflineCeilings.matrix_bf16?.peak === 'bf16' && rebuilt.rooflineCeilings.matrix_bf16?.tflops === 989.4 &&
  rebuilt.rooflineCeilings.matrix_fp32?.peak === 'fp32_vector', 'the H100\'s ceilings per Compute Spec');
check(rebuilt.device.status === 'user' && session.sheetCsv(opsIndex) === '' && rebuilt.sheets[0].id !== described.sheets[0].id,
  'a new buildReport replaces the previous report tables (old ids are gone)');
check(JSON.parse(sollens.Session.deviceNamesJson()).includes('H100_SXM5_80GB'), 'deviceNamesJson lists the database');
const reportOptions = JSON.parse(sollens.Session.reportOptionsJson());
check(reportOptions.some((o) => o.flag === '--include-unlinked' && o.name === 'includeUnlinked' && o.value === null) &&
  reportOptions.some((o) => o.flag === '--device' && o.name === 'device' && o.value === 'NAME'),
  'reportOptionsJson lists the report options with the page\'s names');
const notThePage = JSON.parse(session.buildReport(['--out', 'x'])).error;
check(notThePage?.code === 'unknown_option' && /unknown report option '--out'/.test(notThePage.message),
  'a command-line-only option is no report option for the page (unknown_option)');
check(JSON.parse(session.buildCycles('most', 'stream')).error?.code === 'bad_option_value',
  'an unknown cycles mode is refused with bad_option_value');

// The page's paths: a buffer presized too small and grown mid-write (a .gz whose
// trailer understates its size), one presized too large and trimmed with setSize,
// and loadWithProgress reporting (bytes, events).
const half = json.length >> 1;
const grown = new sollens.Session();
sollens.HEAPU8.set(json.subarray(0, half), grown.allocate(half));
sollens.HEAPU8.set(json.subarray(half), grown.grow(json.length) + half);
let calls = 0, lastBytes = 0, lastEvents = 0;
const grownError = grown.loadWithProgress((bytes, events) => {
  calls++;
  lastBytes = bytes;
  lastEvents = events;
  return true;
});
check(grownError.code === 'ok' && grown.eventCount() === session.eventCount(), 'grow() keeps the bytes written before it');
check(calls > 0 && lastBytes === json.length && lastEvents === session.eventCount(),
  `loadWithProgress reports progress (${calls} calls, last ${lastBytes} bytes, ${lastEvents} events)`);
check(JSON.parse(grown.gpuTimelineJson(false)).length === theirs.length - 1,
  'gpuTimelineJson has a row per gpu_timeline row');
const info = JSON.parse(grown.infoJson());
check(info.events === session.eventCount() && info.devices.length > 0 && Array.isArray(info.warnings), 'infoJson describes the trace');
const trimmed = new sollens.Session();
sollens.HEAPU8.set(json, trimmed.allocate(json.length + 4096));
trimmed.setSize(json.length);
check(trimmed.load().code === 'ok' && trimmed.eventCount() === session.eventCount(), 'setSize() trims a presized buffer');
const cancelled = new sollens.Session();
sollens.HEAPU8.set(json, cancelled.allocate(json.length));
check(cancelled.loadWithProgress(() => false).code === 'cancelled', 'a progress callback returning false cancels');
for (const s of [grown, trimmed, cancelled]) s.delete();

// The page's way in: the file fed in pieces, parsed as they come (beginStream,
// streamPrepare / streamCommit, finishStream), with the same events and gpu_timeline.
const streamed = new sollens.Session();
check(streamed.beginStream(json.length).code === 'ok', 'beginStream starts a streamed load');
let parsedEarly = 0;
for (let at = 0; at < json.length; at += 65536) {
  const piece = json.subarray(at, Math.min(at + 65536, json.length));
  sollens.HEAPU8.set(piece, streamed.streamPrepare(piece.length));  // HEAPU8 after streamPrepare: it may grow
  if (!streamed.streamCommit(piece.length)) break;
  if (at + 65536 < json.length) parsedEarly = streamed.streamEvents();
}
check(parsedEarly > 0, `events are parsed while the file is still being read (${parsedEarly} before its last piece)`);
check(streamed.finishStream().code === 'ok' && streamed.eventCount() === session.eventCount(), 'a streamed load reads every event');
check(streamed.gpuTimelineCsv() === session.gpuTimelineCsv(), 'a streamed load gives the same gpu_timeline');
streamed.beginStream(0);
const notJson = new TextEncoder().encode('PK\x03\x04 not a trace');
sollens.HEAPU8.set(notJson, streamed.streamPrepare(notJson.length));
const streamedNotJson = streamed.streamCommit(notJson.length) ? null : streamed.finishStream();
check(streamedNotJson?.code === 'not_json' && /not JSON/.test(streamedNotJson.message) && streamed.eventCount() === 0,
  'a streamed non-JSON file stops at its first piece with a clear error (not_json), and nothing stays loaded');
check(streamed.finishStream().code === 'no_trace_loaded', 'finishStream without a stream: no_trace_loaded');
streamed.delete();

const bad = new sollens.Session();
const junk = new TextEncoder().encode('hello');
sollens.HEAPU8.set(junk, bad.allocate(junk.length));
const badLoad = bad.load();
check(badLoad.code === 'not_json' && /not JSON/.test(badLoad.message), 'a non-JSON file gives a clear error (not_json)');
const emptyEt = bad.loadExecutionTrace();
check(emptyEt.code === 'file_empty', `an empty buffer is no Execution Trace (file_empty: ${emptyEt.code} ${emptyEt.message})`);
session.delete();
bad.delete();

console.log(`${failures === 0 ? 'all passed' : `${failures} failed`}`);
process.exit(failures === 0 ? 0 : 1);
