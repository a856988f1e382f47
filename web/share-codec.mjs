// The binary half of a share link (share.mjs): sheets' columns packed as bytes, each
// column in the smallest exact form its values allow, so that deflate has little left
// to squeeze. Nothing here is lossy: every value reads back as the same double.
//
//   stringTable([sheets, …])             -> {list, index}: every text once, sorted
//   packSheets(sheets, writer, table)    -> [descriptor]  (the columns' bytes appended to writer)
//   unpackSheets(descriptors, reader, where, list) -> sheets (the report model: typed-array columns)
//
// descriptor = [name, kind, rows, [column]]
// column     = [name, type, unit, encoding, hasNulls]
// Bytes per column, in order: when hasNulls, a validity bitmap (ceil(rows / 8) bytes,
// bit r % 8 of byte r / 8); then the values of the valid rows (strings: every row):
//   'g'  strings: varint(code into the string table + 1), 0 = null
//   'iN' numbers that are whole after scaling by 10^N (N = 0..9): zigzag varints of v * 10^N
//   'dN' the same, each value stored as the difference from the one before (sorted columns)
//   'iN+', 'dN+' the same, then for each value zigzag(k): it is k doubles away from that
//        decimal (rounding noise: 1.8256000000000001), |k| <= 255
//   '=j' column j of the same sheet again, 'Sj' its running sum (exactly): no bytes
//   'f'  float32 (values a float32 holds exactly), 'F' float64 — both stored byte plane by
//        byte plane (all first bytes, then all second bytes, …): deflate finds the runs
// A reader throws CodecError on any byte out of place (short data, a varint too long,
// a code past the string table); sizes are checked before anything is allocated.

export class CodecError extends Error {}
const fail = (what) => {
  throw new CodecError(what);
};

