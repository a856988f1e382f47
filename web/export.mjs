// Exports of the report model (worker.mjs's top comment) as files the user downloads:
//   exportSheet(sheet, 'csv' | 'arrow')   one sheet, as the CLI's CSV or as Arrow IPC
//   exportReport(report)                  the whole report as one JSON document
// plus the pure serializers behind them (sheetCsv, sheetArrow, reportJson), which
// the tests run under node against the CLI's files.
//
// CSV and JSON are byte-for-byte what the CLI writes (core/writers/csv_writer.cpp,
// json_writer.cpp, number_format.cpp, report_json.cpp), so a sheet saved from the
// page diffs clean against `sollens report`. Ints are exact up to 2^53 (the model
// carries numbers as doubles). Strings are the core's UTF-8 decoded by JSON.parse:
// bytes that are not UTF-8 (never seen in traces) would come out as U+FFFD.
//
// Arrow: the IPC *file* format (what pyarrow.feather / pyarrow.ipc.open_file, DuckDB
// and polars read), one record batch. Decisions where the model leaves a choice:
// strings are Dictionary<Int32, Utf8> straight from the model's codes + dictionary;
// floats are Float64; ints are Int64 (so readers keep them integral, as the CSV
// does); bools are Bool; nulls come from the validity bytes; a repeated column name
// gets ".1", ".2" (pandas' read_csv convention). The Arrow library
// (~180 KB) is loaded only when an Arrow export is asked for: vendor/arrow.mjs,
// staged by wasm/CMakeLists.txt from the apache-arrow npm package.

// --- numbers as Python's repr writes them -------------------------------------------
// JS's shortest round-trip digits are Python's (both are the shortest string that
// reads back to the same double, the closest one on ties); only the layout differs:
// Python switches to exponent notation when the exponent is < -4 or >= 16.
export function formatPythonFloat(v) {
  if (Number.isNaN(v)) return 'nan';
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  if (v === 0) return Object.is(v, -0) ? '-0.0' : '0.0';
  const [mantissa, exp] = Math.abs(v).toExponential().split('e');
  const exponent = Number(exp);
  const digits = mantissa.replace('.', '');
  const sign = v < 0 ? '-' : '';
  if (exponent < -4 || exponent >= 16) {
    const frac = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = String(Math.abs(exponent)).padStart(2, '0');
    return `${sign}${frac}e${exponent < 0 ? '-' : '+'}${e}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const intDigits = exponent + 1;
  if (digits.length <= intDigits) return `${sign}${digits}${'0'.repeat(intDigits - digits.length)}.0`;
  return `${sign}${digits.slice(0, intDigits)}.${digits.slice(intDigits)}`;
}

// An int column's value (a double holding an integer) as std::to_string writes it.
const formatInt = (v) => (Number.isSafeInteger(v) ? String(v) : BigInt(v).toString());

// --- CSV (csv_writer.cpp) -------------------------------------------------------------
const NEEDS_QUOTES = /[,"\n\r]/;
export function csvField(text) {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

// One cell's text for every cell of a column (null cells are empty).
function columnCells(column, rows, scalar, string) {
  const out = new Array(rows);
  const { validity } = column;
  if (column.type === 'string') {
    const dict = column.dictionary.map(string);
    for (let r = 0; r < rows; r++) out[r] = validity[r] ? dict[column.codes[r]] : null;
  } else {
    const format = scalar[column.type];
    for (let r = 0; r < rows; r++) out[r] = validity[r] ? format(column.values[r]) : null;
  }
  return out;
}

const CSV_SCALAR = { float: formatPythonFloat, int: formatInt, bool: (v) => (v ? 'True' : 'False') };

export function sheetCsv(sheet) {
  const cols = sheet.columns.map((c) => columnCells(c, sheet.rows, CSV_SCALAR, csvField));
  const lines = [sheet.columns.map((c) => csvField(c.name)).join(',')];
  for (let r = 0; r < sheet.rows; r++) lines.push(cols.map((cells) => cells[r] ?? '').join(','));
  return `${lines.join('\n')}\n`;
}

// --- JSON (json_writer.cpp, report_json.cpp) ------------------------------------------
// json_string: escapes ", \, the C0 controls and DEL; everything else passes through.
const JSON_ESCAPES = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };
export function jsonString(text) {
  // eslint-disable-next-line no-control-regex
  return `"${text.replace(/["\\\x00-\x1f\x7f]/g, (c) =>
    JSON_ESCAPES[c] ?? `\\u00${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}"`;
}

