// Reading the report model (worker.mjs documents it): sheets of typed-array columns.
// Lookups and row subsets only; no values are computed here.

export const findSheet = (sheets, name) => sheets?.find((s) => s.name === name) ?? null;

export const findColumn = (sheet, name) => sheet?.columns.find((c) => c.name === name) ?? null;

// A cell as a JS value: number, string, or null (no value).
export function cell(column, row) {
  if (!column || !column.validity[row]) return null;
  if (column.type === 'string') {
    const code = column.codes[row];
    return code < 0 ? null : column.dictionary[code];
  }
  return column.values[row];
}

// The row indices where test(cell value) holds.
export function rowsWhere(sheet, columnName, test) {
  const column = findColumn(sheet, columnName);
  const out = [];
  if (!column) return out;
  for (let r = 0; r < sheet.rows; r++) if (test(cell(column, r))) out.push(r);
  return out;
}

// A sheet made of some rows of another, in the given order (dictionaries shared), so
// that a drill-down level is a sheet like any other: tables and exports take it as is.
export function subsetSheet(sheet, rows, name = sheet.name) {
  const n = rows.length;
  return {
    name,
    kind: sheet.kind,
    rows: n,
    columns: sheet.columns.map((c) => {
      const out = { name: c.name, type: c.type, unit: c.unit, validity: new Uint8Array(n) };
      if (c.type === 'string') {
        out.codes = new Int32Array(n);
        out.dictionary = c.dictionary;
        for (let i = 0; i < n; i++) {
          out.validity[i] = c.validity[rows[i]];
          out.codes[i] = c.codes[rows[i]];
        }
      } else {
        out.values = new Float64Array(n);
        for (let i = 0; i < n; i++) {
          out.validity[i] = c.validity[rows[i]];
          out.values[i] = c.values[rows[i]];
        }
      }
      return out;
    }),
  };
}

// The perf-model sheets of a report (GEMM, SDPA_fwd, …) that have rows: the core marks
// them (kind perf_model), so the page needs no list of TraceLens's growing set.
export const perfSheets = (sheets) => (sheets ?? []).filter((s) => s.kind === 'perf_model' && s.rows > 0);
