// Share links: the loaded report (sheets, cycles, chart data, trace facts; never the
// trace) in the URL's fragment, so that opening the link renders the same report
// with no worker, no trace and nothing uploaded (a fragment is never sent to a server).
//   encodeShare(loaded, baseUrl) -> {url, chars, dropped: [sheet names], json, gzip}
//   decodeShare(fragment)        -> a loaded report (state.mjs's app.report shape), or throws ShareError
//
// Format, version 2: '#report=' + base64url(gzip(JSON)) with the JSON
//   {"v":2, "name", "version", "fileBytes", "gzip", "cutShort", "info", "traceMetadata", "gpuTimeline",
//    "report": {"device", "rooflineCeilings", "timingsMs", "includeUnlinked", "sheets": [sheet]},
//    "cycles": {"summary", "kernels", "preambles", "sheets": [sheet]},
//    "sol": {"device", "device_identification", "efficiency_factor", "module_frames", "notes", "metrics", "sheets"}
//           (sol.json's spellings; links made before them, with "solDevice", "efficiencyFactor" and
//           "moduleFrames", are read as well),
//    "comparison": {"baseline", "variant" (file names), "swapped", "names": [baseline, variant]
//                   (the runs' names in the compared columns), "sheets"},
//    "dropped": [name]}
//   sheet  = {"name", "kind", "rows", "columns": [column]}
//   column = {"name", "type": "float"|"int"|"bool", "unit", "values": [number | null | "nan" | "inf" | "-inf"]}
//          | {"name", "type": "string", "unit", "dictionary": [string], "codes": [int, -1 = null]}
// i.e. the report model of worker.mjs with typed arrays as JSON arrays (JSON's
// shortest number text reads back to the same double). Version 2 added the sheets'
// kinds, the columns' units and the roofline ceilings (the page no longer guesses them).
// Optional in version 2 (links made before them lack them): cutShort, report.includeUnlinked
// and info's linkedBy, gpuTimeUs and unlinkedGpuTimeUs; sol, only when the SOL view has
// computed it (worker.mjs's postSol); comparison, only when the shown trace is compared
// with another run (then the link opens on the compare view), with the sheets that view
// shows (COMPARISON_SHEETS; the other compared sheets are sollens diff's).
//
// Too big for a URL: links are kept under LINK_BUDGET characters (Firefox's default
// URL limit is 1 MiB; Chrome's 2 MiB). Over it, the largest sheets lose their rows
// (name and columns stay, so views show them empty rather than break) until the link
// fits; the copy notice and the opened page both name them.
//
// Decoding trusts nothing: a size cap on the fragment, strict base64url, the gzip
// stream cut off past MAX_JSON_BYTES (a small link cannot expand into gigabytes),
// fatal UTF-8, then a schema check of every key and value: unknown keys, wrong
// types, counts that do not match and out-of-range codes are rejected. Strings are
// only ever shown as text by the views, so HTML in them stays text.
import { joinBytes } from './bytes.mjs';

export const LINK_BUDGET = 1_000_000;
export const MAX_FRAGMENT_CHARS = 2_200_000;  // what any browser can hand us at most
export const MAX_JSON_BYTES = 48 << 20;
const FORMAT_VERSION = 2;
// The compared sheets the compare view (views/compare.mjs) shows.
const COMPARISON_SHEETS = new Set(['gpu_timeline', 'ops_summary', 'op_tree_diff', 'cycle_diff', 'cycle_positions_diff']);
const PREFIX = 'report=';

export class ShareError extends Error {
  constructor(title, hint) {
    super(title);
    this.title = title;
    this.hint = hint;
  }
}
const BROKEN_HINT = 'The link may have been cut short when it was copied or sent (some chat and mail programs shorten long links). Ask for the link again, or for the trace file itself.';

// --- encoding ----------------------------------------------------------------------------
function encodeColumn(column, rows) {
  const { name, type, validity } = column;
  const unit = column.unit ?? '';
  if (type === 'string') return { name, type, unit, dictionary: column.dictionary, codes: Array.from(column.codes.subarray(0, rows)) };
  const values = new Array(rows);
  for (let r = 0; r < rows; r++) {
    const v = column.values[r];
    values[r] = !validity[r] ? null : Number.isFinite(v) ? v : Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf';
  }
  return { name, type, unit, values };
}
const encodeSheet = (sheet, keepRows) => {
  const rows = keepRows ? sheet.rows : 0;
  return { name: sheet.name, kind: sheet.kind ?? '', rows, columns: sheet.columns.map((c) => encodeColumn(c, rows)) };
};

