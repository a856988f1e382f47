// Share links: the loaded report (the sheets the shown view draws and the overview's,
// the trace facts; never the trace) in the URL's fragment, so that opening the link
// renders the same report with no worker, no trace and nothing uploaded (a fragment is
// never sent to a server). The same bytes saved as a file (.sollens) open when dropped
// on the page, for a report too big for a link.
//   encodeShare(loaded, baseUrl, {view}) -> {url, chars, bytes, views, dropped, fits}
//   encodeRanksShare(ranks, baseUrl, name, version) -> the same, for the Ranks view's rank set
//   encodeSollensFile(loaded | {rankSet}) -> the .sollens file's bytes (everything: all views)
//   decodeShare(fragment) / decodeSollensFile(bytes) -> a loaded report (state.mjs's
//     app.report shape, marked shared; with rankSet instead for a rank set), or throws ShareError
//
// Format, version 3: '#report=' + base64url(MAGIC, 3, deflate-raw(payload)) with
//   payload = varint(n), n bytes of UTF-8 JSON (the document), the sheets' column bytes
// The document is version 2's (below) with each sheet list replaced by share-codec.mjs's
// descriptors (names, kinds, row counts, columns' names, types, units, encodings), whose
// column bytes follow in order (report, cycles, sol, comparison; or the rank set's);
// "strings": every text of every sheet once, sorted (text columns hold codes into it);
// "views": the views whose sheets are in it (null: all of them); "view": the one it was
// made on.
// A rank set's document is {"v", "name", "version", "views": ["ranks"], "strings", "ranks":
// {"ranks": [{rank, file, rankFrom}], "simplifiedMode", "metadataMismatches", "skipped", "sheets"}}.
// Only what the shown view draws goes in (VIEW_SHEETS): a link made on the kernels view
// opens on it, with the overview (and any other view all of whose sheets came along: the
// roofline with the ops view); the other views say they are not in it.
// LINK_TARGET is what a chat or an issue comment takes; a link over it is still made
// (the share panel says how long it is and offers the .sollens file instead).
//
// Version 2 (links made before version 3, still read): '#report=' + base64url(gzip(JSON)),
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
// Optional in version 2 (links made before them lack them): cutShort, report.includeUnlinked
// and info's linkedBy, gpuTimeUs and unlinkedGpuTimeUs; sol, only when the SOL view has
// computed it (worker.mjs's postSol); comparison, only when the shown trace is compared
// with another run (then the link opens on the compare view), with the sheets that view
// shows (COMPARISON_SHEETS; the other compared sheets are sollens diff's).
//
// Too big for any URL (LINK_BUDGET: Firefox's default URL limit is 1 MiB; Chrome's
// 2 MiB): the largest sheets lose their rows (name and columns stay, so views show them
// empty rather than break) until the link fits; the copy notice and the opened page
// both name them. The .sollens file keeps every row.
//
// Decoding trusts nothing: a size cap on the fragment, strict base64url, the inflated
// stream cut off past MAX_JSON_BYTES (a small link cannot expand into gigabytes), fatal
// UTF-8, then a schema check of every key and value (unknown keys, wrong types, counts
// that do not match and out-of-range codes are rejected), and the column bytes read
// with bounds checked and cell counts capped before anything is allocated. Strings are
// only ever shown as text by the views, so HTML in them stays text.
import { joinBytes } from './bytes.mjs';
import { ByteReader, ByteWriter, CodecError, packSheets, stringTable, unpackSheets } from './share-codec.mjs';

export const LINK_BUDGET = 1_000_000;
export const MAX_FRAGMENT_CHARS = 2_200_000;  // what any browser can hand us at most
export const MAX_JSON_BYTES = 48 << 20;
export const MAX_FILE_BYTES = 64 << 20;  // a .sollens file, compressed
const FORMAT_VERSION = 3;
const GZIP_VERSION = 2;  // the links made before version 3: gzip'd JSON
// The compared sheets the compare view (views/compare.mjs) shows.
const COMPARISON_SHEETS = new Set(['compare_verdict', 'compare_runs', 'gpu_timeline', 'ops_summary', 'op_tree_diff', 'cycle_diff', 'cycle_positions_diff']);
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
export const LINK_TARGET = 8000;  // what a chat message or an issue comment takes
const MAGIC = [0x53, 0x4c, 0x4e, 0x53];  // "SLNS", then the format version: a .sollens file starts so too
export const SOLLENS_EXTENSION = '.sollens';

