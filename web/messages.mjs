// The messages between the page (engine.mjs) and the loading worker (worker.mjs), and
// between that worker and its file-reading worker (read-worker.mjs): their type
// names live here only, so that both ends use the same ones.
//
// To the worker:  OPEN    {id, file: File}                   a file the user chose or dropped
//                         {id, url, name}                    a same-origin file (the sample)
//                         {id, url, name, remote: true}      ?trace=URL: a CORS fetch
//                         ... compare: true                  keep the open trace as the
//                                                            baseline; this one is the variant,
//                                                            compared after DONE (COMPARISON)
//                 REPORT  {id, ...options}   recompute the report; options by the names
//                                            Session.reportOptionsJson() gives them (the
//                                            report options of core/api/report_flags.def:
//                                            device, corrected, includeUnlinked,
//                                            detectRecompute, ...; device "" or left out =
//                                            identify from the trace)
//                 CYCLES  {id, mode: 'all'|'llm', order: 'device'|'stream'|'file'}
//                 HTA     {id, ...options}   the HTA sheets of the report with these
//                                            options again (the page asks after a failed
//                                            open, whose load replaced the one they were for)
//                 SOL     {id, device, efficiency}      speed of light (device "" = from the
//                                                       trace; efficiency factor in (0, 1])
//                 SOLAR   {id, file, device}   read a PyTorch Execution Trace (beside the
//                                              open Kineto trace, if any) and build Solar
//                         {id, device}         Solar again, for another device
//                 COMPARE {id, swapped, names}   compare the two traces again (swapped: the
//                                         shown trace is the baseline, the kept one the variant;
//                                         names: [baseline, variant] in the compared columns,
//                                         as sollens diff --names; left out: the defaults)
//                 OPEN_RANKS {id, files: [{file: File, name}]}   several rank traces of one
//                                         run: read one at a time, only their summaries kept
//                                         (what was open is closed); answered by RANKS
//                 The time axis (views/timeline.mjs; web/timeline/CONTRACT.md), each with
//                 ask (a number the reply carries back, to settle the page's Promise):
//                 TIME_AXIS      {id, ask, device}   its sheets, built on the first request
//                                                    (device: the SOL device, "" = the trace's)
//                 EVENT_DETAIL   {id, ask, row}      one event by its store row
//                 RANGE_SUMMARY  {id, ask, startUs, endUs}   a range (µs from the trace's start)
//                 TRIM           {id, ask, startUs, endUs}   the trace cut to a range, for
//                                                    Perfetto UI (the file is read again)
// From the worker: READY        {version, devices: [deviceDB ids], diagnostics (the core's
//                                catalogue: [{id, severity, meaning, action}]), warm}   once the module runs
//                                (warm: false), again once it has run the bundled sample (true)
//                  PROGRESS     {id, phase: 'read' (events parsed as they are read) |
//                                'parse' (the event tree) | 'analyse' (the report's sheets),
//                                done, total, events, elapsedMs (since the load, or this
//                                file of several, began)}, and for
//                                OPEN_RANKS {item, items, itemName}: which file of how many
//                  DONE         {id, name, fileBytes, gzip, cutShort (the file ends before
//                                its trace does: the events before the cut were read),
//                                diagnostics (the load's warnings: [{code, message}]),
//                                info, traceMetadata (JSON text),
//                                gpuTimeline, report, timings: {readMs (read and parsed),
//                                treeMs, analyseMs, totalMs, parts (2 when read in two
//                                parts at once, else 1), readAgain (the browser's read
//                                stalled and the file was read again)}}
//                                the report, shown at once
//                                (without HTA's sheets: HTA follows)
//                  HTA          {id, hta: {ms, sheets (kind 'hta')}} or {id, title, code}
//                                right after DONE and each REPORT: that report's Holistic
//                                Trace Analysis sheets, computed after it is shown (the
//                                report's sheets come without them), with the same options
//                  CYCLES       {id, cycles, ms}     right after HTA (the first cycles, per
//                                                    stream) and after each CYCLES request
//                  REPORT       {id, report, gpuTimeline}   after each REPORT request
//                                                           (without HTA's sheets: HTA follows)
//                  CYCLES_ERROR {id, title}          the cycles failed (the report stands)
//                  SOL          {id, sol, ms} or {id, error}   after each SOL request
//                  SOLAR        {id, solar: {name, measured, document (solar.json),
//                                summary, sheets}, ms} or {id, title, hint}   after each SOLAR
//                  COMPARISON   {id, comparison: {baseline, variant (file names), swapped,
//                                names: [baseline, variant] (the columns' tags), sheets}} or
//                                {id, title}   after DONE of a compare open, and after each
//                                              COMPARE request
//                  RANKS        {id, ranks: {ranks: [{rank, file, rankFrom}], simplifiedMode,
//                                metadataMismatches, skipped: [file names of Execution
//                                Traces], sheets}}   the cross-rank sheets (core/api/rank_set.h)
//                  TIME_AXIS    {id, ask, timeAxis: {lanes, events, spans (sheets), traceStartUs
//                                (absolute µs of the trace's start), buildMs, inputsMs}} or {id, ask, error}
//                  EVENT_DETAIL {id, ask, row, detail: {name, kind, startUs, durUs, args, op, perf,
//                                sol}} or {id, ask, error}   (core/writers/time_axis_json.h)
//                  RANGE_SUMMARY {id, ask, summary (sheet time_axis_range_summary)} or {id, ask, error}
//                  TRIM         {id, ask, bytes (Uint8Array, transferred), name} or {id, ask, error}
//                  ERROR        {id, title, hint, code}   code: the diagnostics catalogue's id, or ''
//                               (each failure above carries `code` beside its title or error too)
// Every message but READY carries the id of the load it belongs to.