async function gzip(text) {
  const stream = new Blob([new TextEncoder().encode(text)]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function base64url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

// `loaded`: the page's loaded report (state.mjs: the worker's DONE message plus version).
export async function encodeShare(loaded, baseUrl) {
  if (typeof CompressionStream === 'undefined')
    throw new ShareError('This browser cannot make share links: it has no CompressionStream.', 'Use a current browser, or Download report (JSON) instead.');
  const comparisonSheets = (loaded.comparison?.sheets ?? []).filter((s) => COMPARISON_SHEETS.has(s.name));
  const all = [...loaded.report.sheets.map((s) => ['report', s]), ...(loaded.cycles?.sheets ?? []).map((s) => ['cycles', s]),
    ...(loaded.sol?.sheets ?? []).map((s) => ['sol', s]), ...comparisonSheets.map((s) => ['comparison', s])];
  const sizes = new Map(all.map(([, s]) => [s, JSON.stringify(encodeSheet(s, true)).length]));
  const emptied = new Set();
  const page = new URL(baseUrl);
  page.search = '';  // a ?trace= that opened the report is not part of the link
  page.hash = '';
  const base = `${page.href}#${PREFIX}`;
  for (;;) {
    const keep = (s) => !emptied.has(s);
    const doc = {
      v: FORMAT_VERSION,
      name: loaded.name,
      version: loaded.version ?? '',
      fileBytes: loaded.fileBytes ?? 0,
      gzip: Boolean(loaded.gzip),
      cutShort: Boolean(loaded.cutShort),
      info: loaded.info,
      traceMetadata: loaded.traceMetadata || '{}',
      gpuTimeline: loaded.gpuTimeline,
      report: { device: loaded.report.device, rooflineCeilings: loaded.report.rooflineCeilings ?? {}, timingsMs: loaded.report.timingsMs,
        includeUnlinked: Boolean(loaded.report.includeUnlinked), sheets: loaded.report.sheets.map((s) => encodeSheet(s, keep(s))) },
      cycles: loaded.cycles ? { summary: loaded.cycles.summary, kernels: loaded.cycles.kernels,
        preambles: loaded.cycles.preambles, sheets: loaded.cycles.sheets.map((s) => encodeSheet(s, keep(s))) } : null,
      dropped: [...loaded.dropped ?? [], ...all.filter(([, s]) => emptied.has(s)).map(([where, s]) =>
        `${where === 'cycles' || where === 'comparison' ? `${where}: ` : ''}${s.name}`)],
    };
    if (loaded.sol) doc.sol = { ...loaded.sol, sheets: loaded.sol.sheets.map((s) => encodeSheet(s, keep(s))) };
    if (loaded.comparison) {
      const { baseline, variant, swapped, names } = loaded.comparison;
      doc.comparison = { baseline, variant, swapped: Boolean(swapped), names: names ?? ['baseline', 'variant'],
        sheets: comparisonSheets.map((s) => encodeSheet(s, keep(s))) };
    }
    const json = JSON.stringify(doc);
    const packed = await gzip(json);
    const url = base + base64url(packed);
    if (url.length <= LINK_BUDGET) return { url, chars: url.length, dropped: doc.dropped, json: json.length, gzip: packed.length };
    // Empty the largest sheets still in, enough to fit at the ratio just seen.
    const ratio = url.length / json.length;
    let excess = url.length - LINK_BUDGET * 0.95;
    const left = all.map(([, s]) => s).filter(keep).sort((a, b) => sizes.get(b) - sizes.get(a));
    if (left.length === 0 || left.every((s) => s.rows === 0))
      throw new ShareError('This report is too big for a link, even without its tables.',
        'Use "Download report (JSON)" and send the file instead.');
    for (const s of left) {
      if (excess <= 0) break;
      emptied.add(s);
      excess -= sizes.get(s) * ratio;
    }
  }
}

// --- decoding ----------------------------------------------------------------------------
function unbase64url(text) {
  if (!/^[A-Za-z0-9_-]+$/.test(text) || text.length % 4 === 1)
    throw new ShareError('This share link is damaged: it contains characters a sollens link never has.', BROKEN_HINT);
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/') + '='.repeat((4 - (text.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function gunzipCapped(bytes) {
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip')).getReader();
  const chunks = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > MAX_JSON_BYTES) {
        reader.cancel().catch(() => {});
        throw new ShareError(`This share link expands to more than ${MAX_JSON_BYTES >> 20} MiB: it was not made by sollens, so it was not opened.`,
          'Open the trace itself instead.');
      }
      chunks.push(value);
    }
  } catch (e) {
    if (e instanceof ShareError) throw e;
    throw new ShareError('This share link is damaged: its data could not be decompressed.', BROKEN_HINT);
  }
  return joinBytes(chunks, total);
}

