#include "report/report.h"

#include <chrono>
#include <optional>

#include "base/stopwatch.h"

#include "analyses/collectives/coll_analysis.h"
#include "analyses/hta/hta_sheets.h"
#include "analyses/ops/kernel_launchers.h"
#include "analyses/ops/kernel_summary.h"
#include "analyses/ops/ops_sheets.h"
#include "analyses/ops/process_names.h"
#include "analyses/ops/recompute.h"
#include "analyses/ops/short_kernels.h"
#include "analyses/perf/unified_perf_summary.h"
#include "analyses/sol/sol.h"
#include "analyses/verdict/verdict.h"

namespace sollens {

using Clock = std::chrono::steady_clock;

const Table* Report::find(const std::string& name) const {
  for (const Table& t : sheets)
    if (t.name() == name) return &t;
  return nullptr;
}

std::vector<Table> Report::release_sheets() {
  std::vector<Table> out(std::make_move_iterator(sheets.begin()), std::make_move_iterator(sheets.end()));
  sheets.clear();
  return out;
}

namespace {

// The verdict (analyses/verdict) from the sheets and results so far; without the SOL
// analysis its idle split comes from the wall alone (no estimates, no steps).
Table verdict_sheet(const EventStore& store, const TraceTree& tree, const Report& report, const SolReport* sol) {
  verdict::VerdictInputs in;
  in.timeline = &report.timeline;
  const SolWall idle_only = sol ? SolWall{} : sol_wall(store, tree, SolOps{});
  in.wall = sol ? &sol->wall : &idle_only;
  in.sol = sol;
  in.device = sol ? sol->device : "";
  in.ops_summary = report.find("ops_summary");
  in.kernel_summary = report.find("kernel_summary");
  return verdict::verdict_table(in);
}

void fill_report(const EventStore& store, const TraceTree& tree, const ReportOptions& options,
                 const SheetSink& sink, Report& report) {
  auto add = [&](Table t) {
    report.sheets.push_back(std::move(t));
    if (sink.on_sheet) sink.on_sheet(report.sheets.back());
  };
  auto t0 = Clock::now();
  report.timeline = compute_gpu_timeline(store, tree, options.timeline);
  std::vector<uint8_t> recompute;
  if (options.detect_recompute) {
    recompute = find_recompute_events(store, tree);
    GpuTimelineOptions part = options.timeline;
    part.recompute_flags = &recompute;
    const GpuTimeline rest = compute_gpu_timeline(store, tree, part);
    part.only_recompute = true;
    add(gpu_timeline_table(rest, compute_gpu_timeline(store, tree, part)));
  } else {
    add(gpu_timeline_table(report.timeline));
  }
  report.timings.timeline_ms = ms_since(t0);

  // Sheets with no rows are left out, as TraceLens writes them; so are the ops_* and
  // unified sheets of GPU-only traces. The short-kernel sheets are always written.
  auto keep_if_rows = [&add](Table t) {
    if (t.num_rows() > 0) add(std::move(t));
  };
  const bool gpu_only = is_gpu_only_trace(store);
  // The perf models first, though their sheets come later: their args cache reads each
  // op's args once for every sheet that shows them.
  t0 = Clock::now();
  const ModeledOps modeled = evaluate_modeled_ops(store, tree);
  const OpArgsSource op_args = [&modeled](uint32_t event) {
    const perf::ArgsEntry& a = modeled.args[modeled.args.intern(event)];
    return OpArgs{a.tuple_text[0], a.tuple_text[1], a.tuple_text[2], a.tuple_text[3]};
  };
  report.timings.perf_ms = ms_since(t0);

  t0 = Clock::now();
  LauncherTable launchers = find_kernel_launchers(store, tree);
  if (options.detect_recompute) mark_recompute_launchers(launchers, recompute);
  OpsSheetOptions ops_options;
  ops_options.recompute_column = options.detect_recompute;
  ops_options.first_occurrence_time = options.first_occurrence_time;
  ops_options.num_kernels_column = options.perf.group_by_num_kernels;
  const ProcessThreadNames names(store);  // read once for the three sheets keyed on them
  if (!gpu_only) {
    keep_if_rows(ops_summary_by_category_table(launchers, ops_options));
    keep_if_rows(ops_summary_table(store, launchers, ops_options));
    keep_if_rows(ops_unique_args_table(store, launchers, names, ops_options, op_args));
  }
  report.timings.ops_ms = ms_since(t0);

  // unified_perf_summary (§4.6) and the perf-model sheets (§4.7: GEMM, SDPA_*, CONV_*,
  // elementwise, Normalization, Reduce_*), after ops_unique_args as TraceLens writes them;
  // roofline columns when the device is known.
  t0 = Clock::now();
  PerfSheetOptions perf = options.perf;
  perf.device = options.device;
  if (options.detect_recompute) perf.recompute = &recompute;
  if (!gpu_only) keep_if_rows(unified_perf_summary_table(store, tree, launchers, names, modeled, perf));
  for (Table& t : perf_model_tables(store, modeled, names, perf)) add(std::move(t));
  report.timings.perf_ms += ms_since(t0);

  t0 = Clock::now();
  keep_if_rows(kernel_summary_table(store, tree, launchers, report.timeline.total_us));
  add(short_kernel_histogram_table(store, tree, options.short_kernels));
  add(short_kernels_summary_table(store, tree, report.timeline.total_us, options.short_kernels, op_args));
  report.timings.ops_ms += ms_since(t0);

  // coll_analysis last, as TraceLens writes it (§8.2).
  if (options.collectives.enabled) {
    t0 = Clock::now();
    keep_if_rows(coll_analysis_table(store, options.collectives));
    report.timings.collectives_ms = ms_since(t0);
  }

  // The SOL sheets after all of TraceLens's, from the launchers and models above; the
  // verdict reads the SOL analysis before its tables move into the report.
  const ReportSolOptions& sol = options.sol;
  const bool sol_sheets = sol.enabled && sol.device;
  std::optional<SolReport> sol_report;
  if (sol_sheets || sol.for_verdict) {
    t0 = Clock::now();
    const SolInputs inputs = sol.inputs ? sol.inputs() : SolInputs{};
    sol_report.emplace(analyze_sol(store, inputs.tree ? *inputs.tree : tree, launchers, modeled, sol.device,
                                   sol.options, inputs.cycles));
    report.timings.sol_ms = ms_since(t0);
  }
  Table verdict = verdict_sheet(store, tree, report, sol_report ? &*sol_report : nullptr);
  if (sol_sheets) {
    for (Table& t : sol_report->release_tables()) keep_if_rows(std::move(t));
    report.sol_notes = std::move(sol_report->ops.notes);
  }

  if (options.hta.enabled) {
    t0 = Clock::now();
    std::vector<Table> hta_sheets =
        options.hta_tables ? options.hta_tables() : hta::hta_tables(store, tree, options.hta);
    if (options.hta_tables) report.timings.hta_wait_ms = ms_since(t0);
    else report.timings.hta_ms = ms_since(t0);
    for (Table& t : hta_sheets) add(std::move(t));
  }
  add(std::move(verdict));  // last: a summary of the sheets before it
}

}  // namespace

Report build_report(const EventStore& store, const TraceTree& tree, const ReportOptions& options,
                    const SheetSink& sink) {
  Report report;
  try {
    fill_report(store, tree, options, sink, report);
  } catch (...) {
    if (sink.on_abort) sink.on_abort();
    throw;
  }
  return report;
}

}  // namespace sollens