// Which sheets each view draws (by name or by kind), so that a link made on it carries
// those and the overview's. A view not listed here (or none given) gets the whole report.
const byName = (...names) => (s) => names.includes(s.name);
// The overview draws the trace's facts and GPU timeline (outside the sheets) and the verdict sheet.
const OVERVIEW_SHEETS = byName('verdict', 'gpu_timeline', 'temporal_breakdown', 'idle_time_breakdown');
const VIEW_SHEETS = {
  overview: { report: OVERVIEW_SHEETS },
  ops: { report: (s) => s.kind === 'perf_model' || byName('ops_summary', 'ops_summary_by_category', 'ops_unique_args', 'unified_perf_summary')(s) },
  kernels: { report: byName('kernel_summary', 'short_kernel_histogram', 'short_kernels_summary') },
  roofline: { report: (s) => s.kind === 'perf_model' || s.name === 'unified_perf_summary' },
  collectives: { report: byName('coll_analysis') },
  'critical-path': { report: (s) => s.name.startsWith('critical_path_') },
  'launch-delays': { report: (s) => s.name.startsWith('cuda_kernel_launch_') || s.name === 'aten_op_kernels_and_delay' },
  cycles: { cycles: () => true },
  sol: { sol: () => true },
  compare: { comparison: () => true },
};
// The parts of a report a link may carry sheets of, in the order their bytes are written.
const PARTS = ['report', 'cycles', 'sol', 'comparison'];

// The sheets of a part of the loaded report (null when it has none: no cycles, SOL not computed).
function partSheets(loaded, part) {
  if (part === 'comparison') return loaded.comparison ? loaded.comparison.sheets.filter((s) => COMPARISON_SHEETS.has(s.name)) : null;
  return loaded[part]?.sheets ?? null;
}

// Which views a link made on `view` carries (null: all), and which sheets of each part:
// the view's and the overview's (and the comparison's, when there is one), and so every
// other view all of whose sheets come with them (the roofline's with the ops view's).
function linkContents(loaded, view) {
  const pick = VIEW_SHEETS[view];
  if (!pick || view === undefined) return { views: loaded.views ?? null, keep: () => true };
  const wanted = [VIEW_SHEETS.overview, pick];
  if (loaded.comparison && view !== 'compare') wanted.push(VIEW_SHEETS.compare);  // a link to a comparison opens on it
  const keep = (part, s, i) => wanted.some((w) => w[part]?.(s, i));
  const drawn = (name) => Object.entries(VIEW_SHEETS[name]).map(([part, draws]) => {
    const list = partSheets(loaded, part);
    const mine = (list ?? []).filter((s, i) => draws(s, i));
    return { complete: list !== null && list.every((s, i) => !draws(s, i) || keep(part, s, i)), any: mine.length > 0 };
  });
  const complete = (name) => {
    const parts = drawn(name);
    return parts.every((p) => p.complete) && parts.some((p) => p.any);
  };
  const views = [...new Set(['overview', view, ...Object.keys(VIEW_SHEETS).filter(complete)])];
  // a report from a link holds only its own views: a link made from it holds no more
  const held = Array.isArray(loaded.views) ? views.filter((v) => loaded.views.includes(v)) : views;
  return { views: held, keep };
}