// A tiny schema checker: each schema is (value, path) -> value, throwing on mismatch.
class Invalid extends Error {}
const invalid = (path, what) => {
  throw new Invalid(`${path || 'the report'} ${what}`);
};
const str = (max = 100_000) => (v, p) => (typeof v === 'string' && v.length <= max ? v : invalid(p, 'is not a text'));
const int = (v, p) => (Number.isSafeInteger(v) ? v : invalid(p, 'is not a whole number'));
const count = (v, p) => (Number.isSafeInteger(v) && v >= 0 ? v : invalid(p, 'is not a count'));
const num = (v, p) => (typeof v === 'number' && Number.isFinite(v) ? v : invalid(p, 'is not a number'));
const bool = (v, p) => (typeof v === 'boolean' ? v : invalid(p, 'is not true or false'));
const nullable = (s) => (v, p) => (v === null ? null : s(v, p));
const arr = (s, max) => (v, p) => {
  if (!Array.isArray(v)) invalid(p, 'is not a list');
  if (v.length > max) invalid(p, `has more than ${max} entries`);
  return v.map((x, i) => s(x, `${p}[${i}]`));
};
const plain = (v, p) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) invalid(p, 'is not an object');
  return v;
};
// Every key in `shape` is required unless listed in `optional`; other keys are rejected.
const obj = (shape, optional = []) => (v, p) => {
  plain(v, p);
  const out = {};
  for (const key of Object.keys(v))
    if (!Object.hasOwn(shape, key)) invalid(p, `has an unknown entry "${key.slice(0, 40)}"`);
  for (const [key, s] of Object.entries(shape)) {
    if (!Object.hasOwn(v, key)) {
      if (!optional.includes(key)) invalid(p, `lacks "${key}"`);
      continue;
    }
    out[key] = s(v[key], p ? `${p}.${key}` : key);
  }
  return out;
};
// An open map (keys not known in advance), bounded.
const map = (s, max) => (v, p) => {
  plain(v, p);
  const keys = Object.keys(v);
  if (keys.length > max) invalid(p, `has more than ${max} entries`);
  const out = Object.create(null);
  for (const key of keys) out[str(200)(key, p)] = s(v[key], `${p}.${key.slice(0, 40)}`);
  return { ...out };
};
const pair = (a, b) => (v, p) => (Array.isArray(v) && v.length === 2 ? [a(v[0], `${p}[0]`), b(v[1], `${p}[1]`)] : invalid(p, 'is not a pair'));

