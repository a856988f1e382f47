#include "api/page_session.h"

#include "api/api_guard.h"
#include "api/compare.h"
#include "base/stopwatch.h"
#include "writers/csv_writer.h"
#include "writers/device_json.h"
#include "writers/diagnostics_catalogue.h"
#include "writers/info_json.h"
#include "writers/json_builder.h"
#include "writers/json_writer.h"
#include "writers/page_json.h"
#include "writers/trace_metadata_json.h"
#include "writers/sol_json.h"
#include "writers/solar_json.h"

namespace sollens {

namespace {

Status no_trace() { return Status(Code::no_trace_loaded, "no trace is loaded"); }

}  // namespace

uint8_t* PageSession::allocate(size_t size) {
  buffer_ = PaddedBuffer(size);
  return reinterpret_cast<uint8_t*>(buffer_.data());
}

uint8_t* PageSession::grow(size_t new_size) {
  buffer_.resize(new_size);
  return reinterpret_cast<uint8_t*>(buffer_.data());
}

Status PageSession::load(const LoadOptions& options) {
  tables_.clear();
  time_axis_.reset();
  return session_.load(std::move(buffer_), options).status();
}

Status PageSession::begin_stream(size_t expected_bytes, const LoadOptions& options) {
  return start_reader(expected_bytes, options, std::nullopt);
}

Status PageSession::start_reader(size_t expected_bytes, const LoadOptions& options, std::optional<StreamSplit> split) {
  tables_.clear();
  time_axis_.reset();
  session_.unload();
  buffer_ = PaddedBuffer();
  std::string().swap(part_);
  stream_.reset();
  stream_options_ = options;
  stream_options_.compact_input = true;
  return guarded("starting to read the trace", [&]() -> Status {
    const IngestOptions ingest = ingest_options(stream_options_);
    stream_ = split ? std::make_unique<TraceStreamReader>(ingest, expected_bytes, *split)
                    : std::make_unique<TraceStreamReader>(ingest, expected_bytes);
    return {};
  });
}

uint8_t* PageSession::stream_prepare(size_t n) {
  return stream_ ? reinterpret_cast<uint8_t*>(stream_->prepare(n)) : nullptr;
}

bool PageSession::stream_commit(size_t n) { return stream_ && stream_->commit(n); }

void PageSession::stream_input_cut_short() {
  if (stream_) stream_->input_cut_short();
}

size_t PageSession::stream_events() const { return stream_ ? stream_->events() : 0; }

Status PageSession::finish_stream() {
  if (!stream_) return Status(Code::no_trace_loaded, "no trace is being read");
  Status loaded = session_.load(*stream_, stream_options_).status();
  stream_.reset();
  return loaded;
}

Status PageSession::begin_stream_part(size_t expected_bytes, size_t split_at, bool second,
                                      const LoadOptions& options) {
  return start_reader(expected_bytes, options,
                      StreamSplit{second ? StreamSplit::Part::kSecond : StreamSplit::Part::kFirst, split_at});
}

Status PageSession::finish_second_part() {
  if (!stream_) return Status(Code::no_trace_loaded, "no trace is being read");
  Status finished = guarded("reading the trace", [&]() -> Status {
    Result<std::string> encoded = stream_->finish_part();
    if (!encoded.ok()) return encoded.status();
    part_ = std::move(*encoded);
    return {};
  });
  stream_.reset();
  return finished;
}

Status PageSession::finish_first_part() {
  if (!stream_) return Status(Code::no_trace_loaded, "no trace is being read");
  stream_->set_second_part(buffer_.view());
  Status loaded = session_.load(*stream_, stream_options_).status();
  stream_.reset();
  buffer_ = PaddedBuffer();
  return loaded;
}

std::string PageSession::warnings_json() const {
  return ingest_warnings_json(session_.loaded() ? session_.warnings() : std::vector<Diagnostic>{});
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

std::string PageSession::diagnostics_catalogue_json() {
  return sollens::diagnostics_catalogue_json(diagnostic_catalogue(), JsonBuilder::Spacing::kCompact);
}

std::string PageSession::device_names_json() {
  return string_array_json(device_names());
}

std::string PageSession::build_report(const std::vector<std::string>& option_words) {
  return page_answer(guarded("building the report", [&]() -> Result<std::string> {
    if (!session_.loaded()) return no_trace();
    ReportRequest request;
    if (Status read = read_report_words(option_words, request); !read.ok()) return read;
    const DeviceIdentification device = session_.identify_device(request.device_name);
    Report report = session_.report(request, device, session_.report_tree(request));
    return page_report_json(device, report.timings, tables_.replace(TableSet::kReport, report.release_sheets()));
  }));
}

std::string PageSession::build_hta(const std::vector<std::string>& option_words) {
  return page_answer(guarded("computing the HTA sheets", [&]() -> Result<std::string> {
    if (!session_.loaded()) return no_trace();
    ReportRequest request;
    if (Status read = read_report_words(option_words, request); !read.ok()) return read;
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<Table> tables = session_.hta_sheets(request);
    const double ms = ms_since(t0);
    JsonBuilder json(JsonBuilder::Spacing::kCompact);
    json.begin_object().member("ms", ms).member_raw("sheets", tables_.add(TableSet::kReport, std::move(tables)));
    return json.end_object().take();
  }));
}

std::string PageSession::report_options_json() {
  JsonBuilder json(JsonBuilder::Spacing::kCompact);
  json.begin_array();
  for (const OptionSpec<ReportRequest>& option : report_options()) {
    json.begin_object().member("flag", option.flag).member("name", option_page_name(option.flag)).key("value");
    if (option.takes_value) json.string(option.value_name);
    else json.null();
    json.member("help", option.help).end_object();
  }
  return json.end_array().take();
}

std::string PageSession::build_cycles(const std::string& mode, const std::string& order) {
  return page_answer(guarded("finding the cycles", [&]() -> Result<std::string> {
    if (!session_.loaded()) return no_trace();
    const auto kernel_order = parse_kernel_order(order);
    if (!kernel_order) return Status(Code::bad_option_value, std::string("order is ") + kKernelOrderWords);
    const auto cycle_mode = parse_cycle_mode(mode);
    if (!cycle_mode) return Status(Code::bad_option_value, std::string("mode is ") + kCycleModeWords);
    CyclesResult cycles = session_.cycles({*cycle_mode, *kernel_order});
    std::vector<Table> tables;
    for (CycleSheet& sheet : cycles.sheets) tables.push_back(std::move(sheet.table));  // the preambles stay
    const std::string sheets = tables_.replace(TableSet::kCycles, std::move(tables));
    return page_cycles_json(cycles.summary, cycles.report.kernels, cycles.sheets, sheets);
  }));
}

std::string PageSession::build_sol(const std::string& device_name, double efficiency) {
  return page_answer(guarded("computing speed of light", [&]() -> Result<std::string> {
    if (!session_.loaded()) return no_trace();
    if (Status device = check_device_name(device_name); !device.ok()) return device;
    if (!(efficiency > 0 && efficiency <= 1))
      return Status(Code::bad_option_value, "the efficiency factor is in (0, 1], e.g. 0.8");
    SolResult sol = session_.sol({device_name, efficiency});
    JsonBuilder json(JsonBuilder::Spacing::kCompact);
    json.begin_object();
    write_sol_members(json, sol.report, sol.device);  // before the tables move to the registry
    json.member_raw("sheets", tables_.replace(TableSet::kSol, sol.report.release_tables()));
    return json.end_object().take();
  }));
}

Status PageSession::load_capture() {
  PaddedBuffer bytes = std::move(buffer_);
  buffer_ = PaddedBuffer();
  if (!session_.loaded())
    return Status(Code::no_trace_loaded, "load the trace before the trace of its graph capture");
  return session_.load_capture(std::move(bytes)).status();
}

Status PageSession::load_execution_trace() {
  tables_.replace(TableSet::kSolar, {});
  Status loaded = session_.load_execution_trace(std::move(buffer_)).status();
  buffer_ = PaddedBuffer();
  return loaded;
}

std::string PageSession::build_solar(const std::string& device_name) {
  return page_answer(guarded("computing Solar", [&]() -> Result<std::string> {
    if (!session_.has_execution_trace()) return Status(Code::no_trace_loaded, "no Execution Trace is loaded");
    if (Status device = check_device_name(device_name); !device.ok()) return device;
    SolarRequest request;
    request.device_name = device_name;
    request.no_device_notice =
        "no device: an Execution Trace names no GPU; choose one, or open the Kineto trace of the same run first";
    SolarResult solar = session_.solar(request);
    std::vector<Table> tables;
    tables.push_back(std::move(solar.report.nodes));
    tables.push_back(std::move(solar.intermediates));
    const std::string sheets = tables_.replace(TableSet::kSolar, std::move(tables));
    return page_solar_json(solar.report.document, solar.report.summary, solar.measured, sheets);
  }));
}

std::string PageSession::build_comparison(const PageSession& baseline, const std::string& baseline_name,
                                          const std::string& variant_name) {
  return page_answer(guarded("comparing the traces", [&]() -> Result<std::string> {
    if (!session_.loaded() || !baseline.session_.loaded())
      return Status(Code::no_trace_loaded, "two traces must be loaded to compare");
    CompareTags tags;
    if (!baseline_name.empty()) tags.baseline = baseline_name;
    if (!variant_name.empty()) tags.variant = variant_name;
    if (Status names = check_compare_tags(tags); !names.ok()) return names;
    std::vector<Table> tables = Session::diff(baseline.session_.diff_run(), session_.diff_run(), {tags, {}}).sheets;
    return page_comparison_json(tags.baseline, tags.variant, tables_.replace(TableSet::kComparison, std::move(tables)));
  }));
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
