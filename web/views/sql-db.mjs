// DuckDB-Wasm for the SQL view (views/sql.mjs): one database for the page, started the
// first time the view opens (the module, its worker and its 34 MB wasm are not fetched
// before), holding every sheet of the shown report as a table of the same name.
//
//   const db = await startDatabase()
//   await db.showSheets(report, sheets)   the sheets as tables, named as they are: a
//                                  sheet not loaded yet (or replaced) is loaded, one gone
//                                  is dropped, and another report starts afresh (the
//                                  tables a query made go too); returns the sheets DuckDB
//                                  refused, with why
//   await db.tables()              [{name, columns: [{name, type}]}] as DuckDB has them
//   await db.query(sql)            the result as a sheet of the report model (so that
//                                  table.mjs shows it and export.mjs writes it), capped
//                                  at MAX_RESULT_ROWS: {sheet, totalRows}
//
// Everything is served by the page's own origin (vendor/duckdb/, staged by
// wasm/CMakeLists.txt): the module is imported from there and the worker is a plain
// same-origin worker script, so the page's CSP (worker-src 'self', connect-src 'self')
// needs nothing more. The worker is governed by its own response's policy, not the
// page's meta tag: a host that sends a CSP header for vendor/duckdb/ must allow
// 'wasm-unsafe-eval' and 'unsafe-eval' there (DuckDB's Emscripten glue evaluates its
// EM_ASM snippets, its bundled Arrow compiles functions).

import { sheetArrowTable, loadArrow } from '../export.mjs';

export const MAX_RESULT_ROWS = 200_000;

// A name as a DuckDB identifier: always quoted, a quote doubled.
export const quoteIdentifier = (name) => `"${String(name).replaceAll('"', '""')}"`;

// Nothing is fetched from the network behind the user's back: no extension is
// installed or loaded on first use (they would come from extensions.duckdb.org), no
// file or URL is read, and a query cannot turn these back on.
const LOCKDOWN = [
  'SET autoinstall_known_extensions = false',
  'SET autoload_known_extensions = false',
  'SET enable_external_access = false',
  'SET lock_configuration = true',
];

let started = null;
export function startDatabase() {
  started ??= openDatabase().catch((e) => {
    started = null;  // a later open of the view tries again
    throw e;
  });
  return started;
}

async function openDatabase() {
  const [duckdb, A] = await Promise.all([import('../vendor/duckdb/duckdb-browser.mjs'), loadArrow()]);
  const vendor = new URL('../vendor/duckdb/', import.meta.url);
  const worker = new Worker(new URL('duckdb-browser-eh.worker.js', vendor));
  const db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), worker);
  await db.instantiate(new URL('duckdb-eh.wasm', vendor).href);
  // Decimals (what `1.5 * x` gives) come back as doubles, which the result table shows.
  await db.open({ query: { castDecimalToDouble: true } });
  const conn = await db.connect();
  for (const statement of LOCKDOWN) await conn.query(statement);
  return databaseApi(conn, A);
}

function databaseApi(conn, A) {
  // One statement at a time on the one connection, in the order asked.
  let queue = Promise.resolve();
  const serial = (task) => {
    const next = queue.then(task, task);
    queue = next.catch(() => {});
    return next;
  };
  let shownReport = null;
  const loaded = new Map();  // table name -> the sheet it holds
  const refused = new Map();  // sheet name -> {sheet, reason}: why DuckDB refused it
  return {
    showSheets: (report, sheets) => serial(async () => {
      if (report !== shownReport) {
        await dropAllTables(conn);
        loaded.clear();
        refused.clear();
        shownReport = report;
      }
      await syncSheets(conn, sheets, loaded, refused);
      return [...refused].map(([name, { reason }]) => ({ name, reason }));
    }),
    tables: () => serial(() => listTables(conn)),
    query: (sql) => serial(async () => {
      const table = await conn.query(sql);
      return { sheet: resultSheet(A, table), totalRows: table.numRows };
    }),
  };
}

// The previous report's tables, and any a query made, so that names stay the sheets'.
async function dropAllTables(conn) {
  const made = rowsOf(await conn.query(
    "SELECT table_name AS name, 'TABLE' AS kind FROM duckdb_tables() WHERE NOT internal AND schema_name = 'main' " +
    "UNION ALL SELECT view_name, 'VIEW' FROM duckdb_views() WHERE NOT internal AND schema_name = 'main'"));
  for (const { name, kind } of made) await conn.query(`DROP ${kind} IF EXISTS ${quoteIdentifier(name)}`);
}