const MAX_ROWS = 2_000_000;
const column = (rows) => (v, p) => {
  plain(v, p);
  const type = v.type;
  if (type === 'string') {
    const c = obj({ name: str(1000), type: str(10), unit: str(200), dictionary: arr(str(), rows), codes: (x) => x })(v, p);
    if (!Array.isArray(c.codes) || c.codes.length !== rows) invalid(`${p}.codes`, `does not have ${rows} entries`);
    const codes = new Int32Array(rows);
    const validity = new Uint8Array(rows);
    const n = c.dictionary.length;
    for (let r = 0; r < rows; r++) {
      const code = c.codes[r];
      if (!Number.isInteger(code) || code < -1 || code >= n) invalid(`${p}.codes[${r}]`, 'is not a valid code');
      codes[r] = code;
      validity[r] = code >= 0 ? 1 : 0;
    }
    return { name: c.name, type, unit: c.unit, validity, codes, dictionary: c.dictionary };
  }
  if (type !== 'float' && type !== 'int' && type !== 'bool') invalid(`${p}.type`, 'is not string, float, int or bool');
  const c = obj({ name: str(1000), type: str(10), unit: str(200), values: (x) => x })(v, p);
  if (!Array.isArray(c.values) || c.values.length !== rows) invalid(`${p}.values`, `does not have ${rows} entries`);
  const values = new Float64Array(rows);
  const validity = new Uint8Array(rows);
  for (let r = 0; r < rows; r++) {
    const x = c.values[r];
    if (x === null) continue;
    let ok;
    if (type === 'float') {
      ok = typeof x === 'number' || x === 'nan' || x === 'inf' || x === '-inf';
      values[r] = x === 'nan' ? NaN : x === 'inf' ? Infinity : x === '-inf' ? -Infinity : x;
    } else {
      ok = type === 'int' ? Number.isSafeInteger(x) : x === 0 || x === 1;
      values[r] = x;
    }
    if (!ok) invalid(`${p}.values[${r}]`, `is not a ${type} value`);
    validity[r] = 1;
  }
  return { name: c.name, type, unit: c.unit, validity, values };
};
const sheet = (v, p) => {
  plain(v, p);
  if (!(Number.isSafeInteger(v.rows) && v.rows >= 0 && v.rows <= MAX_ROWS)) invalid(`${p}.rows`, 'is not a row count');
  return obj({ name: str(1000), kind: str(200), rows: count, columns: arr(column(v.rows), 2000) })(v, p);
};
const sheets = arr(sheet, 500);

const optInt = nullable(int);
const infoSchema = obj({
  format: str(), traceName: str(), jsonBytes: count, events: count, gpuEvents: count, linkedGpuEvents: count,
  linkedBy: str(100), gpuTimeUs: num, unlinkedGpuTimeUs: num,
  firstTsUs: nullable(num), lastEndUs: nullable(num), spanMs: nullable(num),
  versionHints: arr(str(), 1000), gpuPids: arr(str(), 10_000),
  eventsByCategory: arr(pair(str(), count), 10_000), eventsByPhase: arr(pair(str(), count), 10_000),
  devices: arr(obj({ id: optInt, name: str(), totalGlobalMem: optInt, computeMajor: optInt, computeMinor: optInt,
    numSms: optInt, warpSize: optInt }), 1000),
  distributed: nullable(obj({ backend: str(), rank: optInt, worldSize: optInt, pgCount: optInt, ncclVersion: str() })),
  warnings: arr(str(), 10_000),
}, ['linkedBy', 'gpuTimeUs', 'unlinkedGpuTimeUs']);
const deviceSchema = obj({
  status: str(), id: str(), name: str(), trace_device_index: int, trace_device_name: str(), from_gpu_events: bool,
  how: str(), notice: str(), devices_per_package: num, dense_tflops_per_device: map(num, 100),
  mem_bw_TBps_per_device: num, confidence: str(),
}, ['id', 'name', 'trace_device_index', 'trace_device_name', 'from_gpu_events', 'how', 'notice',
  'devices_per_package', 'dense_tflops_per_device', 'mem_bw_TBps_per_device', 'confidence']);
