// Embind surface of the core for the web page: marshalling only. The page writes the
// trace's bytes straight into wasm memory (no whole copy in the JS heap), then asks
// core/api's PageSession for results; column views point into wasm memory and must
// be copied at once (any later call may grow memory and detach them).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <limits>
#include <string>

#include "api/page_session.h"
#include "api/rank_set.h"
#include "base/diagnostics.h"

namespace {

using sollens::PageSession;
using sollens::TableRegistry;

// A Status as JavaScript reads it: {code, message}, code the catalogue's id ("ok" when
// it succeeded), as the JSON answers' {"error": {"code", "message"}}.
emscripten::val status_object(const sollens::Status& status) {
  emscripten::val out = emscripten::val::object();
  out.set("code", std::string(sollens::code_id(status.code())));
  out.set("message", status.message());
  return out;
}

template <typename T>
emscripten::val view(const std::vector<T>& v) {
  return emscripten::val(emscripten::typed_memory_view(v.size(), v.data()));
}

// Table columns by handle, for Session and Ranks alike (see Session's accessors).
emscripten::val column_numbers(TableRegistry& tables, int sheet, int column) {
  const sollens::EncodedColumn* e = tables.encoded(sheet, column);
  return e ? view(e->numbers) : emscripten::val::null();
}
emscripten::val column_validity(TableRegistry& tables, int sheet, int column) {
  const sollens::Column* col = tables.column(sheet, column);
  return col ? view(col->validity()) : emscripten::val::null();
}
emscripten::val column_codes(TableRegistry& tables, int sheet, int column) {
  const sollens::EncodedColumn* e = tables.encoded(sheet, column);
  return e ? view(e->codes) : emscripten::val::null();
}
std::string column_dictionary_json(TableRegistry& tables, int sheet, int column) {
  const sollens::EncodedColumn* e = tables.encoded(sheet, column);
  return e ? e->dictionary_json : "[]";
}

class Session {
 public:
  uintptr_t allocate(double size) { return address(page_.allocate(static_cast<size_t>(size))); }
  // Returns the new address: the old one and any HEAPU8 view taken before are invalid.
  uintptr_t grow(double new_size) { return address(page_.grow(static_cast<size_t>(new_size))); }
  void set_size(double size) { page_.set_size(static_cast<size_t>(size)); }
  double capacity() const { return static_cast<double>(page_.capacity()); }
  // Each load answers status_object's {code, message}.
  emscripten::val load() { return status_object(page_.load()); }
  // on_progress(bytes parsed, events so far) after each parse window; returning false
  // cancels (the code is then "cancelled").
  emscripten::val load_with_progress(emscripten::val on_progress) {
    sollens::LoadOptions options;
    if (on_progress.typeOf().as<std::string>() == "function")
      options.progress = [&on_progress](size_t bytes, size_t events) {
        return !on_progress(static_cast<double>(bytes), static_cast<double>(events)).isFalse();
      };
    return status_object(page_.load(options));
  }
  // The file fed in chunks and parsed as it comes (PageSession::begin_stream): the page
  // writes each chunk at streamPrepare's address, then streamCommit (false: stop, the
  // load failed), then finishStream gives load's answer.
  emscripten::val begin_stream(double expected_bytes) {
    // Past what size_t counts here (4 GiB): no size to go by.
    const bool fits = expected_bytes >= 0 && expected_bytes < static_cast<double>(std::numeric_limits<size_t>::max());
    return status_object(page_.begin_stream(fits ? static_cast<size_t>(expected_bytes) : 0));
  }
  uintptr_t stream_prepare(double n) { return address(page_.stream_prepare(static_cast<size_t>(n))); }
  bool stream_commit(double n) { return page_.stream_commit(static_cast<size_t>(n)); }
  double stream_events() const { return static_cast<double>(page_.stream_events()); }
  void stream_input_cut_short() { page_.stream_input_cut_short(); }
  emscripten::val finish_stream() { return status_object(page_.finish_stream()); }
  // One part of a read split at the ',' at byte split_at (PageSession::begin_stream_part):
  // fed as above, then the second part's finishSecondPart (its encoding is then
  // partBytes, a view: copy it at once) and, once that encoding is in the filled buffer
  // (allocate), the first part's finishFirstPart.
  emscripten::val begin_stream_part(double expected_bytes, double split_at, bool second) {
    return status_object(page_.begin_stream_part(static_cast<size_t>(expected_bytes), static_cast<size_t>(split_at), second));
  }
  emscripten::val finish_second_part() { return status_object(page_.finish_second_part()); }
  emscripten::val part_bytes() const {
    return emscripten::val(emscripten::typed_memory_view(page_.part_size(), page_.part_data()));
  }
  emscripten::val finish_first_part() { return status_object(page_.finish_first_part()); }
  double event_count() const { return static_cast<double>(page_.event_count()); }
  std::string warnings_json() const { return page_.warnings_json(); }
  std::string info_json() const { return page_.info_json(); }
  std::string gpu_timeline_json(bool include_unlinked) const { return page_.gpu_timeline_json(include_unlinked); }
  std::string gpu_timeline_csv() const { return page_.gpu_timeline_csv(); }
  // option_words: an array of the report's option words, as on the command line
  // (reportOptionsJson lists them), e.g. ['--device', 'MI300X', '--corrected'].
  std::string build_report(emscripten::val option_words) {
    return page_.build_report(emscripten::vecFromJSArray<std::string>(option_words));
  }
  std::string build_hta(emscripten::val option_words) {
    return page_.build_hta(emscripten::vecFromJSArray<std::string>(option_words));
  }
  std::string build_cycles(std::string mode, std::string order) { return page_.build_cycles(mode, order); }
  std::string build_sol(std::string device_name, double efficiency) { return page_.build_sol(device_name, efficiency); }
  // An Execution Trace in the filled buffer (beside the Kineto trace, if one is loaded).
  emscripten::val load_execution_trace() { return status_object(page_.load_execution_trace()); }
  // The trace of the CUDA / HIP graph capture in the filled buffer: buildSol then counts
  // the replayed kernels for the ops captured.
  emscripten::val load_capture() { return status_object(page_.load_capture()); }
  std::string build_solar(std::string device_name) { return page_.build_solar(device_name); }
  // This trace (the variant) compared with `baseline`'s, the runs named ("" = default);
  // tables read as the report's.
  std::string build_comparison(const Session& baseline, std::string baseline_name, std::string variant_name) {
    return page_.build_comparison(baseline.page_, baseline_name, variant_name);
  }
  // The time axis (PageSession::build_time_axis and what follows it).
  std::string build_time_axis(std::string device_name) { return page_.build_time_axis(device_name); }
  std::string event_detail(double row) { return page_.event_detail(static_cast<int64_t>(row)); }
  std::string range_summary(double start_us, double end_us) { return page_.range_summary(start_us, end_us); }
  // The trace's text in the filled buffer cut to the range; then trimmedBytes (a view:
  // copy it at once).
  emscripten::val trim_buffer(double start_us, double end_us) {
    return status_object(page_.trim_buffer(start_us, end_us));
  }
  emscripten::val trimmed_bytes() const {
    const std::string& t = page_.trimmed();
    return emscripten::val(emscripten::typed_memory_view(t.size(), reinterpret_cast<const uint8_t*>(t.data())));
  }
  // Numeric columns as a Float64Array view (null cells hold 0; see columnValidity).
  emscripten::val column_numbers(int sheet, int column) { return ::column_numbers(page_.tables(), sheet, column); }
  // 1 = value, 0 = null, as a Uint8Array view.
  emscripten::val column_validity(int sheet, int column) { return ::column_validity(page_.tables(), sheet, column); }
  // String columns: an Int32Array view of codes (-1 = null) into columnDictionaryJson.
  emscripten::val column_codes(int sheet, int column) { return ::column_codes(page_.tables(), sheet, column); }
  std::string column_dictionary_json(int sheet, int column) {
    return ::column_dictionary_json(page_.tables(), sheet, column);
  }
  std::string sheet_csv(int sheet) const { return page_.sheet_csv(sheet); }
  std::string sheet_json(int sheet) const { return page_.sheet_json(sheet); }
  std::string trace_metadata_json() const { return page_.trace_metadata_json(); }
  static std::string device_names_json() { return PageSession::device_names_json(); }
  static std::string report_options_json() { return PageSession::report_options_json(); }
  const PageSession& page() const { return page_; }

