// Property-based fuzzing of the share-link decoder (web/share.mjs, web/share-codec.mjs)
// with fast-check, under node (no build needed).
//   node tests/web/share_codec_fuzz.mjs [--runs N] [--seed S] [--time-bound-ms T] [--only 'PROPERTY NAME']
// Without --runs: the bounded check ctest runs (web_share_codec_fuzz, a few seconds, a
// fixed seed). With --runs N: N executions in all, spread over the properties, printing
// executions per second as it goes (the long run; its figures are in tests/web/README.md).
// Properties:
//   codec round trip   random sheets (float, int, bool and text columns; decimals,
//                      decimals a few doubles off, float32-exact and not, huge and tiny,
//                      -0, NaN, ±inf, repeated and sorted values, copies and running sums
//                      of other columns, nulls; texts with unicode, lone surrogates, NUL,
//                      long ones) packed and unpacked read back value for value
//   file / link        the same through a whole .sollens file and a format 3 link, and
//                      format 2 links (gzip'd JSON; -0 reads back as 0 there: JSON has no -0)
//   codec robustness   arbitrary descriptors and column bytes: unpackSheets returns or
//                      throws CodecError, and never returns more than MAX_CELLS cells
//   link robustness    arbitrary fragments, arbitrary bytes as a link or a .sollens file,
//                      and valid links (format 3 and 2) mutated at every layer (container
//                      bytes, inflated payload, lengths, the JSON document): decodeShare /
//                      decodeSollensFile resolve or reject with ShareError, within the time
//                      bound, never with more than MAX_CELLS cells
//   bounds             a cell text of 1,000,000 characters round trips; deflate and gzip bombs past MAX_JSON_BYTES and a document claiming
//                      more than MAX_CELLS cells are refused; one claiming exactly
//                      MAX_CELLS is read
// Exits non-zero on any failure, printing the counterexample and the seed to replay it.
import fc from 'fast-check';
import { deflateRawSync, gzipSync, inflateRawSync } from 'node:zlib';
import * as share from '../../web/share.mjs';
import { ByteReader, ByteWriter, CodecError, MAX_CELLS, packSheets, stringTable, unpackSheets } from '../../web/share-codec.mjs';
import { checks } from './support/harness.mjs';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 && i + 1 < argv.length ? Number(argv[i + 1]) : fallback;
};
const TOTAL_RUNS = option('--runs', 0);
const SEED = option('--seed', 20261128);
const TIME_BOUND_MS = option('--time-bound-ms', 5000);
const ONLY = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : null;  // one property, by name
const { check, finish } = checks('share codec fuzz');
const MAGIC = [0x53, 0x4c, 0x4e, 0x53];

// --- doubles, bit by bit ----------------------------------------------------------------
const f64 = new Float64Array(1);
const i64 = new BigInt64Array(f64.buffer);
const stepped = (x, k) => {
  f64[0] = x;
  i64[0] += BigInt(k);
  return f64[0];
};

// --- generated sheets -----------------------------------------------------------------
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));  // lone surrogates too
const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: anyCodeUnit, maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom('', '\ud800', '\udfff', 'a\udc00b', '\u0000', '<img src=x onerror=alert(1)>', '__proto__', 'µs ✓ 日本語 🚀', '\u202e') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 500, maxLength: 3000 }) },
);
const decimal = fc.tuple(fc.integer({ min: -2e9, max: 2e9 }), fc.integer({ min: 0, max: 9 })).map(([n, s]) => n / 10 ** s);
const noisyDecimal = fc.tuple(decimal, fc.integer({ min: -300, max: 300 })).map(([x, k]) => stepped(x, k));
// whole numbers near the codec's limits: 2^52 (decimals), 2^53 (exact doubles)
const signed = (arb) => fc.tuple(arb, fc.boolean()).map(([x, negative]) => (negative ? -x : x));
const bigWhole = fc.oneof(fc.maxSafeInteger(), signed(fc.double({ min: 2 ** 50, max: 2 ** 53, noNaN: true }).map(Math.floor)),
  signed(fc.double({ min: 2 ** 51, max: 2 ** 52 - 1, noNaN: true }).map(Math.floor)),
  fc.constantFrom(2 ** 52 - 1, -(2 ** 52 - 1), 2 ** 52, -(2 ** 52), 2 ** 53 - 1, -(2 ** 53 - 1)));
