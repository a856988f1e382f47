// Share links (web/share.mjs) under node: round trips and hostile links.
//   node tests/web/share_codec_test.mjs [--site build/wasm/web]
// Links are format 3 (share.mjs: deflate-raw of packed columns); format 2 links (gzip'd
// JSON, made before) still open, and the hostile cases below are written in format 2;
// share_format_checks.mjs checks format 3's encodings, view subsets, rank sets, .sollens
// files and hostile format 3 links.
// For the H100 BERT and owlv2 traces: encode, decode, and every sheet (with its kind),
// column (with its unit), value, null and string equals the original, and so do the
// roofline ceilings; prints the link lengths. A report too big for
// a link keeps its other sheets and names the emptied one. Hostile fragments (bad
// base64, not gzip, a gzip bomb, truncation, wrong types, unknown keys, out-of-range
// codes, a future version, oversize) are refused with a ShareError. The SOL result reads
// with sol.json's keys, also from a link made before them. Exits non-zero on any failure.
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { nodeReport } from './node_report.mjs';
import { version2Doc } from './share_v2.mjs';
import { defaultSite, gzOf, pathOptions, checks } from './support/harness.mjs';

const site = pathOptions()('--site', defaultSite);
const { check, finish } = checks('share codec');
const { load } = await nodeReport(site);
const share = await import(path.join(site, 'share.mjs'));
const BASE = 'http://127.0.0.1:8080/index.html';
const fragmentOf = (url) => url.slice(url.indexOf('#'));

function sameSheets(a, b, label) {
  let bad = 0;
  const say = (what) => bad++ < 5 && console.log(`  ${label}: ${what}`);
  if (a.length !== b.length) say(`${a.length} vs ${b.length} sheets`);
  a.forEach((s, i) => {
    const t = b[i];
    if (!t || s.name !== t.name || (s.kind ?? '') !== t.kind || s.rows !== t.rows || s.columns.length !== t.columns.length)
      return say(`sheet ${s.name} differs`);
    s.columns.forEach((c, j) => {
      const d = t.columns[j];
      if (c.name !== d.name || c.type !== d.type || (c.unit ?? '') !== d.unit) return say(`${s.name}.${c.name} name/type/unit`);
      for (let r = 0; r < s.rows; r++) {
        if (c.validity[r] !== d.validity[r]) return say(`${s.name}.${c.name}[${r}] validity`);
        if (!c.validity[r]) continue;
        const x = c.type === 'string' ? c.dictionary[c.codes[r]] : c.values[r];
        const y = d.type === 'string' ? d.dictionary[d.codes[r]] : d.values[r];
        if (!Object.is(x, y)) return say(`${s.name}.${c.name}[${r}] ${x} vs ${y}`);
      }
    });
  });
  return bad === 0;
}

for (const set of ['tracelens-h100-bert-small', 'tracelens-h100-owlv2-large']) {
  const loaded = load(gzOf(set));
  const link = await share.encodeShare(loaded, BASE);
  console.log(`${set}: link ${link.chars} characters (${link.bytes} bytes), ${link.dropped.length} sheets emptied`);
  check(link.url.startsWith(`${BASE}#report=`) && link.chars <= share.LINK_BUDGET, `${set}: link within ${share.LINK_BUDGET} characters`);
  const back = await share.decodeShare(fragmentOf(link.url));
  check(back.shared === true && back.name === loaded.name && back.fileBytes === loaded.fileBytes, `${set}: name and size come back`);
  check(JSON.stringify(back.info) === JSON.stringify(loaded.info) && JSON.stringify(back.gpuTimeline) === JSON.stringify(loaded.gpuTimeline)
    && JSON.stringify(back.report.device) === JSON.stringify(loaded.report.device) && back.traceMetadata === loaded.traceMetadata
    && JSON.stringify(back.report.rooflineCeilings) === JSON.stringify(loaded.report.rooflineCeilings),
  `${set}: info, GPU timeline, device, roofline ceilings and trace metadata equal`);
  // Worth comparing: the sample's sheets have kinds and units, the H100 its ceilings.
  check(loaded.report.sheets.some((s) => s.kind === 'perf_model') && loaded.report.sheets.some((s) => s.columns.some((c) => c.unit === 'µs'))
    && loaded.report.rooflineCeilings.matrix_bf16?.peak === 'bf16', `${set}: the report carries kinds, units and ceilings`);
  check(sameSheets(loaded.report.sheets, back.report.sheets, set), `${set}: all ${loaded.report.sheets.length} report sheets equal, value for value`);
  check(sameSheets(loaded.cycles.sheets, back.cycles.sheets, set) && back.cycles.summary === loaded.cycles.summary,
    `${set}: cycles (${loaded.cycles.sheets.length} sheets) equal`);
  loaded.session.delete();
}

