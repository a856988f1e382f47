#pragma once
// The public C++ API of the core: one loaded trace and everything computed from it.
// Front ends (the CLI, the wasm bindings, tests) load bytes into a Session and ask it
// for results; they never wire the layers below together themselves. No file I/O:
// the caller reads the file and hands over its bytes.
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analyses/cycles/cycle_sheets.h"
#include "analyses/info/trace_info.h"
#include "devices/device_identify.h"
#include "analyses/timeline/gpu_timeline.h"
#include "api/capture_trace.h"
#include "api/events.h"
#include "api/options.h"
#include "api/speed_of_light.h"
#include "base/status.h"
#include "ingest/trace_reader.h"
#include "model/trace_tree.h"
#include "report/report.h"
#include "store/event_store.h"
#include "store/execution_graph.h"
#include "store/padded_buffer.h"

namespace sollens {
class TraceStreamReader;
struct DiffRequest;
struct DiffResult;
struct DiffRun;
struct RanksResult;
struct TimeAxisRequest;
struct TimeAxisResult;
namespace ranks {
struct RankSummary;
}
}  // namespace sollens

namespace sollens {

struct LoadOptions {
  unsigned threads = 1;  // 2: a large trace's two halves at once (native builds)
  // Called after each parse window with (bytes parsed, events so far); returning
  // false cancels the load.
  std::function<bool(size_t bytes, size_t events)> progress;
  TreeOptions tree;
  // Keep only what the analyses need of the bytes, dropping the rest as it is read
  // (ingest/trace_reader.h IngestOptions::compact_input, release_input: returns how far
  // it released): for many large traces at once.
  bool compact_input = false;
  std::function<const char*(const char* begin, const char* end)> release_input;
};

// What a load took: the parse (with the gzip inflate) and the event tree's linking (0 for
// an Execution Trace, which has no tree). A load that fails returns, instead, its error:
// the ingest's code (file_empty, not_json, invalid_json, gzip_corrupt, et_is_kineto, ...;
// ingest/trace_reader.h, ingest/execution_trace_reader.h), cancelled when `progress`
// returned false, out_of_memory when an allocation failed (api/api_guard.h).
struct LoadStats {
  double parse_ms = 0;
  double tree_ms = 0;
};

// The cycles of a trace and their sheets, in sheet order.
struct CyclesResult {
  CycleReport report;
  std::vector<CycleSheet> sheets;
  std::string summary;  // one line: what was found
  double detect_ms = 0;  // the detection alone, without building the sheets
};

// The ingest options a load with these options parses with (for a TraceStreamReader the
// caller feeds).
IngestOptions ingest_options(const LoadOptions& options);

class Session {
 public:
  // Parses the trace (JSON or gzip JSON) and builds its event tree. A failed or
  // cancelled load leaves the session empty.
  Result<LoadStats> load(PaddedBuffer bytes, const LoadOptions& options = {});
  // The same for a trace fed in chunks (ingest/trace_stream.h), made with
  // ingest_options(options): its last bytes parsed, then the tree.
  Result<LoadStats> load(TraceStreamReader& reader, const LoadOptions& options = {});
  bool loaded() const { return store_ != nullptr; }
  // The trace in which the CUDA / HIP graphs this trace replays were captured (load it
  // after the trace: loading a trace drops it). SOL, in the report and sol(), then
  // counts each replayed kernel for the op captured there. A failed load keeps none.
  // The tree options are the loaded trace's (options.tree is not read).
  Result<LoadStats> load_capture(PaddedBuffer bytes, const LoadOptions& options = {});
  const CaptureTrace* capture() const { return capture_ ? &capture_->trace() : nullptr; }
  // Frees the trace and everything computed from it.
  void unload();