const special = fc.constantFrom(-0, 0, NaN, Infinity, -Infinity, 5e-324, -5e-324, Number.MAX_VALUE, -Number.MAX_VALUE, 2.2250738585072014e-308,
  1e-300, 1e300, 0.1 + 0.2, 1.8256000000000001, 2 ** -30);
const floatValue = fc.oneof(decimal, noisyDecimal, bigWhole, fc.float(), fc.double(), special);
// an int column holds an int64 as a double (core/writers/column_encoding.cpp): past 2^53 too
const intValue = fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.maxSafeInteger(), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(Number),
  fc.constantFrom(2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 52, -(2 ** 52), 2 ** 52 - 1, 2 ** 53, 2 ** 63));
const boolValue = fc.constantFrom(0, 1);
const valueOf = { float: floatValue, int: intValue, bool: boolValue };

// Values of one number column: free, from a small pool (runs of repeats: delta-friendly
// with big jumps), or sorted (a start and steps).
const numberValues = (type, rows) => fc.oneof(
  fc.array(valueOf[type], { minLength: rows, maxLength: rows }),
  ...[valueOf[type], type === 'bool' ? boolValue : bigWhole].map((values) => fc.tuple(fc.array(values, { minLength: 1, maxLength: 4 }),
    fc.array(fc.nat(3), { minLength: rows, maxLength: rows }), fc.boolean())
    .map(([pool, picks, runs]) => (runs ? picks.sort() : picks).map((i) => pool[i % pool.length]))),  // sorted picks: runs of repeats
  ...(type === 'bool' ? [] : [fc.tuple(valueOf[type], fc.array(type === 'int' ? fc.integer({ min: 0, max: 1000 }) : fc.oneof(decimal, fc.double({ min: 0, max: 1e6, noNaN: true })), { minLength: rows, maxLength: rows }))
    .map(([start, steps]) => steps.map((s, i) => (i ? 0 : start) + steps.slice(0, i + 1).reduce((a, b) => a + b, 0)))
    .map((vs) => (type === 'int' ? vs.map((v) => (Number.isInteger(v) ? v : 0)) : vs))]),
);
const validityOf = (rows) => fc.oneof(fc.constant(null), fc.array(fc.boolean(), { minLength: rows, maxLength: rows }));
const columnName = fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: anyCodeUnit, maxLength: 12 }));
const unit = fc.oneof(fc.constantFrom('', 'ms', 'µs', '%', 'TFLOPS'), fc.string({ maxLength: 6 }));

// A column spec: {type, name, unit, values | texts | derived: ['=' | 'S', j]}.
const columnSpec = (rows) => fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom('float', 'int', 'bool').chain((type) => fc.record({ type: fc.constant(type), name: columnName, unit,
    values: numberValues(type, rows), validity: validityOf(rows) })) },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('string'), name: columnName, unit,
    texts: fc.oneof(fc.array(fc.option(text), { minLength: rows, maxLength: rows }),
      fc.tuple(fc.array(text, { minLength: 1, maxLength: 3 }), fc.array(fc.nat(3), { minLength: rows, maxLength: rows }))
        .map(([pool, picks]) => picks.map((i) => pool[i] ?? null))) }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constantFrom('float', 'int'), name: columnName, unit, derived: fc.tuple(fc.constantFrom('=', 'S'), fc.nat(8)) }) },
);

function columnOf(spec, rows, earlier) {
  const { type, name } = spec;
  if (type === 'string') {
    const dictionary = [...new Set(spec.texts.filter((t) => t !== null))];
    return { name, type, unit: spec.unit, validity: Uint8Array.from(spec.texts, (t) => (t === null ? 0 : 1)),
      codes: Int32Array.from(spec.texts, (t) => (t === null ? -1 : dictionary.indexOf(t))), dictionary };
  }
  if (spec.derived) {
    const numbers = earlier.filter((c) => c.type !== 'string');
    const from = numbers[spec.derived[1] % Math.max(1, numbers.length)];
    if (!from) return { name, type: 'float', unit: spec.unit, validity: new Uint8Array(rows).fill(1), values: new Float64Array(rows) };
    if (spec.derived[0] === '=' && (type === 'float' || from.type !== 'float'))
      return { name, type, unit: spec.unit, validity: from.validity.slice(), values: from.values.slice() };
    const values = new Float64Array(rows);
    let acc = 0;
    for (let r = 0; r < rows; r++) values[r] = acc += from.validity[r] ? from.values[r] : 0;
    return { name, type: 'float', unit: spec.unit, validity: new Uint8Array(rows).fill(1), values };
  }
  const validity = spec.validity ? Uint8Array.from(spec.validity, Number) : new Uint8Array(rows).fill(1);
  // an empty cell's value is whatever was there: it must not leak into the link
  const values = Float64Array.from(spec.values, (v, r) => (validity[r] ? v : 12345.678));
  return { name, type, unit: spec.unit, validity, values };
}