// Each sheet through export.mjs's Arrow table (strings stay dictionary-coded, ints
// Int64, nulls nulls); a sheet DuckDB refuses is reported, the others still load.
async function syncSheets(conn, sheets, loaded, refused) {
  const names = new Set(sheets.map((s) => s.name));
  for (const name of [...refused.keys()].filter((n) => !names.has(n))) refused.delete(name);
  for (const name of [...loaded.keys()].filter((n) => !names.has(n))) {
    await conn.query(`DROP TABLE IF EXISTS ${quoteIdentifier(name)}`);
    loaded.delete(name);
  }
  for (const sheet of sheets) {
    if (loaded.get(sheet.name) === sheet || refused.get(sheet.name)?.sheet === sheet) continue;
    try {
      await conn.query(`DROP TABLE IF EXISTS ${quoteIdentifier(sheet.name)}`);
      await conn.insertArrowTable(await sheetArrowTable(sheet), { name: sheet.name, create: true });
      loaded.set(sheet.name, sheet);
      refused.delete(sheet.name);
    } catch (e) {
      refused.set(sheet.name, { sheet, reason: e?.message ?? String(e) });
    }
  }
}

async function listTables(conn) {
  const columns = rowsOf(await conn.query(
    "SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'main' " +
    'ORDER BY table_name, ordinal_position'));
  const tables = new Map();
  for (const c of columns) {
    if (!tables.has(c.table_name)) tables.set(c.table_name, { name: c.table_name, columns: [] });
    tables.get(c.table_name).columns.push({ name: c.column_name, type: c.data_type });
  }
  return [...tables.values()];
}

// A small result (catalogue queries) as plain objects.
function rowsOf(table) {
  const names = table.schema.fields.map((f) => f.name);
  const out = [];
  for (let r = 0; r < table.numRows; r++)
    out.push(Object.fromEntries(names.map((name, i) => [name, table.getChildAt(i).get(r)])));
  return out;
}

// --- a result as a sheet of the report model (worker.mjs's top comment) --------------
function resultSheet(A, table) {
  const rows = Math.min(table.numRows, MAX_RESULT_ROWS);
  const seen = new Map();
  const columns = table.schema.fields.map((field, i) => {
    // A repeated name (SELECT a, a) gets ".1", ".2", as export.mjs names them: the
    // table finds its columns by name.
    const n = seen.get(field.name) ?? 0;
    seen.set(field.name, n + 1);
    return resultColumn(A, n ? `${field.name}.${n}` : field.name, field.type, table.getChildAt(i), rows);
  });
  return { name: 'query_result', kind: 'query', rows, columns };
}

const numericKind = (A, type) =>
  (A.DataType.isInt(type) ? 'int' : A.DataType.isFloat(type) ? 'float' : A.DataType.isBool(type) ? 'bool' : null);

function resultColumn(A, name, type, vector, rows) {
  const validity = new Uint8Array(rows);
  const kind = numericKind(A, type);
  if (kind) {
    const values = new Float64Array(rows);  // 64-bit ints beyond 2^53 lose digits, as in the report model
    for (let r = 0; r < rows; r++) {
      const v = vector.get(r);
      if (v === null || v === undefined) continue;
      validity[r] = 1;
      values[r] = Number(v);
    }
    return { name, type: kind, unit: '', validity, values };
  }
  const codes = new Int32Array(rows).fill(-1);
  const dictionary = [];
  const codeOf = new Map();
  const text = textOf(A, type);
  for (let r = 0; r < rows; r++) {
    const v = vector.get(r);
    if (v === null || v === undefined) continue;
    validity[r] = 1;
    const s = text(v);
    let code = codeOf.get(s);
    if (code === undefined) {
      code = dictionary.push(s) - 1;
      codeOf.set(s, code);
    }
    codes[r] = code;
  }
  return { name, type: 'string', unit: '', validity, codes, dictionary };
}

// How a value that is not a number is written: dates and timestamps in ISO 8601, lists
// and structs as JSON (64-bit ints in them as digits), the rest as JavaScript writes it.
function textOf(A, type) {
  if (A.DataType.isDate(type)) return (ms) => new Date(Number(ms)).toISOString().slice(0, 10);
  if (A.DataType.isTimestamp(type)) return (ms) => new Date(Number(ms)).toISOString().replace('T', ' ').replace('Z', '');
  return (v) => {
    if (typeof v !== 'object') return String(v);
    try {
      return JSON.stringify(v.toJSON?.() ?? v, (_, x) => (typeof x === 'bigint' ? x.toString() : x));
    } catch {
      return String(v);
    }
  };
}
