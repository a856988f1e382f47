// The page's exports (web/export.mjs) under node, against the core's own writers:
//   node tests/web/export_test.mjs [--site build/wasm/web] [--cli-report DIR TRACE]...
// For each trace: builds the report and the cycles through the wasm module the way
// the worker does (typed-array columns), then checks, for every sheet,
//   - sheetCsv == the core's to_csv (csv_writer.cpp, what `sollens report` writes),
//   - sheetJson == the core's to_json,
//   - the Arrow file read back by apache-arrow's tableFromIPC has the same schema
//     kinds (dictionary strings, Float64, Int64, Bool), nulls and values;
// formatPythonFloat against python3's repr() for 20,000 doubles (when python3 is
// there); and, with --cli-report, byte equality with a CLI report directory's CSV
// files and report.json "sheets" part. Exits non-zero on any failure.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as Arrow from 'apache-arrow';
import { nodeReport } from './node_report.mjs';
import { defaultSite, gzOf } from './support/harness.mjs';

const argv = process.argv.slice(2);
let site = defaultSite;
const cliReports = [];  // [dir, trace]
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--site') site = path.resolve(argv[++i]);
  else if (argv[i] === '--cli-report') cliReports.push([path.resolve(argv[++i]), path.resolve(argv[++i])]);
  else throw new Error(`unknown argument ${argv[i]}`);
}

let passed = 0;
let failed = 0;
const check = (ok, what) => {
  if (!ok || process.env.VERBOSE) console.log(`${ok ? 'ok' : 'FAILED'}: ${what}`);
  if (ok) passed++;
  else failed++;
  return ok;
};

const { sollens, load } = await nodeReport(site);
const ex = await import(path.join(site, 'export.mjs'));

// --- formatPythonFloat vs python3 repr ------------------------------------------------
const fixed = [[1e-5, '1e-05'], [1e16, '1e+16'], [1e-4, '0.0001'], [9999999999999998, '9999999999999998.0'],
  [0.1, '0.1'], [-0, '-0.0'], [0, '0.0'], [1.5e-7, '1.5e-07'], [123, '123.0'], [5e-324, '5e-324'],
  [1.7976931348623157e308, '1.7976931348623157e+308'], [NaN, 'nan'], [Infinity, 'inf'], [-Infinity, '-inf'],
  [-2.5e-5, '-2.5e-05'], [123456.789, '123456.789'], [1.2345678901234568e17, '1.2345678901234568e+17']];
for (const [v, want] of fixed) check(ex.formatPythonFloat(v) === want, `formatPythonFloat(${v}) = ${ex.formatPythonFloat(v)} (want ${want})`);
let python = true;
try {
  execFileSync('python3', ['-c', 'pass']);
} catch {
  python = false;
  console.log('note: no python3: formatPythonFloat checked on fixed cases only');
}
if (python) {
  // Random bit patterns (all magnitudes) and values near the format switches.
  const values = [];
  const bits = new DataView(new ArrayBuffer(8));
  let seed = 12345;
  const rand32 = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0));
  for (let i = 0; i < 10000; i++) {
    bits.setUint32(0, rand32());
    bits.setUint32(4, rand32());
    const v = bits.getFloat64(0);
    if (Number.isFinite(v)) values.push(v);
  }
  for (let i = 0; i < 10000; i++) values.push((rand32() / 2 ** 32) * 10 ** ((i % 44) - 22));
  const hex = values.map((v) => {
    bits.setFloat64(0, v);
    return bits.getBigUint64(0).toString(16).padStart(16, '0');
  }).join('\n');
  const py = execFileSync('python3', ['-c',
    'import sys,struct\nfor h in sys.stdin.read().split():\n print(repr(struct.unpack(">d", bytes.fromhex(h))[0]))'],
  { input: hex, maxBuffer: 64 << 20 }).toString().trim().split('\n');
  let bad = 0;
  values.forEach((v, i) => {
    if (ex.formatPythonFloat(v) !== py[i] && bad++ < 5) console.log(`  ${v}: ours ${ex.formatPythonFloat(v)}, python ${py[i]}`);
  });
  check(bad === 0 && py.length === values.length, `formatPythonFloat == python3 repr for ${values.length} doubles (${bad} differ)`);
}

const ARROW_KIND = { string: Arrow.Type.Dictionary, float: Arrow.Type.Float, int: Arrow.Type.Int, bool: Arrow.Type.Bool };
async function checkArrow(label, sheet) {
  let table;
  try {
    table = Arrow.tableFromIPC(await ex.sheetArrow(sheet));
  } catch (e) {
    check(false, `${label}: Arrow export: ${e.message} (columns ${sheet.columns.map((c) => `${c.name}:${c.type}`).join(' ')})`);
    return;
  }
  if (!check(table.numRows === sheet.rows && table.numCols === sheet.columns.length,
    `${label}: Arrow ${table.numRows}x${table.numCols} (model ${sheet.rows}x${sheet.columns.length})`)) return;
  let bad = 0;
  const seen = new Map();
  sheet.columns.forEach((col, c) => {
    const field = table.schema.fields[c];
    const n = seen.get(col.name) ?? 0;
    seen.set(col.name, n + 1);
    if (field.name !== (n ? `${col.name}.${n}` : col.name) || field.typeId !== ARROW_KIND[col.type]) {
      bad++;
      console.log(`  ${label}.${col.name}: field ${field.name} type ${field.type}`);
      return;
    }
    if (col.type === 'int' && field.type.bitWidth !== 64) bad++;
    const vector = table.getChildAt(c);
    for (let r = 0; r < sheet.rows; r++) {
      const got = vector.get(r);
      let want = null;
      if (col.validity[r]) {
        if (col.type === 'string') want = col.dictionary[col.codes[r]];
        else if (col.type === 'int') want = BigInt(col.values[r]);
        else if (col.type === 'bool') want = col.values[r] !== 0;
        else want = col.values[r];
      }
      if (!(Object.is(got, want) || got === want) && bad++ < 5)
        console.log(`  ${label}.${col.name}[${r}]: arrow ${got} vs model ${want}`);
    }
  });
  check(bad === 0, `${label}: Arrow values, types and nulls equal the model`);
}

