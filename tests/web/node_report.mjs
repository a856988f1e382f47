// The page's report model built under node, the way web/worker.mjs builds it (for the
// tests and the bench that check export.mjs and share.mjs without a browser).
//   const { sollens, load } = await nodeReport(site);  const loaded = load(trace);
// loaded = {name, version, fileBytes, gzip, info, traceMetadata, gpuTimeline, report, cycles}
// with each sheet's wasm table id kept as sheet.id (for session.sheetCsv and friends),
// and loaded.session (delete it when done).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';

export async function nodeReport(site) {
  globalThis.require = createRequire(import.meta.url);
  globalThis.__dirname = site;
  const { default: createSollens } = await import(path.join(site, 'sollens.mjs'));
  const sollens = await createSollens({ wasmBinary: readFileSync(path.join(site, 'sollens.wasm')) });
  // Emscripten's node glue rethrows every uncaught error with its own source around it:
  // keep node's plain reports.
  process.removeAllListeners('uncaughtException');
  process.removeAllListeners('unhandledRejection');
  const { readSheet } = await import(path.join(site, 'report-model.mjs'));
  const readSheets = (session, described) => described.sheets.map((sheet) => ({ id: sheet.id, ...readSheet(session, sheet) }));
  const load = (trace) => {
    const file = readFileSync(trace);
    const gzip = trace.endsWith('.gz');
    const bytes = gzip ? gunzipSync(file) : file;
    const session = new sollens.Session();
    const address = session.allocate(bytes.length);  // may grow memory: HEAPU8 after
    sollens.HEAPU8.set(bytes, address);
    const loaded = session.load();
    if (loaded.code !== 'ok') throw new Error(`${trace}: ${loaded.message} [${loaded.code}]`);
    // As the worker does: the report without HTA's sheets, then those, before the verdict.
    const report = JSON.parse(session.buildReport(['--no-hta']));
    const hta = JSON.parse(session.buildHta([]));
    if (hta.error) throw new Error(`${trace}: ${hta.error.message} [${hta.error.code}]`);
    const verdict = report.sheets.findIndex((s) => s.name === 'verdict');
    report.sheets.splice(verdict < 0 ? report.sheets.length : verdict, 0, ...hta.sheets);
    const cycles = JSON.parse(session.buildCycles('all', 'device'));
    return {
      session, name: path.basename(trace), version: sollens.version(), fileBytes: file.length, gzip,
      info: JSON.parse(session.infoJson()), traceMetadata: session.traceMetadataJson(),
      gpuTimeline: JSON.parse(session.gpuTimelineJson(false)),
      report: { device: report.device, rooflineCeilings: report.rooflineCeilings, timingsMs: report.timingsMs,
        sheets: readSheets(session, report) },
      cycles: { summary: cycles.summary, kernels: cycles.kernels, preambles: cycles.preambles, sheets: readSheets(session, cycles) },
    };
  };
  return { sollens, load };
}