const sheetArb = fc.record({ rows: fc.oneof({ weight: 6, arbitrary: fc.nat(24) }, { weight: 1, arbitrary: fc.integer({ min: 25, max: 200 }) }),
  width: fc.nat(6) }).chain(({ rows, width }) => fc.record({
  name: columnName, kind: fc.constantFrom('', 'summary', 'perf_model', 'hta'), rows: fc.constant(rows),
  specs: fc.array(columnSpec(rows), { minLength: width, maxLength: width }),
})).map(({ name, kind, rows, specs }) => {
  const columns = [];
  for (const spec of specs) columns.push(columnOf(spec, rows, columns));
  return { name, kind, rows, columns };
});
const sheetsArb = fc.array(sheetArb, { maxLength: 4 });

// A loaded report (state.mjs's shape) around generated sheets: the facts minimal but valid.
function loadedOf(report, cycles) {
  return {
    name: 'fuzz.json', version: '0', fileBytes: 0, gzip: false, cutShort: false,
    info: { format: '', traceName: '', jsonBytes: 0, events: 0, gpuEvents: 0, linkedGpuEvents: 0, firstTsUs: null, lastEndUs: null, spanMs: null,
      versionHints: [], gpuPids: [], eventsByCategory: [], eventsByPhase: [], devices: [], distributed: null, warnings: [] },
    traceMetadata: '{}', gpuTimeline: [],
    report: { device: { status: 'unknown' }, rooflineCeilings: {}, timingsMs: {}, includeUnlinked: false, sheets: report },
    cycles: cycles ? { summary: '', kernels: 0, preambles: cycles.map((s) => `preamble ${s.name}`), sheets: cycles } : null,
    dropped: [],
  };
}
const loadedArb = fc.tuple(sheetsArb, fc.option(sheetsArb, { nil: null })).map(([report, cycles]) => loadedOf(report, cycles));

// --- comparing ----------------------------------------------------------------------------
// The first difference between two sheet lists, or null. `same` compares two valid values.
function sheetDifference(a, b, same = Object.is) {
  if (!Array.isArray(b) || a.length !== b.length) return `${a.length} sheets, got ${b?.length}`;
  for (const [i, s] of a.entries()) {
    const t = b[i];
    if (s.name !== t.name || (s.kind ?? '') !== t.kind || s.rows !== t.rows || s.columns.length !== t.columns.length) return `sheet ${i} header`;
    for (const [j, c] of s.columns.entries()) {
      const d = t.columns[j];
      if (c.name !== d.name || c.type !== d.type || (c.unit ?? '') !== d.unit) return `sheet ${i} column ${j} header`;
      for (let r = 0; r < s.rows; r++) {
        if (Boolean(c.validity[r]) !== Boolean(d.validity[r])) return `sheet ${i} column ${j} row ${r} validity`;
        if (!c.validity[r]) continue;
        const x = c.type === 'string' ? c.dictionary[c.codes[r]] : c.values[r];
        const y = d.type === 'string' ? d.dictionary[d.codes[r]] : d.values[r];
        if (!same(x, y)) return `sheet ${i} column ${j} (${c.type}) row ${r}: ${String(x).slice(0, 60)} read back as ${String(y).slice(0, 60)}`;
      }
    }
  }
  return null;
}
const sameInJson = (x, y) => Object.is(x, y) || (Object.is(x, -0) && y === 0);  // format 2: JSON has no -0
const cellsOf = (sheetLists) => sheetLists.reduce((n, list) => n + (list ?? []).reduce((m, s) => m + s.rows * s.columns.length, 0), 0);
const reportCells = (r) => (r.rankSet ? cellsOf([r.rankSet.sheets]) : cellsOf([r.report?.sheets, r.cycles?.sheets, r.sol?.sheets, r.comparison?.sheets]));

