// Checks that a merged sheet (tests/fleet/merge_ranks.mjs) equals the in-process one
// (sollens report DIR) on the merged sheet's columns: same rows, in the same order, or
// matched by --key columns; numbers compared as numbers (10 and 10.0 are equal).
//   node tests/fleet/compare_tables.mjs IN_PROCESS.csv MERGED.csv [--key col,col]
// Exit 0 when equal, 1 with the differences on stderr.
import { DuckDBInstance } from '@duckdb/node-api';

const args = process.argv.slice(2);
const keyAt = args.indexOf('--key');
const keys = keyAt >= 0 ? args[keyAt + 1].split(',') : [];
const [expectedFile, mergedFile] = keyAt >= 0 ? args.filter((a, i) => i !== keyAt && i !== keyAt + 1) : args;

const connection = await (await DuckDBInstance.create(':memory:')).connect();
const read = async (file) => {
  const sql = `SELECT * FROM read_csv('${file.replaceAll("'", "''")}', all_varchar = true, header = true)`;
  return (await connection.runAndReadAll(sql)).getRowObjects();
};
const expected = await read(expectedFile);
const merged = await read(mergedFile);
const keyOf = (row) => keys.map((k) => row[k]).join('\u0000');
if (keys.length) {
  const order = (a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0);
  expected.sort(order);
  merged.sort(order);
}
const same = (a, b) => {
  if (a === b) return true;
  const x = Number(a), y = Number(b);
  if (a === null || b === null || a === '' || b === '' || Number.isNaN(x) || Number.isNaN(y)) return false;
  return Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
};
const problems = [];
if (expected.length !== merged.length) problems.push(`${expected.length} rows in process, ${merged.length} merged`);
const columns = merged.length ? Object.keys(merged[0]) : [];
for (const c of columns) if (expected.length && !(c in expected[0])) problems.push(`no column '${c}' in ${expectedFile}`);
for (let i = 0; i < Math.min(expected.length, merged.length) && problems.length < 10; ++i)
  for (const c of columns)
    if (!same(expected[i][c], merged[i][c]))
      problems.push(`row ${i + 1}, ${c}: in process ${expected[i][c]}, merged ${merged[i][c]}`);
if (problems.length) {
  console.error(`compare_tables: ${mergedFile} differs from ${expectedFile}:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.error(`compare_tables: ${mergedFile}: ${merged.length} rows × ${columns.length} columns equal`);