  // Everything below requires loaded().
  const EventStore& store() const { return *store_; }
  const TraceTree& tree() const { return *tree_; }
  size_t event_count() const { return store_->size(); }
  const std::vector<Diagnostic>& warnings() const { return store_->warnings; }
  // Every diagnostic the loaded traces produced, each under its catalogue code: the
  // ingest's warnings, the tree's findings, the graph-capture trace's and the Execution
  // Trace's warnings (for counts in report.json and the page's notices). Needs neither
  // trace: with none loaded it is empty.
  std::vector<Diagnostic> diagnostics() const;
  const TraceMetadata& metadata() const { return store_->metadata; }
  TraceInfo info() const;
  GpuTimeline gpu_timeline(const GpuTimelineOptions& options = {}) const;
  // The GPU to compute rooflines for: `device_name` when given (a device database
  // name, any case), else identified from the trace's deviceProperties.
  DeviceIdentification identify_device(std::string_view device_name = {}) const;
  // Every report sheet, in order (report/report.h), for a device already identified.
  // sink: told of each sheet as it is done, and of a failure (build_report's SheetSink).
  Report report(const ReportRequest& request, const DeviceIdentification& device,
                const SheetSink& sink = {}) const;
  // The same over another tree of this trace's events (one with the python frames, which
  // --detect-recompute needs).
  Report report(const ReportRequest& request, const DeviceIdentification& device, const TraceTree& tree,
                const SheetSink& sink = {}) const;
  Report report(const ReportRequest& request = {}) const;
  // The report's Holistic Trace Analysis sheets alone, as report() over report_tree()
  // computes them for this request (none with no_hta): the page shows a report asked
  // with no_hta first and adds these once they are computed.
  std::vector<Table> hta_sheets(const ReportRequest& request) const;
  CyclesResult cycles(const CyclesRequest& request = {}) const;
  // The detection alone, for a summary line; for the default request, a copy of
  // default_cycles() (detected once per trace).
  CycleReport cycle_report(const CyclesRequest& request = {}) const;
  // cycle_report() with the default request, detected on first use and kept: the
  // report's summary line, its SOL sheets and the page's SOL view share it.
  const CycleReport& default_cycles() const;
  // The tree with python frames (nn.Module frames give SOL its layer types): the loaded
  // tree when it has them, else built on first use and kept.
  const TraceTree& python_tree() const;
  // The tree a report for this request reads: python_tree() where it asks for recompute
  // (found from the checkpoint python frames), else the loaded one.
  const TraceTree& report_tree(const ReportRequest& request) const;
  // The events shaped like PyTorch's profiler result (api/events.h).
  EventView events() const { return EventView(*store_, *tree_); }

  // Speed of light (api/speed_of_light.h). sol requires loaded(): the tree with python
  // frames and the default cycles, kept. The Execution Trace is kept beside the Kineto
  // trace, whichever is loaded first, until the next one replaces it (a failed load
  // keeps none); solar requires it, and is measured against the Kineto trace when one
  // is loaded. Defined in speed_of_light.cpp.
  SolResult sol(const SolRequest& request) const;
  Result<LoadStats> load_execution_trace(PaddedBuffer bytes);
  bool has_execution_trace() const { return execution_graph_ != nullptr; }
  const std::vector<Diagnostic>& execution_trace_warnings() const { return execution_graph_->warnings; }
  SolarResult solar(const SolarRequest& request) const;

  // The time axis's sheets and what they draw over the events (api/time_axis.h, which
  // defines it): the default cycles, the critical paths, SOL per GPU event.
  TimeAxisResult time_axis(const TimeAxisRequest& request) const;

  // Runs and ranks compared: api/compare.h and api/ranks.h define these and their types.
  // This trace as one side of a diff: its default report and cycles. The session must
  // outlive the run (the op-tree diffs read its events).
  DiffRun diff_run() const;
  // Two runs compared, then the request's gates evaluated. Static: a run may be a stored
  // report.json (read_stored_report), which no session holds.
  static DiffResult diff(const DiffRun& baseline, const DiffRun& variant, const DiffRequest& request);
  // What the cross-rank sheets keep of this trace (a few KB); `file` names it (its rank
  // may come from the name).
  ranks::RankSummary rank_summary(std::string file) const;
  // The ranks numbered and the cross-rank sheets. Static: by then only the ranks'
  // summaries are left, each rank's trace dropped once summarised.
  static RanksResult ranks(std::vector<ranks::RankSummary> summaries);
  // The warning for GPU events linked by correlation id instead of TraceLens's flow
  // events; "" when they were linked through flows.
  std::string linking_notice() const;

 private:
  // The tree of a parsed trace; the session holds both.
  Result<LoadStats> adopt(Result<std::unique_ptr<EventStore>> parsed, const LoadOptions& options, double parse_ms);

  std::unique_ptr<EventStore> store_;
  std::unique_ptr<TraceTree> tree_;
  TreeOptions tree_options_;
  // Kept results (see above); reset by load.
  mutable std::unique_ptr<CycleReport> default_cycles_;
  mutable std::unique_ptr<TraceTree> python_tree_;
  std::unique_ptr<LoadedCapture> capture_;
  std::unique_ptr<ExecutionGraph> execution_graph_;  // not dropped by load: see solar()
};

}  // namespace sollens
