// One sheet of the report model: a table the wasm Session described ({id, name, kind,
// rows, columns: [{name, type, unit}]}) copied out as typed-array columns (validity; codes + dictionary for
// strings, values for numbers). The module's views point into wasm memory, which
// moves when it grows, so they are copied at once. Used by worker.mjs, and by the
// node tests that check export.mjs and share.mjs against the same model.
export function readSheet(session, { id, name, kind, rows, columns }) {
  return {
    name, kind, rows,
    columns: columns.map(({ name: columnName, type, unit }, c) => {
      const column = { name: columnName, type, unit, validity: Uint8Array.from(session.columnValidity(id, c)) };
      if (type === 'string') {
        column.codes = Int32Array.from(session.columnCodes(id, c));
        column.dictionary = JSON.parse(session.columnDictionaryJson(id, c));
      } else {
        column.values = Float64Array.from(session.columnNumbers(id, c));
      }
      return column;
    }),
  };
}
