#include "api/session.h"

#include <chrono>
#include <optional>

#include "api/api_guard.h"
#include "api/beside_task.h"
#include "api/hta_request.h"
#include "analyses/hta/hta_sheets.h"
#include "base/diagnostics.h"
#include "base/stopwatch.h"

#include "ingest/trace_reader.h"
#include "ingest/trace_stream.h"
#include "model/sglang_op_names.h"

namespace sollens {

using Clock = std::chrono::steady_clock;

IngestOptions ingest_options(const LoadOptions& options) {
  IngestOptions ingest;
  ingest.threads = options.threads;
  ingest.progress = options.progress;
  ingest.compact_input = options.compact_input;
  ingest.release_input = options.release_input;
  return ingest;
}

Result<LoadStats> Session::load(PaddedBuffer bytes, const LoadOptions& options) {
  unload();  // the previous trace is freed before the next is parsed
  Result<LoadStats> loaded = guarded("reading the trace", [&] {
    const auto t0 = Clock::now();
    Result<std::unique_ptr<EventStore>> parsed = load_trace(std::move(bytes), ingest_options(options));
    return adopt(std::move(parsed), options, ms_since(t0));
  });
  if (!loaded.ok()) unload();
  return loaded;
}

Result<LoadStats> Session::load(TraceStreamReader& reader, const LoadOptions& options) {
  unload();
  Result<LoadStats> loaded = guarded("reading the trace", [&] {
    const auto t0 = Clock::now();
    Result<std::unique_ptr<EventStore>> parsed = reader.finish();
    return adopt(std::move(parsed), options, ms_since(t0));
  });
  if (!loaded.ok()) unload();
  return loaded;
}

Result<LoadStats> Session::load_capture(PaddedBuffer bytes, const LoadOptions& options) {
  capture_.reset();  // a failed load keeps none
  return guarded("reading the graph-capture trace", [&] {
    auto capture = std::make_unique<LoadedCapture>();
    LoadOptions same_tree = options;
    same_tree.tree = tree_options_;
    Result<LoadStats> loaded = capture->load(std::move(bytes), same_tree);
    if (loaded.ok()) capture_ = std::move(capture);
    return loaded;
  });
}

void Session::unload() {
  capture_.reset();
  store_.reset();
  tree_.reset();
  default_cycles_.reset();
  python_tree_.reset();
}

Result<LoadStats> Session::adopt(Result<std::unique_ptr<EventStore>> parsed, const LoadOptions& options,
                                 double parse_ms) {
  tree_options_ = options.tree;
  if (!parsed.ok()) return parsed.status();
  const auto t0 = Clock::now();
  EventStore& store = **parsed;
  if (options.tree.strip_sglang_profiler_suffixes) strip_sglang_profiler_suffixes(store);
  tree_ = std::make_unique<TraceTree>(TraceTree::build(store, options.tree));
  const LoadStats stats{parse_ms, ms_since(t0)};
  store_ = std::move(*parsed);
  return stats;
}

TraceInfo Session::info() const { return describe_trace(*store_, *tree_); }

std::string Session::linking_notice() const { return correlation_linking_notice(*tree_); }

GpuTimeline Session::gpu_timeline(const GpuTimelineOptions& options) const {
  return compute_gpu_timeline(*store_, *tree_, options);
}

DeviceIdentification Session::identify_device(std::string_view device_name) const {
  return identify_trace_device(*store_, device_name);
}

Report Session::report(const ReportRequest& request, const DeviceIdentification& device,
                       const SheetSink& sink) const {
  return report(request, device, *tree_, sink);
}

Report Session::report(const ReportRequest& request, const DeviceIdentification& device,
                       const TraceTree& tree, const SheetSink& sink) const {
  ReportOptions options;
  options.perf.corrected = request.corrected;
  options.timeline.include_unlinked = request.include_unlinked;
  options.detect_recompute = request.detect_recompute;
  options.first_occurrence_time = request.first_occurrence_time;
  options.timeline.micro_idle_threshold_us = request.micro_idle_thresh_us;
  options.perf.group_by_num_kernels = request.group_by_num_kernels;
  options.short_kernels.threshold_us = static_cast<double>(request.short_kernel_threshold_us);
  options.short_kernels.histogram_bins = static_cast<int>(request.short_kernel_histogram_bins);
  options.short_kernels.topk = request.topk_short_kernels;
  options.device = request.no_roofline ? nullptr : device.roofline_spec();
  options.hta = hta_options(request);
  // The SOL analysis runs for the verdict sheet in every report; its sheets only where asked.
  options.sol.enabled = request.sol_sheets && options.device;
  options.sol.for_verdict = true;
  options.sol.device = options.device;
  options.sol.options.efficiency_factor = request.sol_efficiency;
  options.sol.options.capture = capture();
  // The SOL and HTA sheets come last: what the SOL sheets need of this session, and the
  // HTA sheets themselves, are found on second threads while the TraceLens sheets are
  // computed on this one (where there are no threads, when the report asks for them).
  std::vector<Table> hta_tables;  // before the tasks: one may still be filling it when they end
  std::optional<BesideTask> sol_inputs, hta_sheets;
  if (options.sol.enabled || options.sol.for_verdict) {
    // The python-frame tree gives the SOL sheets their layer types; the verdict alone
    // (the page, --no-sol) needs only the steps.
    const bool layer_types = options.sol.enabled;
    sol_inputs.emplace([this, layer_types] {
      if (layer_types) python_tree();
      default_cycles();
    });
    options.sol.inputs = [this, &sol_inputs, layer_types] {
      sol_inputs->wait();
      return SolInputs{layer_types ? &python_tree() : nullptr, &default_cycles()};
    };
  }
  if (options.hta.enabled) {
    hta_sheets.emplace([this, &tree, hta = options.hta, &hta_tables] {
      hta_tables = hta::hta_tables(*store_, tree, hta);
    });
    options.hta_tables = [&hta_sheets, &hta_tables] {
      hta_sheets->wait();
      return std::move(hta_tables);
    };
  }
  Report report = build_report(*store_, tree, options, sink);
  if (sol_inputs) {
    report.timings.sol_inputs_ms = sol_inputs->work_ms();
    report.timings.sol_inputs_wait_ms = sol_inputs->wait_ms();
  }
  if (hta_sheets) report.timings.hta_ms = hta_sheets->work_ms();
  return report;
}

std::vector<Table> Session::hta_sheets(const ReportRequest& request) const {
  const hta::HtaOptions options = hta_options(request);
  if (!options.enabled) return {};
  return hta::hta_tables(*store_, report_tree(request), options);
}

Report Session::report(const ReportRequest& request) const {
  return report(request, identify_device(request.device_name));
}

CycleReport Session::cycle_report(const CyclesRequest& request) const {
  const CycleOptions asked = cycle_options(request);
  // The default request's are kept (the report's verdict found them): a copy, not a second detection.
  if (asked == cycle_options({})) return default_cycles();
  return analyze_cycles(*store_, asked);
}

const CycleReport& Session::default_cycles() const {
  if (!default_cycles_) default_cycles_ = std::make_unique<CycleReport>(analyze_cycles(*store_, cycle_options({})));
  return *default_cycles_;
}

const TraceTree& Session::report_tree(const ReportRequest& request) const {
  return request.detect_recompute ? python_tree() : *tree_;
}

const TraceTree& Session::python_tree() const {
  if (tree_options_.include_python) return *tree_;
  if (!python_tree_) {
    TreeOptions options = tree_options_;
    options.include_python = true;
    python_tree_ = std::make_unique<TraceTree>(TraceTree::build(*store_, options, *tree_));
  }
  return *python_tree_;
}

CyclesResult Session::cycles(const CyclesRequest& request) const {
  const auto t0 = Clock::now();
  CyclesResult result{cycle_report(request), {}, {}, 0};
  result.detect_ms = ms_since(t0);
  result.sheets = cycle_sheets(result.report, cycle_sheet_mode(request.mode));
  result.summary = cycles_summary(result.report);
  return result;
}

std::vector<Diagnostic> Session::diagnostics() const {
  // The trace's info carries its ingest warnings and the tree's findings.
  std::vector<Diagnostic> out = loaded() ? info().warnings : std::vector<Diagnostic>{};
  if (capture_ && capture_->trace().store) {
    const std::vector<Diagnostic>& capture_warnings = capture_->trace().store->warnings;
    out.insert(out.end(), capture_warnings.begin(), capture_warnings.end());
  }
  if (execution_graph_) out.insert(out.end(), execution_graph_->warnings.begin(), execution_graph_->warnings.end());
  return out;
}

}  // namespace sollens