// trace_metadata_json's text (kept as text: its 64-bit ints stay exact for the JSON
// export), checked: known keys typed (ints may exceed 2^53 once parsed), the trace's
// other top-level scalars as text.
const wholeNumber = (v, p) => (Number.isInteger(v) ? v : invalid(p, 'is not a whole number'));
const traceMetadataSchema = (v, p) => {
  str(1_000_000)(v, p);
  let parsed;
  try {
    parsed = JSON.parse(v);
  } catch {
    invalid(p, 'is not JSON');
  }
  const known = {
    schemaVersion: wholeNumber, baseTimeNanoseconds: wholeNumber, displayTimeUnit: str(), traceName: str(),
    deviceProperties: arr(obj({ id: wholeNumber, name: str(), totalGlobalMem: wholeNumber, computeMajor: wholeNumber,
      computeMinor: wholeNumber, numSms: wholeNumber, warpSize: wholeNumber },
    ['id', 'totalGlobalMem', 'computeMajor', 'computeMinor', 'numSms', 'warpSize']), 1000),
    distributedInfo: obj({ backend: str(), rank: wholeNumber, world_size: wholeNumber, pg_count: wholeNumber, nccl_version: str() },
      ['backend', 'rank', 'world_size', 'pg_count', 'nccl_version']),
  };
  for (const [key, x] of Object.entries(map((x) => x, 200)(parsed, p))) (known[key] ?? str(10_000))(x, `${p}.${key.slice(0, 40)}`);
  return v;
};
const timelineRow = obj({ type: str(100), 'time ms': nullable(num), percent: nullable(num) });
const docSchema = obj({
  v: int, name: str(1000), version: str(100), fileBytes: count, gzip: bool, cutShort: bool, info: infoSchema,
  traceMetadata: traceMetadataSchema, gpuTimeline: arr(timelineRow, 100),
  report: obj({ device: deviceSchema, rooflineCeilings: map(obj({ peak: str(100), tflops: num }), 100),
    timingsMs: map(nullable(num), 50), includeUnlinked: bool, sheets }, ['includeUnlinked']),
  cycles: nullable(obj({ summary: str(), kernels: count, preambles: arr(str(), 500), sheets })),
  sol: obj({ device: nullable(str(200)), device_identification: deviceSchema, efficiency_factor: num, module_frames: bool,
    notes: arr(str(), 1000), metrics: map(nullable(num), 100), sheets }),
  comparison: obj({ baseline: str(1000), variant: str(1000), swapped: bool, names: arr(str(1000), 2), sheets }),
  dropped: arr(str(1100), 1000),
}, ['cutShort', 'sol', 'comparison']);

// A link made before the SOL result took sol.json's key spellings, read with them.
function withSolJsonKeys(doc) {
  const sol = doc?.sol;
  if (!sol || typeof sol !== 'object' || !Object.hasOwn(sol, 'solDevice')) return doc;
  const { device, solDevice, efficiencyFactor, moduleFrames, ...rest } = sol;
  return { ...doc, sol: { ...rest, device: solDevice, device_identification: device, efficiency_factor: efficiencyFactor,
    module_frames: moduleFrames } };
}

// `fragment`: location.hash, with or without '#'. Returns the loaded report, marked shared.
export async function decodeShare(fragment) {
  if (typeof DecompressionStream === 'undefined')
    throw new ShareError('This browser cannot open share links: it has no DecompressionStream.', 'Use a current browser (Chrome, Edge, Firefox or Safari 16.4 or later).');
  const text = fragment.replace(/^#/, '');
  if (!text.startsWith(PREFIX)) throw new ShareError('This is not a sollens share link.', 'A share link\'s address ends in #report=…');
  if (text.length > MAX_FRAGMENT_CHARS)
    throw new ShareError('This share link is longer than any link sollens makes, so it was not opened.', 'Open the trace itself instead.');
  const bytes = unbase64url(text.slice(PREFIX.length));
  const jsonBytes = await gunzipCapped(bytes);
  let doc;
  try {
    doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(jsonBytes));
  } catch {
    throw new ShareError('This share link is damaged: its report could not be read.', BROKEN_HINT);
  }
  if (doc?.v !== FORMAT_VERSION)
    throw new ShareError(`This share link was made by a different version of sollens (format ${String(doc?.v).slice(0, 20)}; this page reads ${FORMAT_VERSION}).`,
      'Ask for a link made with this version, or for the trace file.');
  let checked;
  try {
    checked = docSchema(withSolJsonKeys(doc), '');
    if (checked.cycles && checked.cycles.preambles.length !== checked.cycles.sheets.length) invalid('cycles.preambles', 'do not match the cycle sheets');
    if (checked.comparison && checked.comparison.names.length !== 2) invalid('comparison.names', 'are not two names');
  } catch (e) {
    if (!(e instanceof Invalid)) throw e;
    throw new ShareError(`This share link does not hold a valid sollens report (${e.message}), so it was not opened.`, BROKEN_HINT);
  }
  const { v, ...loaded } = checked;
  return { ...loaded, shared: true, timings: null };
}