// A cut-short trace's report with the unlinked GPU events counted says so once opened.
{
  const loaded = load(gzOf('tracelens-h100-bert-small'));
  const marked = { ...loaded, cutShort: true, report: { ...loaded.report, includeUnlinked: true } };
  const back = await share.decodeShare(fragmentOf((await share.encodeShare(marked, BASE)).url));
  check(back.cutShort === true && back.report.includeUnlinked === true && typeof back.info.unlinkedGpuTimeUs === 'number'
    && back.info.linkedBy === loaded.info.linkedBy, 'cutShort, includeUnlinked and the linking facts come back');
  loaded.session.delete();
}

// Too big for a URL: one sheet of 250,000 random doubles (incompressible) is emptied.
const rows = 250_000;
const values = Float64Array.from({ length: rows }, (_, i) => Math.sin(i * 12.9898) * 43758.5453);
const small = { name: 'small', rows: 2, columns: [{ name: 'x', type: 'string', validity: Uint8Array.of(1, 0), codes: Int32Array.of(0, -1), dictionary: ['a'] }] };
const big = { name: 'huge', rows, columns: [{ name: 'v', type: 'float', validity: new Uint8Array(rows).fill(1), values }] };
const loadedBase = load(gzOf('tracelens-h100-bert-small'));
const huge = { ...loadedBase, report: { ...loadedBase.report, sheets: [small, big] } };
const hugeLink = await share.encodeShare(huge, BASE);
const hugeBack = await share.decodeShare(fragmentOf(hugeLink.url));
check(hugeLink.chars <= share.LINK_BUDGET && hugeLink.dropped.join() === 'huge' && hugeBack.dropped.join() === 'huge',
  `too big: the largest sheet is emptied and named (${hugeLink.chars} characters, dropped: ${hugeLink.dropped.join(', ')})`);
check(hugeBack.report.sheets[1].rows === 0 && hugeBack.report.sheets[1].columns[0].name === 'v' && sameSheets([small], [hugeBack.report.sheets[0]], 'small'),
  'too big: the emptied sheet keeps its columns, the others their rows');