async function deflateRaw(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function base64url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

// The document's sheet lists become descriptors; their columns' bytes go to `columns`.
// `sheetsOf(part)` -> the sheets to write of that part (rows emptied where asked).
async function container(doc, columns) {
  const meta = new TextEncoder().encode(JSON.stringify(doc));
  const payload = new ByteWriter();
  payload.varint(meta.length);
  payload.raw(meta);
  payload.raw(columns.done());
  const packed = await deflateRaw(payload.done());
  const out = new Uint8Array(MAGIC.length + 1 + packed.length);
  out.set(MAGIC);
  out[MAGIC.length] = FORMAT_VERSION;
  out.set(packed, MAGIC.length + 1);
  return out;
}

const emptyRows = (sheet) => ({ ...sheet, rows: 0 });

function reportDocument(loaded, contents, emptied, view) {
  const columns = new ByteWriter();
  const kept = (part) => (partSheets(loaded, part) ?? []).filter((s, i) => contents.keep(part, s, i)).map((s) => (emptied.has(s) ? emptyRows(s) : s));
  const lists = Object.fromEntries(PARTS.map((part) => [part, kept(part)]));
  const strings = stringTable(Object.values(lists));  // every text once, for all the sheets
  const pack = (part) => packSheets(lists[part], columns, strings);
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
    views: contents.views,
    view: view ?? null,  // the view the link was made on: it opens there
    strings: strings.list,
    report: { device: loaded.report.device, rooflineCeilings: loaded.report.rooflineCeilings ?? {}, timingsMs: loaded.report.timingsMs,
      includeUnlinked: Boolean(loaded.report.includeUnlinked), sheets: pack('report') },
    cycles: loaded.cycles ? { summary: loaded.cycles.summary, kernels: loaded.cycles.kernels,
      preambles: loaded.cycles.preambles, sheets: null } : null,
    dropped: [...loaded.dropped ?? []],
  };
  if (loaded.cycles) {
    // the preambles go with their sheets: only the kept ones
    const kept = loaded.cycles.sheets.map((s, i) => contents.keep('cycles', s, i));
    doc.cycles.preambles = loaded.cycles.preambles.filter((_, i) => kept[i]);
    doc.cycles.sheets = pack('cycles');
  }
  if (loaded.sol) doc.sol = { ...loaded.sol, sheets: pack('sol') };
  if (loaded.comparison) {
    const { baseline, variant, swapped, names } = loaded.comparison;
    doc.comparison = { baseline, variant, swapped: Boolean(swapped), names: names ?? ['baseline', 'variant'],
      sheets: pack('comparison') };
  }
  return { doc, columns };
}

function linkOf(bytes, baseUrl) {
  const page = new URL(baseUrl);
  page.search = '';  // a ?trace= that opened the report is not part of the link
  page.hash = '';
  return `${page.href}#${PREFIX}${base64url(bytes)}`;
}

function noCompression() {
  if (typeof CompressionStream === 'undefined')
    throw new ShareError('This browser cannot make share links: it has no CompressionStream.', 'Use a current browser, or Download report (JSON) instead.');
}

// `loaded`: the page's loaded report (state.mjs: the worker's DONE message plus version).
// `view`: the view shown (its sheets and the overview's go in); none: the whole report.
export async function encodeShare(loaded, baseUrl, { view } = {}) {
  noCompression();
  const contents = linkContents(loaded, view);
  const emptied = new Set();
  const all = PARTS.flatMap((part) => (partSheets(loaded, part) ?? []).filter((s, i) => contents.keep(part, s, i)).map((s) => [part, s]));
  for (;;) {
    const { doc, columns } = reportDocument(loaded, contents, emptied, view);
    doc.dropped.push(...all.filter(([, s]) => emptied.has(s)).map(([part, s]) =>
      `${part === 'cycles' || part === 'comparison' ? `${part}: ` : ''}${s.name}`));
    const bytes = await container(doc, columns);
    const url = linkOf(bytes, baseUrl);
    if (url.length <= LINK_BUDGET)
      return { url, chars: url.length, bytes: bytes.length, views: contents.views, dropped: doc.dropped, fits: url.length <= LINK_TARGET };
    // Empty the largest sheets still in, enough to fit at the ratio just seen.
    const cells = (s) => s.rows * s.columns.length;
    const left = all.map(([, s]) => s).filter((s) => !emptied.has(s) && s.rows > 0).sort((a, b) => cells(b) - cells(a));
    if (left.length === 0)
      throw new ShareError('This report is too big for a link, even without its tables.', 'Use "Download a .sollens file" and send the file instead.');
    let excess = url.length - LINK_BUDGET * 0.95;
    const perCell = url.length / Math.max(1, left.reduce((n, s) => n + cells(s), 0));
    for (const s of left) {
      if (excess <= 0) break;
      emptied.add(s);
      excess -= cells(s) * perCell;
    }
  }
}