export class ByteWriter {
  constructor() {
    this.bytes = new Uint8Array(1 << 16);
    this.length = 0;
  }
  reserve(n) {
    if (this.length + n <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
  byte(b) {
    this.reserve(1);
    this.bytes[this.length++] = b;
  }
  // A non-negative whole number below 2^54 (exact in a double: no 32-bit operators).
  varint(n) {
    this.reserve(8);
    while (n >= 128) {
      this.bytes[this.length++] = (n % 128) + 128;
      n = Math.floor(n / 128);
    }
    this.bytes[this.length++] = n;
  }
  zigzag(n) {
    this.varint(n >= 0 ? n * 2 : -n * 2 - 1);
  }
  raw(bytes) {
    this.reserve(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }
  done() {
    return this.bytes.subarray(0, this.length);
  }
}

export class ByteReader {
  constructor(bytes, offset = 0) {
    this.bytes = bytes;
    this.offset = offset;
  }
  left() {
    return this.bytes.length - this.offset;
  }
  take(n) {
    if (!(n <= this.left())) fail('the data ends early');
    const out = this.bytes.subarray(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }
  varint() {
    let n = 0;
    let scale = 1;
    for (let i = 0; i < 8; i++) {
      if (this.offset >= this.bytes.length) fail('the data ends early');
      const b = this.bytes[this.offset++];
      n += (b % 128) * scale;
      if (b < 128) return n;
      scale *= 128;
    }
    return fail('a number is longer than any sollens writes');
  }
  zigzag() {
    const n = this.varint();
    return n % 2 === 0 ? n / 2 : -(n + 1) / 2;
  }
}

// --- choosing a column's encoding -------------------------------------------------------
const MAX_SCALE = 9;
const POW10 = Array.from({ length: MAX_SCALE + 1 }, (_, i) => 10 ** i);
const MAX_WHOLE = 2 ** 52;  // zigzag doubles it: below 2^53 all stays exact

// Values a step or two of rounding away from a short decimal (1.8256000000000001, the
// sum of bins 0.0752 wide) are stored as the decimal and how many doubles away they are.
const f64 = new Float64Array(1);
const i64 = new BigInt64Array(f64.buffer);
const bitsOf = (x) => {
  f64[0] = x;
  return i64[0];
};
const fromBits = (b) => {
  i64[0] = b;
  return f64[0];
};
const MAX_NUDGE = 255;
const scaled = (v, scale) => Math.round(v * POW10[scale]) || 0;  // never -0: it would read back as 0
// How many doubles v is from n / 10^scale (0 when it is that decimal), or null when far.
function nudge(v, n, scale) {
  const x = n / POW10[scale];
  if (x === v) return 0;
  const k = Number(bitsOf(v) - bitsOf(x));
  return Math.abs(k) <= MAX_NUDGE && Math.sign(x) === Math.sign(v) ? k : null;
}
export const nudged = (x, k) => (k ? fromBits(bitsOf(x) + BigInt(k)) : x);

// The smallest N such that every value is a whole number at 10^N (give or take a few
// doubles), or -1.
function decimalScale(values) {
  const fits = (v, scale) => {
    const n = scaled(v, scale);
    return Math.abs(n) < MAX_WHOLE && nudge(v, n, scale) !== null;
  };
  let scale = 0;
  for (const v of values) {
    if (!Number.isFinite(v) || Object.is(v, -0)) return -1;  // -0 would read back as 0
    while (scale <= MAX_SCALE && !fits(v, scale)) scale += 1;
    if (scale > MAX_SCALE) return -1;
  }
  // a later value's finer scale may take an earlier large one past MAX_WHOLE
  return values.every((v) => fits(v, scale)) ? scale : -1;
}

const varintBytes = (n) => (n < 128 ? 1 : Math.ceil(Math.log2(n + 1) / 7));
const zigzagBytes = (n) => varintBytes(n >= 0 ? n * 2 : -n * 2 - 1);

function numberEncoding(values) {
  const scale = decimalScale(values);
  if (scale >= 0) {
    const whole = values.map((v) => scaled(v, scale));
    let plain = 0;
    let delta = 0;
    whole.forEach((n, i) => {
      plain += zigzagBytes(n);
      const d = n - (i ? whole[i - 1] : 0);
      delta += Math.abs(d) < MAX_WHOLE ? zigzagBytes(d) : Infinity;  // a step past 2^52 would not zigzag exactly
    });
    const nudges = values.some((v, i) => nudge(v, whole[i], scale) !== 0);
    return `${delta < plain ? 'd' : 'i'}${scale}${nudges ? '+' : ''}`;
  }
  return values.every((v) => Object.is(Math.fround(v), v)) ? 'f' : 'F';
}

// --- packing ------------------------------------------------------------------------------
function writeBitmap(writer, validity, rows) {
  const bits = new Uint8Array((rows + 7) >> 3);
  for (let r = 0; r < rows; r++) if (validity[r]) bits[r >> 3] |= 1 << (r & 7);
  writer.raw(bits);
}

function writePlanes(writer, values, Array_) {
  const typed = Array_.from(values);
  const bytes = new Uint8Array(typed.buffer);
  const width = Array_.BYTES_PER_ELEMENT;
  const planes = new Uint8Array(bytes.length);
  for (let i = 0; i < typed.length; i++) for (let b = 0; b < width; b++) planes[b * typed.length + i] = bytes[i * width + b];
  writer.raw(planes);
}

// Every text the sheets' valid cells hold, once, sorted (like texts side by side compress
// better): the link's string table, which text columns' codes point into.
export function stringTable(sheetLists) {
  const texts = new Set();
  for (const sheets of sheetLists) {
    for (const s of sheets) {
      for (const c of s.columns) {
        if (c.type !== 'string') continue;
        for (let r = 0; r < s.rows; r++) if (c.validity[r] && c.codes[r] >= 0) texts.add(c.dictionary[c.codes[r]]);
      }
    }
  }
  const list = [...texts].sort();
  return { list, index: new Map(list.map((t, i) => [t, i])) };
}

function packColumn(column, rows, writer, strings) {
  const { name, type } = column;
  const unit = column.unit ?? '';
  if (type === 'string') {
    const global = column.dictionary.map((t) => strings.index.get(t));
    for (let r = 0; r < rows; r++) writer.varint(column.validity[r] && column.codes[r] >= 0 ? global[column.codes[r]] + 1 : 0);
    return [name, type, unit, 'g', 0];
  }
  const values = [];
  let hasNulls = 0;
  for (let r = 0; r < rows; r++) {
    if (column.validity[r]) values.push(column.values[r]);
    else hasNulls = 1;
  }
  if (hasNulls) writeBitmap(writer, column.validity, rows);
  const encoding = numberEncoding(values);
  if (encoding === 'f') writePlanes(writer, values, Float32Array);
  else if (encoding === 'F') writePlanes(writer, values, Float64Array);
  else {
    const scale = Number(encoding[1]);
    let before = 0;
    for (const v of values) {
      const n = scaled(v, scale);
      writer.zigzag(encoding[0] === 'd' ? n - before : n);
      before = n;
    }
    if (encoding.endsWith('+')) for (const v of values) writer.zigzag(nudge(v, scaled(v, scale), scale));
  }
  return [name, type, unit, encoding, hasNulls];
}

export function packSheets(sheets, writer, strings) {
  return sheets.map((sheet) => [sheet.name, sheet.kind ?? '', sheet.rows,
    sheet.columns.map((c, k) => derivedColumn(sheet, k) ?? packColumn(c, sheet.rows, writer, strings))]);
}

// A number column that is an earlier one again ('=j': a TFLOPS mean that is its median
// when each op ran once) or its running sum ('Sj': a cumulative percentage), exactly,
// takes no bytes.
function derivedColumn(sheet, k) {
  const { rows, columns } = sheet;
  const c = columns[k];
  if (c.type === 'string' || rows === 0) return null;
  const describe = (encoding) => [c.name, c.type, c.unit ?? '', encoding, 0];
  for (let j = 0; j < k; j++) if (columns[j].type !== 'string' && sameNumbers(c, columns[j], rows)) return describe(`=${j}`);
  if (!allValid(c, rows)) return null;
  for (let j = 0; j < k; j++) if (columns[j].type !== 'string' && allValid(columns[j], rows) && isRunningSum(c, columns[j], rows)) return describe(`S${j}`);
  return null;
}
function sameNumbers(a, b, rows) {
  for (let r = 0; r < rows; r++) if (a.validity[r] !== b.validity[r] || (a.validity[r] && !Object.is(a.values[r], b.values[r]))) return false;
  return true;
}
function allValid(c, rows) {
  for (let r = 0; r < rows; r++) if (!c.validity[r]) return false;
  return true;
}
function isRunningSum(sum, of, rows) {
  let acc = 0;
  for (let r = 0; r < rows; r++) {
    acc += of.values[r];
    if (!Object.is(acc, sum.values[r])) return false;
  }
  return true;
}

// --- unpacking ----------------------------------------------------------------------------
export const MAX_ROWS = 2_000_000;
export const MAX_CELLS = 20_000_000;  // over all sheets: what a link may make us allocate
const MAX_SHEETS = 500;
const MAX_COLUMNS = 2000;

const isText = (v, max) => typeof v === 'string' && v.length <= max;

function readValidity(reader, rows, hasNulls) {
  const validity = new Uint8Array(rows);
  if (!hasNulls) return validity.fill(1);
  const bits = reader.take((rows + 7) >> 3);
  for (let r = 0; r < rows; r++) validity[r] = (bits[r >> 3] >> (r & 7)) & 1;
  return validity;
}

function readPlanes(reader, count, Array_) {
  const width = Array_.BYTES_PER_ELEMENT;
  const planes = reader.take(count * width);
  const bytes = new Uint8Array(count * width);
  for (let i = 0; i < count; i++) for (let b = 0; b < width; b++) bytes[i * width + b] = planes[b * count + i];
  return new Array_(bytes.buffer);
}

// A text column of codes into the link's string table: its own dictionary, the texts it uses.
function unpackTexts(name, unit, rows, reader, strings, at) {
  const codes = new Int32Array(rows);
  const validity = new Uint8Array(rows);
  const dictionary = [];
  const local = new Map();
  for (let r = 0; r < rows; r++) {
    const code = reader.varint() - 1;
    if (code >= strings.length) fail(`${at} has a text code past the string table`);
    if (code < 0) {
      codes[r] = -1;
      continue;
    }
    if (!local.has(code)) {
      local.set(code, dictionary.length);
      dictionary.push(strings[code]);
    }
    codes[r] = local.get(code);
    validity[r] = 1;
  }
  return { name, type: 'string', unit, validity, codes, dictionary };
}

// '=j' and 'Sj' (derivedColumn): column j of the sheet, or its running sum.
function unpackDerived(encoding, rows, before, at) {
  const m = /^([=S])(\d{1,4})$/.exec(encoding);
  const from = m && before[Number(m[2])];
  if (!from || from.type === 'string') fail(`${at} is derived from a column it cannot be`);
  if (m[1] === '=') return { validity: from.validity.slice(), values: from.values.slice() };
  const values = new Float64Array(rows);
  let acc = 0;
  for (let r = 0; r < rows; r++) {
    if (!from.validity[r]) fail(`${at} sums a column with empty cells`);
    acc += from.values[r];
    values[r] = acc;
  }
  return { validity: new Uint8Array(rows).fill(1), values };
}

function unpackColumn(desc, rows, reader, where, strings, before) {
  if (!Array.isArray(desc) || desc.length < 5) fail(`${where} is not a column`);
  const [name, type, unit, encoding, hasNulls] = desc;
  if (!isText(name, 1000) || !isText(unit, 200)) fail(`${where} has no name or unit`);
  const at = `${where} (${name.slice(0, 40)})`;
  if (type === 'string') {
    if (encoding !== 'g') fail(`${at} is not a text column`);
    return unpackTexts(name, unit, rows, reader, strings, at);
  }
  if (type !== 'float' && type !== 'int' && type !== 'bool') fail(`${at} has an unknown type`);
  // a list or an object would pass the patterns below as its text, or throw turned into one
  if (typeof encoding !== 'string') fail(`${at} has an unknown encoding`);
  if (/^[=S]/.test(encoding)) return checkedNumbers({ name, type, unit, ...unpackDerived(encoding, rows, before, at) }, rows, at);
  if (hasNulls !== 0 && hasNulls !== 1) fail(`${at} has no null flag`);
  const validity = readValidity(reader, rows, hasNulls);
  let count = 0;
  for (let r = 0; r < rows; r++) count += validity[r];
  let read;
  if (encoding === 'f') read = readPlanes(reader, count, Float32Array);
  else if (encoding === 'F') read = readPlanes(reader, count, Float64Array);
  else if (/^[id][0-9]\+?$/.test(encoding)) {
    const scale = POW10[Number(encoding[1])];
    read = new Float64Array(count);
    let before = 0;
    for (let i = 0; i < count; i++) {
      const n = encoding[0] === 'd' ? before + reader.zigzag() : reader.zigzag();
      read[i] = n / scale;
      before = n;
    }
    if (encoding.endsWith('+')) for (let i = 0; i < count; i++) read[i] = nudged(read[i], reader.zigzag());
  } else fail(`${at} has an unknown encoding`);
  const values = new Float64Array(rows);
  for (let r = 0, i = 0; r < rows; r++) if (validity[r]) values[r] = read[i++];
  return checkedNumbers({ name, type, unit, validity, values }, rows, at);
}

function checkedNumbers(column, rows, at) {
  const { type, validity, values } = column;
  if (type !== 'float') {
    // an int column holds int64s as doubles (column_encoding.cpp): whole, but past 2^53 too
    for (let r = 0; r < rows; r++)
      if (validity[r] && (type === 'int' ? !Number.isInteger(values[r]) : values[r] !== 0 && values[r] !== 1)) fail(`${at} holds a value that is not ${type}`);
  }
  return column;
}

export function unpackSheets(descriptors, reader, where = 'sheets', strings = []) {
  if (!Array.isArray(descriptors) || descriptors.length > MAX_SHEETS) fail(`${where} is not a list of sheets`);
  let cells = 0;
  for (const d of descriptors) {
    if (!Array.isArray(d) || d.length !== 4 || !isText(d[0], 1000) || !isText(d[1], 200) || !Number.isSafeInteger(d[2]) ||
      d[2] < 0 || d[2] > MAX_ROWS || !Array.isArray(d[3]) || d[3].length > MAX_COLUMNS) fail(`${where} has a sheet that is not one`);
    cells += d[2] * d[3].length;
  }
  if (cells > MAX_CELLS) fail(`${where} claims more than ${MAX_CELLS} cells`);
  return descriptors.map(([name, kind, rows, columns]) => {
    const before = [];
    for (const [i, c] of columns.entries()) before.push(unpackColumn(c, rows, reader, `${where}: ${name.slice(0, 40)} column ${i}`, strings, before));
    return { name, kind, rows, columns: before };
  });
}
