// How long the page's worker takes to answer TIME_AXIS, under node through the wasm
// module (the worker's calls: buildTimeAxis, then each sheet read out as typed arrays):
//   node tests/web/ta_time_axis_bench.mjs TRACE [--site build/wasm/web]
// e.g. owlv2 written 8 times over (988k events):
//   python3 tests/bench/make_big_trace.py tests/fixtures/traces/tracelens-h100-owlv2-large/*.gz /tmp/big.json 245 --compact
// Prints the load, the core's build (inputs and sheets) and the sheets' read-out times.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { createRequire } from 'node:module';
import { defaultSite, pathOptions } from './support/harness.mjs';

const trace = process.argv[2];
if (!trace || trace.startsWith('--')) {
  console.error('usage: node tests/web/ta_time_axis_bench.mjs TRACE [--site DIR]');
  process.exit(2);
}
const site = pathOptions()('--site', defaultSite);
globalThis.require = createRequire(import.meta.url);
globalThis.__dirname = site;
const { default: createSollens } = await import(path.join(site, 'sollens.mjs'));
const sollens = await createSollens({ wasmBinary: readFileSync(path.join(site, 'sollens.wasm')) });
process.removeAllListeners('uncaughtException');  // node's plain reports, not the glue's
process.removeAllListeners('unhandledRejection');
const { readSheet } = await import(path.join(site, 'report-model.mjs'));

const t0 = performance.now();
const file = readFileSync(trace);
const bytes = trace.endsWith('.gz') ? gunzipSync(file) : file;
const session = new sollens.Session();
const address = session.allocate(bytes.length);  // may grow memory: HEAPU8 after
sollens.HEAPU8.set(bytes, address);
const loaded = session.load();
if (loaded.code !== 'ok') throw new Error(`${loaded.message} [${loaded.code}]`);
const t1 = performance.now();
const described = JSON.parse(session.buildTimeAxis(''));
if (described.error) throw new Error(described.error.message);
const t2 = performance.now();
const sheets = described.sheets.map((sheet) => readSheet(session, sheet));
const t3 = performance.now();
console.log(`${path.basename(trace)}: ${session.eventCount()} events loaded in ${(t1 - t0).toFixed(0)} ms`);
console.log(`time axis: core ${(t2 - t1).toFixed(0)} ms (inputs ${described.inputsMs.toFixed(0)} ms: cycles, critical paths, SOL; ` +
  `sheets ${described.buildMs.toFixed(0)} ms), sheets read out ${(t3 - t2).toFixed(0)} ms: ` +
  sheets.map((s) => `${s.name} ${s.rows} rows`).join(', '));
session.delete();