// The Ranks view's rank set (app.ranks: worker.mjs's RANKS message) as a link.
function ranksDocument(rankSet, name, version) {
  const columns = new ByteWriter();
  const { ranks, simplifiedMode, metadataMismatches, skipped } = rankSet;
  const strings = stringTable([rankSet.sheets]);
  const doc = { v: FORMAT_VERSION, name: name ?? '', version: version ?? '', views: ['ranks'], strings: strings.list,
    ranks: { ranks: ranks.map(({ rank, file, rankFrom }) => ({ rank, file, rankFrom })), simplifiedMode: Boolean(simplifiedMode),
      metadataMismatches: metadataMismatches ?? 0, skipped: skipped ?? [], sheets: packSheets(rankSet.sheets, columns, strings) } };
  return { doc, columns };
}

export async function encodeRanksShare(rankSet, baseUrl, name, version) {
  noCompression();
  const { doc, columns } = ranksDocument(rankSet, name, version);
  const bytes = await container(doc, columns);
  const url = linkOf(bytes, baseUrl);
  if (url.length > LINK_BUDGET)
    throw new ShareError('This rank set is too big for a link.', 'Use "Download a .sollens file" and send the file instead.');
  return { url, chars: url.length, bytes: bytes.length, views: ['ranks'], dropped: [], fits: url.length <= LINK_TARGET };
}