 private:
  static uintptr_t address(const uint8_t* p) { return reinterpret_cast<uintptr_t>(p); }

  PageSession page_;
};

// Many rank traces (api/rank_set.h): each loaded into a Session, added here, then
// deleted; build() gives the cross-rank sheets, read as a Session's tables.
class Ranks {
 public:
  emscripten::val add(const Session& rank, std::string file) { return status_object(ranks_.add(rank.page(), file)); }
  double size() const { return static_cast<double>(ranks_.size()); }
  std::string build() { return ranks_.build(); }
  emscripten::val column_numbers(int sheet, int column) { return ::column_numbers(ranks_.tables(), sheet, column); }
  emscripten::val column_validity(int sheet, int column) { return ::column_validity(ranks_.tables(), sheet, column); }
  emscripten::val column_codes(int sheet, int column) { return ::column_codes(ranks_.tables(), sheet, column); }
  std::string column_dictionary_json(int sheet, int column) {
    return ::column_dictionary_json(ranks_.tables(), sheet, column);
  }
  std::string sheet_csv(int sheet) const { return ranks_.sheet_csv(sheet); }

 private:
  sollens::RankSet ranks_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(sollens) {
  emscripten::class_<Session>("Session")
      .constructor<>()
      .function("allocate", &Session::allocate)
      .function("grow", &Session::grow)
      .function("setSize", &Session::set_size)
      .function("capacity", &Session::capacity)
      .function("load", &Session::load)
      .function("loadWithProgress", &Session::load_with_progress)
      .function("beginStream", &Session::begin_stream)
      .function("streamPrepare", &Session::stream_prepare)
      .function("streamCommit", &Session::stream_commit)
      .function("streamEvents", &Session::stream_events)
      .function("streamInputCutShort", &Session::stream_input_cut_short)
      .function("finishStream", &Session::finish_stream)
      .function("beginStreamPart", &Session::begin_stream_part)
      .function("finishSecondPart", &Session::finish_second_part)
      .function("partBytes", &Session::part_bytes)
      .function("finishFirstPart", &Session::finish_first_part)
      .function("infoJson", &Session::info_json)
      .function("gpuTimelineJson", &Session::gpu_timeline_json)
      .function("eventCount", &Session::event_count)
      .function("warningsJson", &Session::warnings_json)
      .function("gpuTimelineCsv", &Session::gpu_timeline_csv)
      .function("buildReport", &Session::build_report)
      .function("buildHta", &Session::build_hta)
      .function("buildCycles", &Session::build_cycles)
      .function("buildSol", &Session::build_sol)
      .function("loadExecutionTrace", &Session::load_execution_trace)
      .function("loadCapture", &Session::load_capture)
      .function("buildSolar", &Session::build_solar)
      .function("buildComparison", &Session::build_comparison)
      .function("buildTimeAxis", &Session::build_time_axis)
      .function("eventDetail", &Session::event_detail)
      .function("rangeSummary", &Session::range_summary)
      .function("trimBuffer", &Session::trim_buffer)
      .function("trimmedBytes", &Session::trimmed_bytes)
      .function("columnNumbers", &Session::column_numbers)
      .function("columnValidity", &Session::column_validity)
      .function("columnCodes", &Session::column_codes)
      .function("columnDictionaryJson", &Session::column_dictionary_json)
      .function("sheetCsv", &Session::sheet_csv)
      .function("sheetJson", &Session::sheet_json)
      .function("traceMetadataJson", &Session::trace_metadata_json)
      .class_function("deviceNamesJson", &Session::device_names_json)
      .class_function("reportOptionsJson", &Session::report_options_json);
  emscripten::class_<Ranks>("Ranks")
      .constructor<>()
      .function("add", &Ranks::add)
      .function("size", &Ranks::size)
      .function("build", &Ranks::build)
      .function("columnNumbers", &Ranks::column_numbers)
      .function("columnValidity", &Ranks::column_validity)
      .function("columnCodes", &Ranks::column_codes)
      .function("columnDictionaryJson", &Ranks::column_dictionary_json)
      .function("sheetCsv", &Ranks::sheet_csv);
  emscripten::function("version", emscripten::optional_override([] { return std::string("0.1.0"); }));
  // The diagnostics catalogue for the page's Diagnostics reference: [{id, severity, meaning, action}].
  emscripten::function("diagnosticsCatalogueJson", emscripten::optional_override([] {
    return PageSession::diagnostics_catalogue_json();
  }));
}