// Hostile links: every one refused with a ShareError, in plain words.
const b64 = (buf) => Buffer.from(buf).toString('base64url');
// The hostile cases below are links of format 2 (gzip'd JSON, still read): a report
// written in that format as the page before format 3 wrote it.
const good = version2Doc({ ...huge, report: { ...huge.report, sheets: [small, { ...big, rows: 0 }] } });
const linkOf = (doc) => `#report=${b64(gzipSync(JSON.stringify(doc)))}`;
{
  const old = await share.decodeShare(linkOf(version2Doc(loadedBase)));
  check(old.views === null && sameSheets(loadedBase.report.sheets, old.report.sheets, 'format 2') && old.name === loadedBase.name,
    `a link of format 2 (made before format 3) still opens, every view in it (${loadedBase.report.sheets.length} sheets equal)`);
}
const mutate = (f) => {
  const d = structuredClone(good);
  f(d);
  return linkOf(d);
};
const hostile = [
  ['not a share link', '#foo=1', /not a sollens share link/],
  ['bad base64', '#report=<script>alert(1)</script>', /damaged/],
  ['not gzip (nor format 3)', `#report=${b64('hello, world, not gzip')}`, /not one sollens makes/],
  ['truncated', fragmentOf(hugeLink.url).slice(0, 2000), /damaged/],
  ['gzip bomb (100 MiB of zeros)', `#report=${b64(gzipSync(Buffer.alloc(100 << 20)))}`, /expands to more than/],
  ['not JSON', `#report=${b64(gzipSync('{"v":2,'))}`, /could not be read/],
  ['invalid UTF-8', `#report=${b64(gzipSync(Buffer.from([0x7b, 0xff, 0x7d])))}`, /could not be read/],
  ['future version', mutate((d) => { d.v = 99; }), /different version/],
  ['a version 1 link (no kinds or units)', mutate((d) => { d.v = 1; }), /different version.*format 1/],
  ['unknown key', mutate((d) => { d.script = '<img src=x onerror=alert(1)>'; }), /unknown entry "script"/],
  ['__proto__ key', linkOf(JSON.parse(JSON.stringify(good).replace('{"v":2', '{"__proto__":{"polluted":1},"v":2'))), /unknown entry "__proto__"/],
  ['rows as text', mutate((d) => { d.report.sheets[0].rows = '2'; }), /rows is not a row count/],
  ['value of the wrong type', mutate((d) => { d.report.sheets[1].columns[0].values = ['1']; d.report.sheets[1].rows = 1; }), /is not a float value/],
  ['unit not a text', mutate((d) => { d.report.sheets[0].columns[0].unit = 3; }), /unit is not a text/],
  ['ceiling without its peak', mutate((d) => { d.report.rooflineCeilings = { matrix_bf16: { tflops: 1 } }; }), /lacks "peak"/],
  ['code out of range', mutate((d) => { d.report.sheets[0].columns[0].codes[0] = 7; }), /not a valid code/],
  ['too few values', mutate((d) => { d.report.sheets[0].rows = 3; }), /does not have 3 entries/],
  ['function-like text in a number', mutate((d) => { d.info.events = 'alert(1)'; }), /info.events is not a count/],
  ['missing key', mutate((d) => { delete d.gpuTimeline; }), /lacks "gpuTimeline"/],
  ['too long', `#report=${'A'.repeat(share.MAX_FRAGMENT_CHARS + 10)}`, /longer than any link/],
];
// The SOL result in sol.json's spellings; a link made before them is read with them.
{
  const common = { notes: ['a note'], metrics: { 'sol/steps': 3 }, sheets: [] };
  const now = await share.decodeShare(mutate((d) => {
    d.sol = { device: 'H100_SXM5_80GB', device_identification: good.report.device, efficiency_factor: 0.8, module_frames: true, ...common };
  }));
  const before = await share.decodeShare(mutate((d) => {
    d.sol = { device: good.report.device, solDevice: 'H100_SXM5_80GB', efficiencyFactor: 0.8, moduleFrames: true, ...common };
  }));
  for (const [label, back] of [['sol.json\'s spellings', now], ['a link made before them', before]])
    check(back.sol.device === 'H100_SXM5_80GB' && back.sol.device_identification.id === good.report.device.id
      && back.sol.efficiency_factor === 0.8 && back.sol.module_frames === true && back.sol.metrics['sol/steps'] === 3
      && back.sol.notes[0] === 'a note', `SOL in a link (${label}) reads with sol.json's keys`);
}

for (const [what, fragment, want] of hostile) {
  let error;
  try {
    await share.decodeShare(fragment);
  } catch (e) {
    error = e;
  }
  check(error instanceof share.ShareError && want.test(error.title) && error.hint, `hostile link (${what}) refused: ${error?.title ?? 'no error'}`);
}
check(({}).polluted === undefined, 'no prototype polluted');
// HTML in strings is data, kept as it is (the page shows it as text: share_test).
const html = await share.decodeShare(mutate((d) => { d.name = '<img src=x onerror=alert(1)>'; }));
check(html.name === '<img src=x onerror=alert(1)>', 'HTML in a string decodes as plain text data');
await import('./share_format_checks.mjs').then((m) => m.formatChecks({ share, load, check, sameSheets }));
finish();