// --- links and their layers ---------------------------------------------------------------
const b64 = (bytes) => Buffer.from(bytes).toString('base64url');
const linkOfBytes = (bytes) => `#report=${b64(bytes)}`;
const varintBytes = (n) => {
  const w = new ByteWriter();
  w.varint(n);
  return w.done();
};
function splitContainer(bytes) {
  const payload = inflateRawSync(bytes.subarray(5));
  const reader = new ByteReader(payload);
  const size = reader.varint();
  return { doc: JSON.parse(Buffer.from(reader.take(size)).toString('utf8')), columns: payload.subarray(reader.offset) };
}
const containerOf = (payload, version = 3) => Buffer.concat([Buffer.from([...MAGIC, version]), deflateRawSync(payload)]);
const payloadOf = (doc, columns) => {
  const meta = Buffer.from(JSON.stringify(doc));
  return Buffer.concat([varintBytes(meta.length), meta, columns]);
};
const version2Bytes = (loaded) => {
  const column = (c, rows) => (c.type === 'string'
    ? { name: c.name, type: c.type, unit: c.unit ?? '', dictionary: c.dictionary, codes: Array.from(c.codes.subarray(0, rows)) }
    : { name: c.name, type: c.type, unit: c.unit ?? '', values: Array.from({ length: rows }, (_, r) => {
      const v = c.values[r];
      return !c.validity[r] ? null : Number.isFinite(v) ? v : Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf';
    }) });
  const sheet = (s) => ({ name: s.name, kind: s.kind ?? '', rows: s.rows, columns: s.columns.map((c) => column(c, s.rows)) });
  const { shared, timings, views, ...doc } = loaded;
  return gzipSync(JSON.stringify({ ...doc, v: 2, report: { ...loaded.report, sheets: loaded.report.sheets.map(sheet) },
    cycles: loaded.cycles && { ...loaded.cycles, sheets: loaded.cycles.sheets.map(sheet) } }));
};

// Byte-level mutations: flips, overwrites, cuts, insertions, runs of 0xff (endless varints).
const mutation = fc.oneof(
  fc.record({ op: fc.constant('flip'), at: fc.nat(), bit: fc.nat(7) }),
  fc.record({ op: fc.constant('set'), at: fc.nat(), byte: fc.nat(255) }),
  fc.record({ op: fc.constant('cut'), at: fc.nat() }),
  fc.record({ op: fc.constant('insert'), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 16 }) }),
  fc.record({ op: fc.constant('ff'), at: fc.nat(), length: fc.integer({ min: 1, max: 12 }) }),
  fc.record({ op: fc.constant('delete'), at: fc.nat(), length: fc.integer({ min: 1, max: 16 }) }),
);
function mutate(bytes, mutations) {
  let out = Buffer.from(bytes);
  for (const m of mutations) {
    const at = out.length ? m.at % (out.length + 1) : 0;
    if (m.op === 'flip' && at < out.length) out[at] ^= 1 << m.bit;
    else if (m.op === 'set' && at < out.length) out[at] = m.byte;
    else if (m.op === 'cut') out = out.subarray(0, at);
    else if (m.op === 'insert') out = Buffer.concat([out.subarray(0, at), m.bytes, out.subarray(at)]);
    else if (m.op === 'ff') out = Buffer.concat([out.subarray(0, at), Buffer.alloc(m.length, 0xff), out.subarray(at + m.length)]);
    else if (m.op === 'delete') out = Buffer.concat([out.subarray(0, at), out.subarray(at + m.length)]);
  }
  return out;
}

// JSON values biased to what the schema looks at: its keys, the names of Object's
// methods, descriptor-like arrays, numbers at the bounds.
const dictionaryKey = fc.constantFrom('v', 'ranks', 'sheets', 'strings', 'views', 'view', 'report', 'cycles', 'sol', 'comparison', 'info',
  'toString', 'valueOf', '__proto__', 'constructor', 'hasOwnProperty', 'length', 'name', 'rows', 'columns', 'type', 'values', 'codes', 'dictionary');