export const ToWorker = Object.freeze({
  OPEN: 'open',
  REPORT: 'report',
  CYCLES: 'cycles',
  HTA: 'hta',
  SOL: 'sol',
  SOLAR: 'solar',
  COMPARE: 'compare',
  OPEN_RANKS: 'open-ranks',
  TIME_AXIS: 'time-axis',
  EVENT_DETAIL: 'event-detail',
  RANGE_SUMMARY: 'range-summary',
  TRIM: 'trim',
});

export const FromWorker = Object.freeze({
  READY: 'ready',
  PROGRESS: 'progress',
  DONE: 'done',
  CYCLES: 'cycles',
  HTA: 'hta',
  REPORT: 'report',
  CYCLES_ERROR: 'cycles-error',
  SOL: 'sol',
  SOLAR: 'solar',
  COMPARISON: 'comparison',
  RANKS: 'ranks',
  TIME_AXIS: 'time-axis',
  EVENT_DETAIL: 'event-detail',
  RANGE_SUMMARY: 'range-summary',
  TRIM: 'trim',
  ERROR: 'error',
});

// Between the loading worker and the worker that reads the file beside it, inflating
// a .json.gz on the way (read-worker.mjs):
// To it:   READ    {blob, gzip}        the file to read (gzip: decompress it)
//          CREDIT  {bytes}             bytes of DATA the parser has consumed
// From it: DATA    {chunks (Uint8Arrays in order, transferred), read (bytes of the file so far)}
//          END     {read}
//          ERROR   {message, fileEnded (the whole file was read: a .gz stopped short), read}
export const ToReader = Object.freeze({
  READ: 'read',
  CREDIT: 'credit',
});

export const FromReader = Object.freeze({
  DATA: 'data',
  END: 'end',
  ERROR: 'error',
});

// Between the loading worker and the worker that reads the second part of a large
// plain-JSON trace read in two parts at once (part-worker.mjs):
// To it:   READ     {module (the compiled WebAssembly.Module), blob (the file), split (the
//                    byte of the ',' where the second part starts), fileBytes}
// From it: PROGRESS {read (bytes of its part so far), events}
//          PART     {bytes (Uint8Array, transferred: the part encoded), read}
//          FAILED   {code (the core's, '' for anything else), message}
export const ToPart = Object.freeze({
  READ: 'read',
});

export const FromPart = Object.freeze({
  PROGRESS: 'progress',
  PART: 'part',
  FAILED: 'failed',
});

// A handler for each type of `kinds` (ToWorker or FromWorker), checked when made, so
// that a type without a handler (or a handler for no type) is found at once.
// The returned function calls the message's handler and returns true; a message of
// no known type (or no message at all) is refused: it returns false.
export function messageRouter(kinds, handlers) {
  const types = new Set(Object.values(kinds));
  for (const type of types)
    if (typeof handlers[type] !== 'function') throw new Error(`no handler for the message type '${type}'`);
  for (const type of Object.keys(handlers))
    if (!types.has(type)) throw new Error(`a handler for '${type}', which is no message type`);
  return (message) => {
    const type = message?.type;
    if (typeof type !== 'string' || !types.has(type)) return false;
    handlers[type](message);
    return true;
  };
}
