// Share links of format 3 (web/share.mjs, web/share-codec.mjs), run by share_codec_test.mjs:
// every column encoding round trips (whole and decimal numbers, sorted ones, decimals off by
// rounding noise, copies and running sums of other columns, float32 and
// float64 values, NaN, infinities, -0, nulls, booleans, large integers, strings with HTML
// and unicode, empty sheets); a link made on a view carries that view's sheets and the
// overview's and says so; a rank set and a .sollens file round trip; every malformed
// link or file (bad magic, another version, truncated deflate, a deflate bomb, absurd
// sizes, short column bytes, an endless varint, codes past the string table, bytes left
// over, unknown encodings, a fraction in an int column) is refused with a ShareError.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { ByteReader, ByteWriter } from '../../web/share-codec.mjs';

const BASE = 'http://127.0.0.1:8080/index.html';
const fragmentOf = (url) => url.slice(url.indexOf('#'));
const b64 = (buf) => Buffer.from(buf).toString('base64url');
const MAGIC = [0x53, 0x4c, 0x4e, 0x53];

const valid = (n) => new Uint8Array(n).fill(1);
const numbers = (name, type, values, validity = valid(values.length)) => ({ name, type, unit: 'ms', validity, values: Float64Array.from(values) });
function strings(name, texts) {
  const dictionary = [...new Set(texts.filter((t) => t !== null))];
  return { name, type: 'string', unit: '', validity: Uint8Array.from(texts, (t) => (t === null ? 0 : 1)),
    codes: Int32Array.from(texts, (t) => (t === null ? -1 : dictionary.indexOf(t))), dictionary };
}

// One sheet per encoding the codec picks, and the awkward values.
function syntheticSheets() {
  const n = 300;
  const rand = (i) => Math.sin(i * 12.9898) * 43758.5453;
  return [
    { name: 'decimals', kind: 'summary', rows: 5, columns: [numbers('ms', 'float', [0.25, 1.5, 12.125, -3.75, 1e6])] },
    { name: 'sorted', kind: 'summary', rows: n, columns: [numbers('ts', 'float', Array.from({ length: n }, (_, i) => 1.7e12 + i * 3.001))] },
    { name: 'rounding noise', kind: 'summary', rows: 6, columns: [numbers('bin', 'float', Array.from({ length: 6 }, (_, i) => 1.6 + i * 0.0752))] },
    { name: 'derived', kind: 'summary', rows: 4, columns: [numbers('pct', 'float', [40.1, 30.2, 20.3, 9.4]), strings('op', ['a', 'b', 'c', 'd']),
      numbers('cum', 'float', [40.1, 40.1 + 30.2, 40.1 + 30.2 + 20.3, 40.1 + 30.2 + 20.3 + 9.4]), numbers('again', 'float', [40.1, 30.2, 20.3, 9.4]),
      numbers('with nulls', 'float', [1, 0, 3, 0], Uint8Array.of(1, 0, 1, 0)), numbers('same nulls', 'int', [1, 0, 3, 0], Uint8Array.of(1, 0, 1, 0))] },
    { name: 'float32', kind: 'summary', rows: 3, columns: [numbers('f', 'float', [Math.fround(0.1), Math.fround(1 / 3), 2 ** -30])] },
    { name: 'float64', kind: 'summary', rows: n, columns: [numbers('g', 'float', Array.from({ length: n }, (_, i) => rand(i)))] },
    { name: 'odd floats', kind: 'summary', rows: 7, columns: [numbers('x', 'float', [NaN, Infinity, -Infinity, -0, 0, 5e-324, Number.MAX_VALUE])] },
    { name: 'nulls', kind: 'summary', rows: 9, columns: [
      numbers('x', 'float', [1, 0, 2.5, 0, NaN, 0, 0, 0, 7], Uint8Array.of(1, 0, 1, 0, 1, 0, 0, 0, 1)),
      numbers('i', 'int', [0, 0, 0, 0, 0, 0, 0, 0, 0], new Uint8Array(9)),
      numbers('b', 'bool', [1, 0, 0, 1, 0, 1, 1, 0, 1], Uint8Array.of(1, 1, 0, 1, 1, 1, 0, 1, 1)),
      strings('s', [null, 'a', null, 'a', 'b', null, null, null, 'c'])] },
    { name: 'ints', kind: 'summary', rows: 4, columns: [numbers('i', 'int', [2 ** 53 - 1, -(2 ** 53) + 1, 0, -1])] },
    { name: 'texts', kind: 'summary', rows: 5, columns: [strings('t', ['<img src=x onerror=alert(1)>', 'µs ✓ 日本語 🚀', '', 'a\u0000b\u202e', '"quotes" & \\back'])] },
    { name: 'empty', kind: 'hta', rows: 0, columns: [numbers('x', 'float', []), strings('s', [])] },
    { name: 'no columns', kind: '', rows: 0, columns: [] },
  ];
}