const boundNumber = fc.constantFrom(0, 1, -1, 2, 3, 1.5, -0, 2_000_000, 2_000_001, 20_000_000, 2 ** 31, 2 ** 53, 1e308, 4294967295);
const jsonish = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true },
    fc.constant(null), fc.boolean(), boundNumber, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string({ maxLength: 6 }),
    fc.constantFrom('float', 'int', 'bool', 'string', 'g', 'f', 'F', 'i0', 'd3+', 'i9', '=0', 'S0', '=1999', 'Z', ''),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.oneof(dictionaryKey, fc.string({ maxLength: 4 })), tie('value'), { maxKeys: 4, noNullPrototype: true }),
    fc.tuple(fc.constantFrom('toString', 'valueOf', 'toJSON'), fc.oneof(fc.constant(null), fc.nat(), fc.string({ maxLength: 2 }))).map(([k, v]) => ({ [k]: v }))),
})).value;
const encodingName = fc.constantFrom('g', 'f', 'F', 'i0', 'i9', 'd0', 'd5+', 'i3+', '=0', '=1', 'S0', 'S2', '=9999', 'Z', 'i10');
// a name wrapped in a list, or an object whose toString is not a function: what JSON can hold
const encodingValue = fc.oneof(encodingName, encodingName.map((e) => [e]), fc.tuple(fc.constantFrom('toString', 'valueOf'), jsonish).map(([k, v]) => ({ [k]: v })), jsonish);
const descriptorsArb = fc.array(fc.oneof({ weight: 4, arbitrary: fc.tuple(fc.string({ maxLength: 4 }), fc.constantFrom('', 'summary'),
  fc.oneof(fc.nat(10), boundNumber), fc.array(fc.oneof({ weight: 5, arbitrary: fc.tuple(fc.string({ maxLength: 4 }),
    fc.oneof(fc.constantFrom('float', 'int', 'bool', 'string'), jsonish), fc.constantFrom('', 'ms'), encodingValue, fc.oneof(fc.constantFrom(0, 1), jsonish)) },
  { weight: 1, arbitrary: jsonish }), { maxLength: 5 })) }, { weight: 1, arbitrary: jsonish }), { maxLength: 4 });

// All the paths into a JSON value, and one replaced, removed or added.
function paths(value, at = [], out = []) {
  out.push(at);
  if (out.length > 2000 || value === null || typeof value !== 'object') return out;
  for (const key of Object.keys(value)) paths(value[key], [...at, Array.isArray(value) ? Number(key) : key], out);
  return out;
}
function editDocument(doc, { pick, top, action, value, key }) {
  const copy = structuredClone(doc);
  const all = paths(copy).slice(1).filter((p) => !top || p.length === 1);
  if (all.length === 0) return value;
  const where = all[pick % all.length];
  const parent = where.slice(0, -1).reduce((v, k) => v[k], copy);
  const last = where[where.length - 1];
  if (action === 'replace') parent[last] = value;
  else if (action === 'remove') Array.isArray(parent) ? parent.splice(last, 1) : delete parent[last];
  else if (parent[last] !== null && typeof parent[last] === 'object') {
    if (Array.isArray(parent[last])) parent[last].push(value);
    else parent[last][key] = value;
  }
  return copy;
}
const docEdit = fc.record({ pick: fc.nat(), top: fc.boolean(), action: fc.constantFrom('replace', 'remove', 'add'), value: jsonish, key: fc.oneof(dictionaryKey, fc.string({ maxLength: 4 })) });

// --- the properties --------------------------------------------------------------------
let corpus;  // valid links and files made from generated reports, to mutate
async function makeCorpus() {
  const samples = fc.sample(loadedArb, { seed: SEED, numRuns: 24 });
  corpus = [];
  for (const loaded of samples) {
    const file = await share.encodeSollensFile(loaded);
    const link = await share.encodeShare(loaded, 'http://127.0.0.1/index.html');
    const linkBytes = Buffer.from(link.url.slice(link.url.indexOf('#report=') + 8), 'base64url');
    corpus.push({ file: Buffer.from(file), link: linkBytes, v2: version2Bytes(loaded), ...splitContainer(Buffer.from(file)) });
  }
  const rankSet = { ranks: [{ rank: 0, file: 'r0.json', rankFrom: 'distributedInfo' }], simplifiedMode: false, metadataMismatches: 0, skipped: [],
    sheets: samples.find((s) => s.report.sheets.length > 1).report.sheets };
  const rankFile = Buffer.from(await share.encodeSollensFile({ rankSet, name: 'r', version: '1' }));
  corpus.push({ file: rankFile, link: rankFile, v2: corpus[0].v2, ...splitContainer(rankFile) });
}