// A .sollens file: the link's bytes for the whole report (every view), or for a rank set
// ({rankSet, name, version}).
export async function encodeSollensFile(loaded) {
  noCompression();
  const { doc, columns } = loaded.rankSet ? ranksDocument(loaded.rankSet, loaded.name, loaded.version)
    : reportDocument(loaded, linkContents(loaded, undefined), new Set());
  return container(doc, columns);
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

// `format`: 'gzip' (version 2) or 'deflate-raw'; `noun`: what the bytes came in, for the messages.
async function inflateCapped(bytes, format, noun) {
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream(format)).getReader();
  const chunks = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > MAX_JSON_BYTES) {
        reader.cancel().catch(() => {});
        throw new ShareError(`This ${noun} expands to more than ${MAX_JSON_BYTES >> 20} MiB: it was not made by sollens, so it was not opened.`,
          'Open the trace itself instead.');
      }
      chunks.push(value);
    }
  } catch (e) {
    if (e instanceof ShareError) throw e;
    throw new ShareError(`This ${noun} is damaged: its data could not be decompressed.`, hintFor(noun));
  }
  return joinBytes(chunks, total);
}
const FILE_HINT = 'The file may have been cut short or changed. Ask for it again, or for the trace file itself.';
const hintFor = (noun) => (noun === 'share link' ? BROKEN_HINT : FILE_HINT);

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
// A cell's text (a long op's arguments) is bounded only by the document: a cap below it
// refused links and files that sollens itself made.
const cellText = str(MAX_JSON_BYTES);
const column = (rows) => (v, p) => {
  plain(v, p);
  const type = v.type;
  if (type === 'string') {
    const c = obj({ name: str(1000), type: str(10), unit: str(200), dictionary: arr(cellText, rows), codes: (x) => x })(v, p);
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
    // checked before it is stored: a Float64Array converts an object by its toString, which may throw
    const ok = type === 'float' ? typeof x === 'number' || x === 'nan' || x === 'inf' || x === '-inf'
      : type === 'int' ? Number.isInteger(x) : x === 0 || x === 1;  // int64s as doubles: past 2^53 too
    if (!ok) invalid(`${p}.values[${r}]`, `is not a ${type} value`);
    values[r] = x === 'nan' ? NaN : x === 'inf' ? Infinity : x === '-inf' ? -Infinity : x;
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
const makeDocSchema = (sheets, more = {}) => obj({
  v: int, name: str(1000), version: str(100), fileBytes: count, gzip: bool, cutShort: bool, info: infoSchema,
  traceMetadata: traceMetadataSchema, gpuTimeline: arr(timelineRow, 100),
  report: obj({ device: deviceSchema, rooflineCeilings: map(obj({ peak: str(100), tflops: num }), 100),
    timingsMs: map(nullable(num), 50), includeUnlinked: bool, sheets }, ['includeUnlinked']),
  cycles: nullable(obj({ summary: str(), kernels: count, preambles: arr(str(), 500), sheets })),
  sol: obj({ device: nullable(str(200)), device_identification: deviceSchema, efficiency_factor: num, module_frames: bool,
    notes: arr(str(), 1000), metrics: map(nullable(num), 100), sheets }),
  comparison: obj({ baseline: str(1000), variant: str(1000), swapped: bool, names: arr(str(1000), 2), sheets }),
  dropped: arr(str(1100), 1000),
  ...more,
}, ['cutShort', 'sol', 'comparison', ...Object.keys(more)]);
const docSchema = makeDocSchema(sheets);
// Version 3: sheet lists as share-codec.mjs's descriptors (checked as they are unpacked).
const descriptors = (v, p) => (Array.isArray(v) ? v : invalid(p, 'is not a list'));
const VIEW_NAMES = /^[a-z-]{1,40}$/;
const viewName = (v, p) => (typeof v === 'string' && VIEW_NAMES.test(v) ? v : invalid(p, 'is not a view name'));
const MAX_STRINGS = 2_000_000;
const docSchemaV3 = makeDocSchema(descriptors, { views: nullable(arr(viewName, 50)), view: nullable(viewName), strings: arr(cellText, MAX_STRINGS) });
const rankEntry = obj({ rank: nullable(int), file: str(1000), rankFrom: str(200) });
const ranksDocSchema = obj({ v: int, name: str(1000), version: str(100), views: arr(viewName, 50), strings: arr(cellText, MAX_STRINGS),
  ranks: obj({ ranks: arr(rankEntry, 100_000), simplifiedMode: bool, metadataMismatches: count, skipped: arr(str(1000), 10_000),
    sheets: descriptors }) });

// A link made before the SOL result took sol.json's key spellings, read with them.
function withSolJsonKeys(doc) {
  const sol = doc?.sol;
  if (!sol || typeof sol !== 'object' || !Object.hasOwn(sol, 'solDevice')) return doc;
  const { device, solDevice, efficiencyFactor, moduleFrames, ...rest } = sol;
  return { ...doc, sol: { ...rest, device: solDevice, device_identification: device, efficiency_factor: efficiencyFactor,
    module_frames: moduleFrames } };
}

const noDecompression = () => {
  if (typeof DecompressionStream === 'undefined')
    throw new ShareError('This browser cannot open share links: it has no DecompressionStream.', 'Use a current browser (Chrome, Edge, Firefox or Safari 16.4 or later).');
};

// `fragment`: location.hash, with or without '#'. Returns the loaded report, marked shared.
export async function decodeShare(fragment) {
  noDecompression();
  const text = fragment.replace(/^#/, '');
  if (!text.startsWith(PREFIX)) throw new ShareError('This is not a sollens share link.', 'A share link\'s address ends in #report=…');
  if (text.length > MAX_FRAGMENT_CHARS)
    throw new ShareError('This share link is longer than any link sollens makes, so it was not opened.', 'Open the trace itself instead.');
  const bytes = unbase64url(text.slice(PREFIX.length));
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return decodeVersion2(bytes);
  return decodeContainer(bytes, 'share link');
}

// Whether bytes start as a .sollens file (or a version 3 link) does.
export const isSollens = (head) => MAGIC.every((b, i) => head[i] === b);

// A .sollens file's bytes (a file dropped or chosen: sniff.mjs told it by its magic), or
// the File itself when it is too big to be read.
export async function decodeSollensFile(bytes) {
  noDecompression();
  if ((bytes.length ?? bytes.size) > MAX_FILE_BYTES)
    throw new ShareError(`This .sollens file is larger than any sollens writes (${MAX_FILE_BYTES >> 20} MiB at most), so it was not opened.`, 'Open the trace itself instead.');
  return decodeContainer(bytes, '.sollens file');
}

// The format a document says it is, for a message: String() of an object from the link's
// JSON throws when its "toString" entry is not a function.
const formatNamed = (doc) => (typeof doc?.v === 'object' && doc.v !== null ? 'unknown' : String(doc?.v).slice(0, 20));

async function decodeContainer(bytes, noun) {
  if (!isSollens(bytes))
    throw new ShareError(`This ${noun} is not one sollens makes: its data does not start as sollens's does.`, hintFor(noun));
  const version = bytes[MAGIC.length];
  if (version !== FORMAT_VERSION)
    throw new ShareError(`This ${noun} was made by a ${version > FORMAT_VERSION ? 'newer' : 'different'} version of sollens (format ${version}; this page reads ${FORMAT_VERSION} and the older links of format ${GZIP_VERSION}).`,
      'Open it with the sollens page that made it, or ask for the trace file.');
  const payload = await inflateCapped(bytes.subarray(MAGIC.length + 1), 'deflate-raw', noun);
  const reader = new ByteReader(payload);
  let doc;
  try {
    const size = reader.varint();
    doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(reader.take(size)));
  } catch {
    throw new ShareError(`This ${noun} is damaged: its report could not be read.`, hintFor(noun));
  }
  if (doc?.v !== FORMAT_VERSION) throw new ShareError(`This ${noun} is damaged: its report says format ${formatNamed(doc)}.`, hintFor(noun));
  try {
    const loaded = doc?.ranks ? unpackRanks(doc, reader) : unpackReport(doc, reader);
    if (reader.left() !== 0) invalid('', `has ${reader.left()} bytes after its tables`);
    return loaded;
  } catch (e) {
    if (!(e instanceof Invalid || e instanceof CodecError)) throw e;
    throw new ShareError(`This ${noun} does not hold a valid sollens report (${e.message}), so it was not opened.`, hintFor(noun));
  }
}

function unpackReport(doc, reader) {
  const checked = docSchemaV3(doc, '');
  const unpack = (part) => {
    if (checked[part]) checked[part].sheets = unpackSheets(checked[part].sheets, reader, part, checked.strings ?? []);
  };
  PARTS.forEach(unpack);
  checkParts(checked);
  const { v, strings, ...loaded } = checked;
  return { ...loaded, shared: true, timings: null };
}

function unpackRanks(doc, reader) {
  const checked = ranksDocSchema(doc, '');
  checked.ranks.sheets = unpackSheets(checked.ranks.sheets, reader, 'ranks', checked.strings);
  const { ranks, name, version, views } = checked;
  return { rankSet: ranks, name, version, views, shared: true };
}

function checkParts(checked) {
  if (checked.cycles && checked.cycles.preambles.length !== checked.cycles.sheets.length) invalid('cycles.preambles', 'do not match the cycle sheets');
  if (checked.comparison && checked.comparison.names.length !== 2) invalid('comparison.names', 'are not two names');
}

// A link made before version 3: gzip'd JSON.
async function decodeVersion2(bytes) {
  const jsonBytes = await inflateCapped(bytes, 'gzip', 'share link');
  let doc;
  try {
    doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(jsonBytes));
  } catch {
    throw new ShareError('This share link is damaged: its report could not be read.', BROKEN_HINT);
  }
  if (doc?.v !== GZIP_VERSION)
    throw new ShareError(`This share link was made by a different version of sollens (format ${formatNamed(doc)}; this page reads ${FORMAT_VERSION} and ${GZIP_VERSION}).`,
      'Ask for a link made with this version, or for the trace file.');
  let checked;
  try {
    checked = docSchema(withSolJsonKeys(doc), '');
    checkParts(checked);
  } catch (e) {
    if (!(e instanceof Invalid)) throw e;
    throw new ShareError(`This share link does not hold a valid sollens report (${e.message}), so it was not opened.`, BROKEN_HINT);
  }
  const { v, ...loaded } = checked;
  return { ...loaded, views: null, shared: true, timings: null };
}