// A link's bytes, split into the document and its column bytes (and joined back).
function splitLink(url) {
  const bytes = Buffer.from(fragmentOf(url).slice('#report='.length), 'base64url');
  const payload = inflateRawSync(bytes.subarray(5));
  const reader = new ByteReader(payload);
  const size = reader.varint();
  const doc = JSON.parse(Buffer.from(reader.take(size)).toString('utf8'));
  return { doc, columns: payload.subarray(reader.offset) };
}
function joinLink(doc, columns, { version = 3, magic = MAGIC } = {}) {
  const meta = Buffer.from(JSON.stringify(doc));
  const w = new ByteWriter();
  w.varint(meta.length);
  w.raw(meta);
  w.raw(columns);
  return `#report=${b64(Buffer.concat([Buffer.from([...magic, version]), deflateRawSync(w.done())]))}`;
}

export async function formatChecks({ share, load, check, sameSheets }) {
  const { gzOf } = await import('./support/harness.mjs');
  const loaded = load(gzOf('tracelens-h100-bert-small'));

  // Every encoding, value for value.
  const sheets = syntheticSheets();
  const synthetic = { ...loaded, report: { ...loaded.report, sheets }, cycles: null };
  const link = await share.encodeShare(synthetic, BASE);
  const back = await share.decodeShare(fragmentOf(link.url));
  check(sameSheets(sheets, back.report.sheets, 'synthetic'), `format 3: ${sheets.length} synthetic sheets (every encoding, NaN, ±inf, -0, nulls, HTML, unicode, empty) round trip`);
  const encodings = splitLink(link.url).doc.report.sheets.flatMap((d) => d[3].map((c) => c[3]));
  const used = new Set(encodings.map((e) => e[0]));
  check(['i', 'd', 'f', 'F', 'g', '=', 'S'].every((e) => used.has(e)) && encodings.some((e) => e.endsWith('+')),
    `format 3: the synthetic sheets use every encoding (${[...new Set(encodings)].join(' ')})`);
  check(Object.is(back.report.sheets.find((s) => s.name === 'odd floats').columns[0].values[3], -0), 'format 3: -0 stays -0');

  // A link made on a view: that view's sheets and the overview's; it says which.
  const onKernels = await share.encodeShare(loaded, BASE, { view: 'kernels' });
  const kernels = await share.decodeShare(fragmentOf(onKernels.url));
  const names = kernels.report.sheets.map((s) => s.name);
  check(kernels.views.join() === 'overview,kernels' && kernels.view === 'kernels' && onKernels.views.join() === 'overview,kernels',
    `a link made on the kernels view holds the overview and kernels views (${names.length} sheets)`);
  check(names.includes('short_kernel_histogram') && names.includes('gpu_timeline') && !names.includes('ops_unique_args') && !names.includes('critical_path_breakdown'),
    'the kernels link has the kernels view\'s sheets and the overview\'s, not the ops or critical path sheets');
  check(sameSheets(loaded.report.sheets.filter((s) => names.includes(s.name)), kernels.report.sheets, 'kernels link'), 'the kernels link\'s sheets equal the report\'s');
  const onOps = await share.encodeShare(loaded, BASE, { view: 'ops' });
  check(onOps.views.join() === 'overview,ops,roofline', `a link made on the ops view also holds the roofline view, whose sheets are all in it (${onOps.views.join(', ')})`);
  const onCycles = await share.decodeShare(fragmentOf((await share.encodeShare(loaded, BASE, { view: 'cycles' })).url));
  check(sameSheets(loaded.cycles.sheets, onCycles.cycles.sheets, 'cycles link') && onCycles.cycles.preambles.length === loaded.cycles.sheets.length,
    'a link made on the cycles view carries every cycle sheet');

  // A rank set, and .sollens files.
  const rankSet = { ranks: [{ rank: 0, file: 'r0.json', rankFrom: 'distributedInfo' }, { rank: 1, file: '<b>r1</b>.json', rankFrom: 'distributedInfo' }],
    simplifiedMode: false, metadataMismatches: 0, skipped: [], sheets };
  const ranksBack = await share.decodeShare(fragmentOf((await share.encodeRanksShare(rankSet, BASE, '2 rank traces', '1.0')).url));
  check(ranksBack.rankSet && ranksBack.rankSet.ranks[1].file === '<b>r1</b>.json' && sameSheets(sheets, ranksBack.rankSet.sheets, 'ranks')
    && ranksBack.views.join() === 'ranks', 'a rank set round trips through a link');
  const file = await share.encodeSollensFile(loaded);
  const fromFile = await share.decodeSollensFile(file);
  const { isSollensHead } = await import('../../web/sniff.mjs');
  check(isSollensHead(file) && fromFile.views === null && sameSheets(loaded.report.sheets, fromFile.report.sheets, 'file')
    && sameSheets(loaded.cycles.sheets, fromFile.cycles.sheets, 'file cycles'), `a .sollens file (${file.length} bytes) holds every view and round trips; sniff.mjs knows it by its magic`);
  const rankFile = await share.decodeSollensFile(await share.encodeSollensFile({ rankSet, name: 'r', version: '1' }));
  check(sameSheets(sheets, rankFile.rankSet.sheets, 'rank file'), 'a rank set round trips through a .sollens file');

  // Malformed links and files.
  const { doc, columns } = splitLink(link.url);
  const withDoc = (f, cols = columns) => {
    const d = structuredClone(doc);
    f(d);
    return joinLink(d, cols);
  };
  const varintBytes = (n) => {
    const w = new ByteWriter();
    w.varint(n);
    return w.done();
  };
  const hostile = [
    ['bad magic', `#report=${b64(Buffer.from('XXXXX-not-sollens'))}`, /not one sollens makes/],
    ['a newer format', joinLink(doc, columns, { version: 9 }), /newer version of sollens \(format 9/],
    ['truncated deflate', link.url.slice(link.url.indexOf('#'), link.url.indexOf('#') + 400), /damaged/],
    ['deflate bomb (100 MiB of zeros)', `#report=${b64(Buffer.concat([Buffer.from([...MAGIC, 3]), deflateRawSync(Buffer.alloc(100 << 20))]))}`, /expands to more than/],
    ['document longer than the data', `#report=${b64(Buffer.concat([Buffer.from([...MAGIC, 3]), deflateRawSync(Buffer.concat([varintBytes(1e6), Buffer.from('{}')]))]))}`, /could not be read/],
    ['absurd sizes', withDoc((d) => { d.report.sheets = [['huge', '', 2_000_000, Array.from({ length: 2000 }, (_, i) => [`c${i}`, 'float', '', 'F', 0])]]; }, new Uint8Array(0)), /claims more than/],
    ['column bytes cut short', joinLink(doc, columns.subarray(0, columns.length - 40)), /ends early|not a valid/],
    ['an endless number', withDoc((d) => { d.report.sheets = [['s', '', 1, [['x', 'int', '', 'i0', 0]]]]; }, new Uint8Array(12).fill(0xff)), /longer than any sollens writes/],
    ['a code past the string table', withDoc((d) => { d.report.sheets = [['s', '', 1, [['x', 'string', '', 'g', 0]]]]; }, Uint8Array.of(100)), /past the string table/],
    ['a string table of numbers', withDoc((d) => { d.strings = [1, 2]; }), /strings\[0\] is not a text/],
    ['bytes left over', joinLink(doc, Buffer.concat([columns, Buffer.from([1, 2, 3])])), /3 bytes after its tables/],
    ['a copy of a later column', withDoc((d) => { d.report.sheets = [['s', '', 1, [['x', 'float', '', '=1', 0], ['y', 'float', '', 'i0', 0]]]]; }, Uint8Array.of(2)), /derived from a column it cannot be/],
    ['a copy of a text column', withDoc((d) => { d.strings = ['a']; d.report.sheets = [['s', '', 1, [['t', 'string', '', 'g', 0], ['y', 'float', '', '=0', 0]]]]; }, Uint8Array.of(1)), /derived from a column it cannot be/],
    ['a running sum over empty cells', withDoc((d) => { d.report.sheets = [['s', '', 2, [['x', 'float', '', 'i0', 1], ['y', 'float', '', 'S0', 0]]]]; }, Uint8Array.of(1, 2)), /sums a column with empty cells/],
    ['an unknown encoding', withDoc((d) => { d.report.sheets = [['s', '', 1, [['x', 'float', '', 'Z', 0]]]]; }, Uint8Array.of(0)), /unknown encoding/],
    ['a fraction in an int column', withDoc((d) => { d.report.sheets = [['s', '', 1, [['x', 'int', '', 'i1', 0]]]]; }, Uint8Array.of(2)), /not int/],
    ['a sheet that is not one', withDoc((d) => { d.report.sheets = [{ name: 's' }]; }, new Uint8Array(0)), /not one/],
    ['an unknown key', withDoc((d) => { d.script = 1; }), /unknown entry "script"/],
    ['a view name with markup', withDoc((d) => { d.views = ['<b>']; }), /not a view name/],
  ];
  for (const [what, fragment, want] of hostile) {
    let error;
    const started = Date.now();
    try {
      await share.decodeShare(fragment);
    } catch (e) {
      error = e;
    }
    check(error instanceof share.ShareError && want.test(error.title) && error.hint,
      `hostile format 3 link (${what}) refused in ${Date.now() - started} ms: ${error?.title ?? 'no error'}`);
  }
  let fileError;
  try {
    await share.decodeSollensFile(new Uint8Array([0x7b, 0x7d]));
  } catch (e) {
    fileError = e;
  }
  check(fileError instanceof share.ShareError && /This \.sollens file is not one sollens makes/.test(fileError.title), `a file that is not .sollens is refused: ${fileError?.title}`);
  let bigError;
  try {
    await share.decodeSollensFile({ size: share.MAX_FILE_BYTES + 1 });  // a File, not read
  } catch (e) {
    bigError = e;
  }
  check(bigError instanceof share.ShareError && /larger than any sollens writes/.test(bigError.title), `a .sollens file too big is refused unread: ${bigError?.title}`);
  loaded.session.delete();
}