// A decode that must resolve or reject with ShareError, in time, within MAX_CELLS.
async function decodesSafely(decode) {
  const started = performance.now();
  let result;
  try {
    result = await decode();
  } catch (e) {
    if (!(e instanceof share.ShareError)) throw new Error(`threw ${e?.constructor?.name}: ${e?.message} (${String(e?.stack).split('\n').slice(1, 4).join(' ')})`);
    if (typeof e.title !== 'string' || typeof e.hint !== 'string') throw new Error('a ShareError without title or hint');
  }
  const took = performance.now() - started;
  if (took > TIME_BOUND_MS) throw new Error(`took ${took.toFixed(0)} ms (bound ${TIME_BOUND_MS} ms)`);
  if (result && reportCells(result) > MAX_CELLS) throw new Error(`returned ${reportCells(result)} cells`);
  return result;
}

const sheetListsOf = (r) => [r.report.sheets, r.cycles?.sheets ?? []];
const properties = {
  'codec round trip': { bounded: 400, share: 0.02, property: fc.property(sheetsArb, (sheets) => {
    const strings = stringTable([sheets]);
    const writer = new ByteWriter();
    const descriptors = packSheets(sheets, writer, strings);
    // through JSON, as the link's document carries them
    const reader = new ByteReader(writer.done());
    const back = unpackSheets(JSON.parse(JSON.stringify(descriptors)), reader, 'sheets', JSON.parse(JSON.stringify(strings.list)));
    const difference = sheetDifference(sheets, back);
    if (difference) throw new Error(difference);
    if (reader.left() !== 0) throw new Error(`${reader.left()} bytes left`);
  }) },
  'file and link round trip': { bounded: 40, share: 0.001, property: fc.asyncProperty(loadedArb, fc.boolean(), async (loaded, asLink) => {
    let back;
    if (asLink) {
      const link = await share.encodeShare(loaded, 'http://127.0.0.1/index.html');
      if (link.dropped.length) return;  // too big for a link: the file keeps every row
      back = await share.decodeShare(link.url.slice(link.url.indexOf('#')));
    } else back = await share.decodeSollensFile(await share.encodeSollensFile(loaded));
    for (const [i, list] of sheetListsOf(loaded).entries()) {
      const difference = sheetDifference(list, sheetListsOf(back)[i]);
      if (difference) throw new Error(difference);
    }
  }) },
  'format 2 round trip': { bounded: 30, share: 0.001, property: fc.asyncProperty(loadedArb, async (loaded) => {
    const back = await share.decodeShare(linkOfBytes(version2Bytes(loaded)));
    for (const [i, list] of sheetListsOf(loaded).entries()) {
      const difference = sheetDifference(list, sheetListsOf(back)[i], sameInJson);
      if (difference) throw new Error(difference);
    }
  }) },
  'codec robustness': { bounded: 1500, share: 0.8, property: fc.property(descriptorsArb, fc.oneof(fc.uint8Array({ maxLength: 64 }),
    fc.array(fc.constantFrom(0, 1, 2, 127, 128, 255), { maxLength: 64 }).map((b) => Uint8Array.from(b))), fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }),
  (descriptors, bytes, strings) => {
    try {
      // as a link's document holds them: parsed JSON
      const sheets = unpackSheets(JSON.parse(JSON.stringify(descriptors)), new ByteReader(bytes), 'sheets', strings);
      if (cellsOf([sheets]) > MAX_CELLS) throw new Error('more than MAX_CELLS cells');
    } catch (e) {
      if (!(e instanceof CodecError)) throw new Error(`threw ${e?.constructor?.name}: ${e?.message}`);
    }
  }) },
  'arbitrary fragments': { bounded: 150, share: 0.08, property: fc.asyncProperty(fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/ #%'.split('')), maxLength: 80 }).map((s) => `#report=${s}`),
    fc.uint8Array({ maxLength: 200 }).map((b) => `#report=${b64(b)}`),
    fc.tuple(fc.constantFrom([...MAGIC, 3], [0x1f, 0x8b], [...MAGIC, 2], [...MAGIC]), fc.uint8Array({ maxLength: 200 }))
      .map(([head, tail]) => linkOfBytes(Buffer.concat([Buffer.from(head), tail]))),
  ), async (fragment) => {
    await decodesSafely(() => share.decodeShare(fragment));
  }) },
  'arbitrary .sollens files': { bounded: 60, share: 0.05, property: fc.asyncProperty(fc.tuple(fc.constantFrom([], [...MAGIC], [...MAGIC, 3]), fc.uint8Array({ maxLength: 300 })),
    async ([head, tail]) => {
      await decodesSafely(() => share.decodeSollensFile(new Uint8Array(Buffer.concat([Buffer.from(head), tail]))));
    }) },
  'mutated links': { bounded: 120, share: 0.02, property: fc.asyncProperty(fc.nat(), fc.constantFrom('link', 'file', 'v2'), fc.array(mutation, { minLength: 1, maxLength: 4 }),
    async (pick, layer, mutations) => {
      const entry = corpus[pick % corpus.length];
      const bytes = mutate(entry[layer], mutations);
      await decodesSafely(() => (layer === 'file' ? share.decodeSollensFile(new Uint8Array(bytes)) : share.decodeShare(linkOfBytes(bytes))));
    }) },
  'mutated payloads': { bounded: 100, share: 0.004, property: fc.asyncProperty(fc.nat(), fc.array(mutation, { minLength: 1, maxLength: 4 }),
    fc.option(fc.oneof(fc.nat(), boundNumber, fc.constant(2 ** 53 - 1)), { freq: 4 }), async (pick, mutations, bogusLength) => {
      const { doc, columns } = corpus[pick % corpus.length];
      let payload = payloadOf(doc, mutate(columns, mutations));
      if (bogusLength !== null && bogusLength >= 0 && Number.isSafeInteger(bogusLength)) {
        const reader = new ByteReader(payload);
        reader.varint();
        payload = Buffer.concat([varintBytes(bogusLength), payload.subarray(reader.offset)]);
      }
      await decodesSafely(() => share.decodeShare(linkOfBytes(containerOf(payload))));
    }) },
  'mutated documents': { bounded: 100, share: 0.004, property: fc.asyncProperty(fc.nat(), fc.array(docEdit, { minLength: 1, maxLength: 3 }), fc.boolean(),
    async (pick, edits, asVersion2) => {
      const entry = corpus[pick % corpus.length];
      if (asVersion2) {
        const doc = edits.reduce(editDocument, JSON.parse(Buffer.from(await new Response(new Blob([entry.v2]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer())));
        await decodesSafely(() => share.decodeShare(linkOfBytes(gzipSync(JSON.stringify(doc)))));
      } else {
        const doc = edits.reduce(editDocument, entry.doc);
        await decodesSafely(() => share.decodeShare(linkOfBytes(containerOf(payloadOf(doc, entry.columns)))));
      }
    }) },
};

// --- the declared bounds, checked once ------------------------------------------------------
async function refusal(decode) {
  const started = performance.now();
  try {
    await decode();
  } catch (e) {
    return { error: e, ms: performance.now() - started };
  }
  return { error: null, ms: performance.now() - started };
}
async function boundChecks() {
  const zeros = Buffer.alloc(share.MAX_JSON_BYTES + 1);
  const deflateBomb = linkOfBytes(containerOf(zeros));
  const gzipBomb = linkOfBytes(gzipSync(zeros));
  for (const [what, fragment] of [['deflate bomb', deflateBomb], ['gzip bomb (format 2)', gzipBomb]]) {
    const { error, ms } = await refusal(() => share.decodeShare(fragment));
    check(error instanceof share.ShareError && /expands to more than 48 MiB/.test(error.title) && ms < TIME_BOUND_MS,
      `a ${what} of MAX_JSON_BYTES + 1 zeros (${fragment.length} characters) is refused in ${ms.toFixed(0)} ms: ${error?.title}`);
  }
  // a cell's text as long as a report may hold (a long op's arguments): bounded only by the payload
  for (const length of [100_000, 1_000_000]) {
    const long = `${'µ'.repeat(length - 1)}\ud800`;
    const loaded = loadedOf([{ name: 'long', kind: '', rows: 2, columns: [{ name: 't', type: 'string', unit: '', validity: Uint8Array.of(1, 1),
      codes: Int32Array.of(0, 1), dictionary: [long, 'short'] }] }]);
    const file = await refusal(async () => {
      const back = await share.decodeSollensFile(await share.encodeSollensFile(loaded));
      if (sheetDifference(loaded.report.sheets, back.report.sheets)) throw new Error('differs');
    });
    const v2 = await refusal(async () => {
      const back = await share.decodeShare(linkOfBytes(version2Bytes(loaded)));
      if (sheetDifference(loaded.report.sheets, back.report.sheets)) throw new Error('differs');
    });
    check(file.error === null && v2.error === null, `a cell text of ${length} characters round trips through a .sollens file and a format 2 link${
      file.error || v2.error ? `: ${(file.error ?? v2.error).message}` : ''}`);
  }
  // MAX_CELLS + 1 cells claimed (the bytes are not there): refused before anything is allocated
  const { doc } = corpus[0];
  const claim = (rows, copies) => ({ ...doc, strings: [], cycles: null,
    report: { ...doc.report, sheets: [['big', '', rows, [['x', 'float', '', 'i0', 0], ...Array.from({ length: copies }, (_, i) => [`y${i}`, 'float', '', '=0', 0])]]] } });
  const before = process.memoryUsage().arrayBuffers;
  const over = await refusal(() => share.decodeShare(linkOfBytes(containerOf(payloadOf(claim(MAX_CELLS / 20 + 1, 19), Buffer.alloc(0))))));
  check(over.error instanceof share.ShareError && /claims more than 20000000 cells/.test(over.error.title)
    && process.memoryUsage().arrayBuffers - before < 64 << 20, `a link claiming MAX_CELLS + 20 cells (20 columns × 1,000,001 rows) is refused in ${over.ms.toFixed(0)} ms: ${over.error?.title}`);
  // exactly MAX_CELLS: one column of MAX_ROWS zeros, nine copies of it; read
  const at = await refusal(() => share.decodeShare(linkOfBytes(containerOf(payloadOf(claim(MAX_CELLS / 10, 9), Buffer.alloc(MAX_CELLS / 10))))));
  check(at.error === null, `a link of exactly MAX_CELLS cells (10 columns × 2,000,000 rows) is read in ${at.ms.toFixed(0)} ms${at.error ? `: ${at.error.title}` : ''}`);
}

// --- running -----------------------------------------------------------------------------
function describe(name, details) {
  const example = fc.stringify(details.counterexample).slice(0, 1500);
  return `${name}: ${details.errorInstance?.message ?? details.error}\n  counterexample: ${example}\n  replay: seed ${details.seed}, path "${details.counterexamplePath}"`;
}

// `runs` executions of each property, in chunks (a failure is reported and the run goes on
// with the next chunk's seed); returns {executions, ms} per property.
async function runAll(runsOf, chunk) {
  const stats = {};
  let executions = 0;
  const started = performance.now();
  for (const name of Object.keys(properties)) stats[name] = { executions: 0, planned: 0, ms: 0, failures: 0 };
  const names = Object.keys(properties);
  for (let round = 0; names.some((n) => stats[n].planned < runsOf(n)); round++) {
    for (const name of names) {
      const left = runsOf(name) - stats[name].planned;
      if (left <= 0) continue;
      const numRuns = Math.min(chunk, left);
      const t0 = performance.now();
      const details = await fc.check(properties[name].property, { seed: SEED + round * 7919 + names.indexOf(name), numRuns });
      stats[name].ms += performance.now() - t0;
      stats[name].executions += details.numRuns;
      stats[name].planned += numRuns;  // a failure ends its chunk early: the next chunk goes on
      executions += details.numRuns;
      if (details.failed) {
        stats[name].failures++;
        check(false, describe(name, details));
      }
    }
    if (TOTAL_RUNS) {
      const s = (performance.now() - started) / 1000;
      console.log(`progress: ${executions} executions in ${s.toFixed(0)} s (${(executions / s).toFixed(0)}/s)`);
    }
  }
  return stats;
}

if (ONLY) for (const name of Object.keys(properties)) if (name !== ONLY) delete properties[name];
await makeCorpus();
await boundChecks();
// The long run spreads its executions by `share` (the cheap codec-level properties get
// most, the link-level ones, a few hundred a second, enough to run for minutes each).
const shares = Object.values(properties).reduce((n, p) => n + p.share, 0);
const bounded = !TOTAL_RUNS;
const started = performance.now();
const stats = await runAll(bounded ? (n) => properties[n].bounded : (n) => Math.ceil((TOTAL_RUNS * properties[n].share) / shares),
  bounded ? 2000 : 20_000);
const seconds = (performance.now() - started) / 1000;
let total = 0;
for (const [name, s] of Object.entries(stats)) {
  total += s.executions;
  check(s.failures === 0, `${name}: ${s.executions} executions, ${(s.executions / (s.ms / 1000)).toFixed(0)}/s, ${s.failures} failing chunks`);
}
console.log(`share codec fuzz: ${total} executions in ${seconds.toFixed(1)} s, ${(total / seconds).toFixed(0)} executions/s (seed ${SEED})`);
finish();