// --- a synthetic sheet with what the fixtures lack: bools, NaN/inf, quoting, a
// repeated column name, ints past 2^32 (expected text written from csv_writer.cpp and
// json_writer.cpp by hand) -----------------------------------------------------------
{
  const v = (...xs) => Uint8Array.from(xs);
  const edge = { name: 'edge', rows: 3, columns: [
    { name: 'name, "quoted"', type: 'string', validity: v(1, 1, 0), codes: Int32Array.of(0, 1, -1), dictionary: ['a,b "c"\nd', 'µs \u2028 <b>x</b>'] },
    { name: 'flag', type: 'bool', validity: v(1, 0, 1), values: Float64Array.of(1, 0, 0) },
    { name: 'x', type: 'float', validity: v(1, 1, 1), values: Float64Array.of(NaN, -Infinity, 1e-7) },
    { name: 'x', type: 'int', validity: v(1, 1, 0), values: Float64Array.of(2 ** 40, -3, 0) },
  ] };
  const csv = '"name, ""quoted""",flag,x,x\n"a,b ""c""\nd",True,nan,1099511627776\nµs \u2028 <b>x</b>,,-inf,-3\n,False,1e-07,\n';
  check(ex.sheetCsv(edge) === csv, `edge sheet: CSV as csv_writer.cpp writes it:\n${ex.sheetCsv(edge)}`);
  const key = '"name, \\"quoted\\""';
  const json = `[\n{${key}:"a,b \\"c\\"\\nd","flag":true,"x":null,"x":1099511627776},\n` +
    `{${key}:"µs \u2028 <b>x</b>","flag":null,"x":null,"x":-3},\n{${key}:null,"flag":false,"x":1e-07,"x":null}\n]\n`;
  check(ex.sheetJson(edge) === json, `edge sheet: JSON as json_writer.cpp writes it:\n${ex.sheetJson(edge)}`);
  await checkArrow('edge sheet', edge);
}

const traces = ['tracelens-h100-bert-small', 'tracelens-mi300x-bert-small', 'hta-large-integer', 'hta-a100-ddp-nccl']
  .map(gzOf).concat(cliReports.map(([, t]) => t));
for (const trace of [...new Set(traces)]) {
  const base = path.basename(trace);
  // The sheets as the worker builds them.
  const { session, report, cycles } = load(trace);
  const sheets = [...report.sheets, ...cycles.sheets];
  let csvBad = 0;
  let jsonBad = 0;
  for (const sheet of sheets) {
    if (ex.sheetCsv(sheet) !== session.sheetCsv(sheet.id) && csvBad++ < 3) console.log(`  ${base} ${sheet.name}: CSV differs`);
    if (ex.sheetJson(sheet) !== session.sheetJson(sheet.id) && jsonBad++ < 3) console.log(`  ${base} ${sheet.name}: JSON differs`);
    await checkArrow(`${base} ${sheet.name}`, sheet);
  }
  check(csvBad === 0, `${base}: CSV of ${sheets.length} sheets equals the core's CSV writer`);
  check(jsonBad === 0, `${base}: JSON of ${sheets.length} sheets equals the core's JSON writer`);

  const cli = cliReports.find(([, t]) => t === trace)?.[0];
  if (cli) {
    let files = 0;
    for (const sheet of sheets.slice(0, report.sheets.length)) {
      const file = path.join(cli, `${sheet.name}.csv`);
      if (!existsSync(file)) continue;
      files++;
      check(ex.sheetCsv(sheet) === readFileSync(file, 'utf8'), `${base} ${sheet.name}: CSV equals the CLI's ${file}`);
    }
    check(files === report.sheets.length, `${base}: the CLI wrote all ${report.sheets.length} sheets (${files} found)`);
    const ours = ex.reportJson({ name: base, version: sollens.version(), traceMetadata: session.traceMetadataJson(),
      report: { device: report.device, sheets: sheets.slice(0, report.sheets.length) } });
    const theirs = readFileSync(path.join(cli, 'report.json'), 'utf8');
    const tail = (s) => s.slice(s.indexOf('\n"sheets": {'));
    check(tail(ours) === tail(theirs), `${base}: report.json sheets equal the CLI's byte for byte`);
    const [mo, mt] = [JSON.parse(ours).metadata, JSON.parse(theirs).metadata];
    const traceText = (s) => s.slice(s.indexOf('"trace": '), s.indexOf(',\n"sheets"'));
    check(JSON.stringify(mo.device) === JSON.stringify(mt.device) && traceText(ours) === traceText(theirs),
      `${base}: report.json metadata device and trace equal the CLI's`);
  }
  session.delete();
}
console.log(`export: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
