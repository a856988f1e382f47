#pragma once
// The whole report as tables, in sheet order: the one place that says which sheets a
// report has, shared by the CLI, the wasm module and the benchmark. No I/O here:
// writers turn the tables into CSV / JSON / XLSX at the edges.
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "analyses/collectives/coll_analysis.h"
#include "analyses/ops/short_kernels.h"
#include "analyses/cycles/cycles.h"
#include "analyses/hta/hta_options.h"
#include "analyses/perf/perf_sheets.h"
#include "devices/device_db.h"
#include "analyses/sol/sol_ops.h"
#include "analyses/timeline/gpu_timeline.h"
#include "model/trace_tree.h"
#include "store/event_store.h"
#include "table/table.h"

namespace sollens {

// What the SOL sheets take besides the report's own launchers and modeled ops.
struct SolInputs {
  // The tree with python frames, whose nn.Module frames give the layer types; null:
  // the report's tree.
  const TraceTree* tree = nullptr;
  const CycleReport* cycles = nullptr;  // per step and layer; null: no sol_by_step rows
};

// The speed-of-light sheets (analyses/sol: sol_metrics, sol_by_layer_type, ...), after
// every TraceLens sheet so that those stay as they are.
struct ReportSolOptions {
  bool enabled = false;
  const DeviceSpec* device = nullptr;   // null: no SOL sheets (nothing can be estimated)
  // Run the SOL analysis for the verdict sheet (its steps and estimates) even where the
  // SOL sheets are not written (not enabled, or no device: steps without estimates).
  bool for_verdict = false;
  // Asked once, after every TraceLens sheet and just before the SOL sheets, so that a
  // caller can still be finding them on another thread meanwhile. Unset: no inputs.
  std::function<SolInputs()> inputs;
  SolOptions options;
};

struct ReportOptions {
  GpuTimelineOptions timeline;
  // Its group_by_num_kernels groups ops_unique_args too; its device is replaced by `device`.
  PerfSheetOptions perf;
  // The GPU the roofline columns (unified_perf_summary, perf-model sheets) are computed
  // for; null: no roofline columns (an unknown GPU never gets a guessed peak).
  const DeviceSpec* device = nullptr;
  CollAnalysisOptions collectives;
  // TraceLens --detect_recompute: gpu_timeline, the ops_* sheets, unified_perf_summary
  // and the perf-model sheets split by is_recompute. Needs the python frames in the tree.
  bool detect_recompute = false;
  // TraceLens --include_first_occurrence_time: ops_unique_args's first_occurrence_time.
  bool first_occurrence_time = false;
  // The short-kernel study's threshold, bins and summary rows.
  ShortKernelOptions short_kernels;
  ReportSolOptions sol;
  // Holistic Trace Analysis's sheets (analyses/hta), after the SOL sheets.
  hta::HtaOptions hta;
  // Where set (and hta.enabled), the HTA sheets in order, asked once where they go, so
  // that a caller can be computing them on another thread meanwhile; unset: computed
  // there and then.
  std::function<std::vector<Table>()> hta_tables;
};

// Milliseconds spent per stage, for the CLI summary and the benchmark.
struct ReportTimings {
  double timeline_ms = 0;
  double ops_ms = 0;
  double perf_ms = 0;  // model evaluation, unified_perf_summary and the perf-model sheets
  double collectives_ms = 0;
  double sol_ms = 0;
  double hta_ms = 0;
  // The SOL inputs (Session: python-frame tree and cycles) on a second thread beside
  // the TraceLens sheets, and how long the SOL sheets then waited for them.
  double sol_inputs_ms = 0;
  double sol_inputs_wait_ms = 0;
  // With options.hta_tables, how long the report waited for them (hta_ms: their own
  // wall time, as the caller measured it).
  double hta_wait_ms = 0;
};

struct Report {
  GpuTimeline timeline;
  // In sheet order; empty sheets left out (as TraceLens). A deque: a sheet handed to a
  // SheetSink stays where it is while later sheets are added.
  std::deque<Table> sheets;
  ReportTimings timings;
  std::vector<std::string> sol_notes;  // what the SOL sheets cannot show (SolOps::notes)
  const Table* find(const std::string& name) const;
  std::vector<Table> release_sheets();  // the sheets moved out, in order
};

struct SheetSink {
  // Told of each sheet as soon as it is final, in sheet order, on the thread that builds
  // the report: a writer can start on it while the later sheets are computed. The sheet
  // stays valid, unchanged and in place for as long as the Report returned lives.
  std::function<void(const Table&)> on_sheet;
  // When building the report fails: called before the exception leaves and before any
  // sheet handed over is destroyed, so that a writer using them elsewhere stops first.
  std::function<void()> on_abort;
};

Report build_report(const EventStore& store, const TraceTree& tree,
                    const ReportOptions& options = {}, const SheetSink& on_sheet = {});

}  // namespace sollens