const JSON_SCALAR = {
  float: (v) => (Number.isFinite(v) ? formatPythonFloat(v) : 'null'),
  int: formatInt,
  bool: (v) => (v ? 'true' : 'false'),
};

// write_json: an array of row objects, one per line.
export function sheetJson(sheet) {
  const keys = sheet.columns.map((c) => `${jsonString(c.name)}:`);
  const cols = sheet.columns.map((c) => columnCells(c, sheet.rows, JSON_SCALAR, jsonString));
  const rows = [];
  for (let r = 0; r < sheet.rows; r++)
    rows.push(`{${keys.map((k, c) => k + (cols[c][r] ?? 'null')).join(',')}}`);
  return rows.length ? `[\n${rows.join(',\n')}\n]\n` : '[]\n';
}

// A plain JSON value in JsonBuilder's spaced layout (", " and ": "), for the metadata.
function jsonValue(v) {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return jsonString(v);
  if (typeof v === 'number') return Number.isFinite(v) ? (Number.isInteger(v) ? String(v) : formatPythonFloat(v)) : 'null';
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(jsonValue).join(', ')}]`;
  return `{${Object.entries(v).map(([k, x]) => `${jsonString(k)}: ${jsonValue(x)}`).join(', ')}}`;
}

// The report as the CLI's report.json: {"metadata": {generator, trace_file, device,
// trace}, "sheets": {name: rows}}. `loaded` is the page's loaded report (state.mjs:
// the worker's DONE message or a decoded share link): {name, version, traceMetadata
// (the core's JSON text, inserted as is: 64-bit ints stay exact), report: {device, sheets}}. The sheets are the report's, like the CLI's; the cycles
// sheets are not in it (the CLI writes them with `sollens cycles`). Given the report
// model alone ({device, sheets}, a view's context.report), the metadata says less.
export function reportJson(loaded) {
  if (Array.isArray(loaded.sheets)) loaded = { report: loaded };  // given the report model alone
  const generator = jsonString(`sollens ${loaded.version || '?'} (web page)`);
  const metadata = `{"generator": ${generator}, "trace_file": ${jsonString(loaded.name ?? '')}, ` +
    `"device": ${jsonValue(loaded.report.device ?? null)}, "trace": ${loaded.traceMetadata || '{}'}}`;
  const sheets = loaded.report.sheets.map((s, i) => `${i ? ',\n' : '\n'}${jsonString(s.name)}: ${sheetJson(s)}`);
  return `{"metadata": ${metadata},\n"sheets": {${sheets.join('')}}}\n`;
}

// --- Arrow IPC ---------------------------------------------------------------------------
let arrowModule = null;
export const loadArrow = () => (arrowModule ??= import('./vendor/arrow.mjs').then((m) => m.default));

// Arrow validity: one bit per row, least significant bit first.
function packBits(bytes, rows) {
  const out = new Uint8Array(Math.ceil(rows / 8));
  for (let r = 0; r < rows; r++) if (bytes[r]) out[r >> 3] |= 1 << (r & 7);
  return out;
}

// Utf8 data built by hand: apache-arrow's builders (vectorFromArray) compile their
// null checks with new Function, which the page's CSP (no 'unsafe-eval') forbids.
function utf8Data(A, strings) {
  const encoder = new TextEncoder();
  const encoded = strings.map((text) => encoder.encode(text));
  const valueOffsets = new Int32Array(strings.length + 1);
  encoded.forEach((bytes, i) => { valueOffsets[i + 1] = valueOffsets[i] + bytes.length; });
  const data = new Uint8Array(valueOffsets[strings.length]);
  encoded.forEach((bytes, i) => data.set(bytes, valueOffsets[i]));
  return A.makeData({ type: new A.Utf8(), length: strings.length, nullCount: 0, valueOffsets, data });
}

function arrowColumn(A, column, rows, index) {
  const nullCount = rows - column.validity.reduce((n, v) => n + (v ? 1 : 0), 0);
  const nullBitmap = nullCount ? packBits(column.validity, rows) : undefined;
  const common = { length: rows, nullCount, nullBitmap };
  switch (column.type) {
    case 'string': {
      const type = new A.Dictionary(new A.Utf8(), new A.Int32(), index);  // id: unique per file
      const codes = Int32Array.from(column.codes, (c) => (c < 0 ? 0 : c));  // nulls: any index
      const dictionary = A.makeVector(utf8Data(A, column.dictionary));
      return [type, A.makeData({ type, ...common, data: codes, dictionary })];
    }
    case 'int': {
      const type = new A.Int64();
      return [type, A.makeData({ type, ...common, data: BigInt64Array.from(column.values, (v) => BigInt(v)) })];
    }
    case 'bool': {
      const type = new A.Bool();
      return [type, A.makeData({ type, ...common, data: packBits(column.values, rows) })];
    }
    default: {
      const type = new A.Float64();
      return [type, A.makeData({ type, ...common, data: column.values })];
    }
  }
}

// The sheet as an Arrow table (the SQL view hands it to DuckDB, which shares this Arrow).
export async function sheetArrowTable(sheet) {
  const A = await loadArrow();
  const fields = [];
  const children = [];
  const seen = new Map();
  for (const [index, column] of sheet.columns.entries()) {
    const [type, data] = arrowColumn(A, column, sheet.rows, index);
    // A repeated column name (some empty TraceLens sheets have them) gets ".1", ".2"
    // as pandas' read_csv does: apache-arrow's JS writer mixes up same-named fields.
    const n = seen.get(column.name) ?? 0;
    seen.set(column.name, n + 1);
    fields.push(new A.Field(n ? `${column.name}.${n}` : column.name, type, true));
    children.push(data);
  }
  const schema = new A.Schema(fields);
  const struct = A.makeData({ type: new A.Struct(fields), length: sheet.rows, nullCount: 0, children });
  return new A.Table([new A.RecordBatch(schema, struct)]);
}

export async function sheetArrow(sheet) {
  const A = await loadArrow();
  return A.tableToIPC(await sheetArrowTable(sheet), 'file');
}

// --- downloads -------------------------------------------------------------------------------
// A Blob behind an object URL, clicked through a detached <a download>: nothing is
// sent anywhere, the browser saves it.
export function download(bytesOrText, fileName, mimeType) {
  const url = URL.createObjectURL(new Blob([bytesOrText], { type: mimeType }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);  // after the save has started
}

// A file name from a sheet or trace name: no path separators or control characters.
// eslint-disable-next-line no-control-regex
const safeName = (name) => String(name).replace(/[/\\:*?"<>|\x00-\x1f\x7f]+/g, '_').slice(0, 150) || 'sheet';

export async function exportSheet(sheet, format) {
  if (format === 'csv') return download(sheetCsv(sheet), `${safeName(sheet.name)}.csv`, 'text/csv;charset=utf-8');
  if (format === 'arrow')
    return download(await sheetArrow(sheet), `${safeName(sheet.name)}.arrow`, 'application/vnd.apache.arrow.file');
  throw new Error(`unknown export format '${format}' (csv or arrow)`);
}

export function exportReport(loaded) {
  const base = safeName(String(loaded.name ?? 'report').replace(/ \(sample\)$/, '').replace(/\.json(\.gz)?$/i, ''));
  download(reportJson(loaded), `${base}.report.json`, 'application/json');
}
