#include "api/page_session.h"

#include <cmath>
#include <new>

#include "devices/device_db.h"
#include "analyses/sol/sol.h"
#include "analyses/solar/solar_intermediates.h"
#include "analyses/solar/solar_report.h"
#include "api/compare.h"
#include "api/info_json.h"
#include "base/json_text.h"
#include "base/number_format.h"
#include "ingest/execution_trace_reader.h"
#include "report/trace_metadata_json.h"
#include "writers/csv_writer.h"
#include "writers/device_json.h"
#include "writers/json_writer.h"

namespace sollens {

namespace {

std::string error_json(const std::string& message) { return "{\"error\":" + json_string(message) + "}"; }

// A page has at most 4 GB of WebAssembly memory.
const char* const kOutOfMemory = "out of memory: this trace needs more than the page's 4 GB; use the sollens command line";

std::string timings_json(const ReportTimings& t) {
  return "{\"timeline\":" + format_python_float(t.timeline_ms) + ",\"ops\":" + format_python_float(t.ops_ms) +
         ",\"perf\":" + format_python_float(t.perf_ms) +
         ",\"collectives\":" + format_python_float(t.collectives_ms) + "}";
}

// A metric's value: integers without a decimal point (counts), NaN and infinities
// (no estimate) as null.
std::string metric_value_json(const Column& values, size_t row) {
  if (values.is_null(row)) return "null";
  const double v = values.float_at(row);
  if (!std::isfinite(v)) return "null";
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  return format_python_float(v);
}

std::string sol_metrics_json(const Table& metrics) {
  JsonMembers members;
  for (size_t row = 0; row < metrics.num_rows(); ++row)
    members.emplace_back(metrics.column(0).string_at(row), metric_value_json(metrics.column(1), row));
  return json_object(members);
}

// The GPU the SOL times are for: the one chosen, else the Kineto trace's; never a guess.
void choose_solar_hardware(const std::string& device_name, const Session& session, solar::SolarInputs& in) {
  const DeviceSpec* spec = nullptr;
  if (!device_name.empty()) {
    spec = find_device(device_name);
  } else if (session.loaded()) {
    const DeviceIdentification id = session.identify_device();
    spec = id.roofline_spec();
    if (!spec) in.hardware_notice = id.notice;
  } else {
    in.hardware_notice = "no device: an Execution Trace names no GPU; choose one, or open the Kineto trace of the same run first";
  }
  if (spec) {
    in.hardware = solar::solar_hardware(*spec);
    if (!in.hardware) in.hardware_notice = spec->id + " has no boost clock, bandwidth or fp32 peak in deviceDB";
  }
}

}  // namespace

uint8_t* PageSession::allocate(size_t size) {
  buffer_ = PaddedBuffer(size);
  return reinterpret_cast<uint8_t*>(buffer_.data());
}

uint8_t* PageSession::grow(size_t new_size) {
  buffer_.resize(new_size);
  return reinterpret_cast<uint8_t*>(buffer_.data());
}

std::string PageSession::load(const LoadOptions& options) {
  tables_.clear();
  const LoadOutcome outcome = session_.load(std::move(buffer_), options);
  if (outcome.cancelled) return "cancelled";
  return outcome.ok ? "" : outcome.error;
}

void PageSession::begin_stream(size_t expected_bytes, const LoadOptions& options) {
  tables_.clear();
  session_.unload();
  buffer_ = PaddedBuffer();
  stream_options_ = options;
  stream_options_.compact_input = true;
  stream_ = std::make_unique<TraceStreamReader>(ingest_options(stream_options_), expected_bytes);
}

uint8_t* PageSession::stream_prepare(size_t n) {
  return stream_ ? reinterpret_cast<uint8_t*>(stream_->prepare(n)) : nullptr;
}

bool PageSession::stream_commit(size_t n) { return stream_ && stream_->commit(n); }

size_t PageSession::stream_events() const { return stream_ ? stream_->events() : 0; }

std::string PageSession::finish_stream() {
  if (!stream_) return "no trace is being read";
  const LoadOutcome outcome = session_.load(*stream_, stream_options_);
  stream_.reset();
  if (outcome.cancelled) return "cancelled";
  return outcome.ok ? "" : outcome.error;
}

std::string PageSession::warnings_json() const {
  std::string out = "[";
  if (session_.loaded())
    for (const auto& w : session_.warnings())
      out += (out.size() > 1 ? "," : "") + std::string("{\"code\":") + json_string(w.code) +
             ",\"message\":" + json_string(w.message) + "}";
  return out + "]";
}

std::string PageSession::info_json() const {
  return session_.loaded() ? trace_info_json(session_.info(), session_.store()) : "{}";
}

std::string PageSession::gpu_timeline_json(bool include_unlinked) const {
  GpuTimelineOptions options;
  options.include_unlinked = include_unlinked;
  return session_.loaded() ? to_json(gpu_timeline_table(session_.gpu_timeline(options))) : "[]";
}

std::string PageSession::gpu_timeline_csv() const {
  return session_.loaded() ? to_csv(gpu_timeline_table(session_.gpu_timeline())) : "";
}

std::string PageSession::trace_metadata_json() const {
  return session_.loaded() ? sollens::trace_metadata_json(session_.metadata()) : "{}";
}

std::string PageSession::device_names_json() {
  std::string out = "[";
  for (const std::string& name : device_names()) out += (out.size() > 1 ? "," : "") + json_string(name);
  return out + "]";
}

std::string PageSession::build_report(const std::string& device_name, bool corrected, bool include_unlinked,
                                      bool detect_recompute) {
  try {
    if (!session_.loaded()) return error_json("no trace is loaded");
    if (std::string problem = unknown_device_error(device_name); !problem.empty()) return error_json(problem);
    ReportRequest request;
    request.device_name = device_name;
    request.corrected = corrected;
    request.include_unlinked = include_unlinked;
    request.detect_recompute = detect_recompute;
    const DeviceIdentification device = session_.identify_device(device_name);
    // Recompute is found from the checkpoint python frames, so they must be in the tree.
    Report report = detect_recompute ? session_.report(request, device, session_.python_tree())
                                     : session_.report(request, device);
    return "{\"device\":" + device_identification_json(device) +
           ",\"rooflineCeilings\":" + roofline_ceilings_json(device) + ",\"timingsMs\":" + timings_json(report.timings) +
           ",\"sheets\":" + tables_.replace(TableSet::kReport, report.release_sheets()) + "}";
  } catch (const std::bad_alloc&) {
    return error_json(kOutOfMemory);
  }
}

std::string PageSession::build_cycles(const std::string& mode, const std::string& order) {
  try {
    if (!session_.loaded()) return error_json("no trace is loaded");
    const auto kernel_order = parse_kernel_order(order);
    if (!kernel_order) return error_json(std::string("order is ") + kKernelOrderWords);
    const auto cycle_mode = parse_cycle_mode(mode);
    if (!cycle_mode) return error_json(std::string("mode is ") + kCycleModeWords);
    CyclesResult cycles = session_.cycles({*cycle_mode, *kernel_order});
    std::vector<Table> tables;
    std::string preambles = "[";
    for (CycleSheet& sheet : cycles.sheets) {
      preambles += (tables.empty() ? "" : ",") + json_string(sheet.preamble);
      tables.push_back(std::move(sheet.table));
    }
    return "{\"summary\":" + json_string(cycles.summary) + ",\"kernels\":" + std::to_string(cycles.report.kernels) +
           ",\"preambles\":" + preambles + "],\"sheets\":" + tables_.replace(TableSet::kCycles, std::move(tables)) +
           "}";
  } catch (const std::bad_alloc&) {
    return error_json(kOutOfMemory);
  }
}

std::string PageSession::build_sol(const std::string& device_name, double efficiency) {
  try {
    if (!session_.loaded()) return error_json("no trace is loaded");
    if (std::string problem = unknown_device_error(device_name); !problem.empty()) return error_json(problem);
    if (!(efficiency > 0 && efficiency <= 1)) return error_json("the efficiency factor is in (0, 1], e.g. 0.8");
    const DeviceIdentification device = session_.identify_device(device_name);
    SolOptions options;
    options.efficiency_factor = efficiency;
    options.capture = session_.capture();
    SolReport r = analyze_sol(session_.store(), session_.python_tree(), device, options, &session_.default_cycles());
    std::string notes = "[";
    for (const std::string& n : r.ops.notes) notes += (notes.size() > 1 ? "," : "") + json_string(n);
    const std::string head = "{\"device\":" + device_identification_json(device) +
                             ",\"solDevice\":" + (r.device.empty() ? "null" : json_string(r.device)) +
                             ",\"efficiencyFactor\":" + format_python_float(r.efficiency_factor) +
                             ",\"moduleFrames\":" + (r.ops.module_frames ? "true" : "false") + ",\"notes\":" + notes +
                             "],\"metrics\":" + sol_metrics_json(r.metrics);
    return head + ",\"sheets\":" + tables_.replace(TableSet::kSol, r.release_tables()) + "}";
  } catch (const std::bad_alloc&) {
    return error_json(kOutOfMemory);
  }
}

std::string PageSession::load_capture() {
  PaddedBuffer bytes = std::move(buffer_);
  buffer_ = PaddedBuffer();
  if (!session_.loaded()) return "load the trace before the trace of its graph capture";
  const LoadOutcome outcome = session_.load_capture(std::move(bytes));
  return outcome.ok ? "" : outcome.error;
}

std::string PageSession::load_execution_trace() {
  tables_.replace(TableSet::kSolar, {});
  et_graph_.reset();
  EtLoadResult loaded = sollens::load_execution_trace(std::move(buffer_));
  buffer_ = PaddedBuffer();
  if (!loaded.graph) return loaded.error;
  et_graph_ = std::move(loaded.graph);
  return "";
}

std::string PageSession::build_solar(const std::string& device_name) {
  try {
    if (!et_graph_) return error_json("no Execution Trace is loaded");
    if (std::string problem = unknown_device_error(device_name); !problem.empty()) return error_json(problem);
    const solar::SolarGraph graph = solar::build_solar_graph(*et_graph_);
    solar::SolarInputs in;
    in.graph = et_graph_.get();
    in.solar = &graph;
    if (session_.loaded()) in.measured = solar::measure_run(graph, *et_graph_, session_.store(), session_.tree());
    choose_solar_hardware(device_name, session_, in);
    solar::SolarReport report = solar::make_solar_report(in);
    std::string summary = "[";
    for (const std::string& line : report.summary) summary += (summary.size() > 1 ? "," : "") + json_string(line);
    std::vector<Table> tables;
    tables.push_back(std::move(report.nodes));
    tables.push_back(solar::intermediates_table(*et_graph_, graph));
    return "{\"solar\":" + report.json + ",\"summary\":" + summary +
           "],\"measured\":" + (in.measured ? "true" : "false") +
           ",\"sheets\":" + tables_.replace(TableSet::kSolar, std::move(tables)) + "}";
  } catch (const std::bad_alloc&) {
    return error_json(kOutOfMemory);
  }
}

std::string PageSession::build_comparison(const PageSession& baseline, const std::string& baseline_name,
                                          const std::string& variant_name) {
  try {
    if (!session_.loaded() || !baseline.session_.loaded()) return error_json("two traces must be loaded to compare");
    CompareTags tags;
    if (!baseline_name.empty()) tags.baseline = baseline_name;
    if (!variant_name.empty()) tags.variant = variant_name;
    if (std::string problem = compare_tags_problem(tags); !problem.empty()) return error_json(problem);
    std::vector<Table> tables = compare_sessions(baseline.session_, session_, tags);
    return "{\"names\":[" + json_string(tags.baseline) + "," + json_string(tags.variant) +
           "],\"sheets\":" + tables_.replace(TableSet::kComparison, std::move(tables)) + "}";
  } catch (const std::bad_alloc&) {
    return error_json(kOutOfMemory);
  }
}

std::string PageSession::sheet_csv(int32_t handle) const {
  const Table* t = tables_.table(handle);
  return t ? to_csv(*t) : "";
}

std::string PageSession::sheet_json(int32_t handle) const {
  const Table* t = tables_.table(handle);
  return t ? to_json(*t) : "[]";
}

}  // namespace sollens
