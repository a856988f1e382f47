#pragma once
// The Session as the web page uses it (through wasm/bindings.cpp, which only
// marshals): the page writes the trace's bytes straight into a buffer here, then asks
// for results as JSON text and for report tables by handle, column by column.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/session.h"
#include "api/time_axis.h"
#include "api/table_registry.h"
#include "base/status.h"
#include "ingest/trace_stream.h"
#include "model/trace_tree.h"
#include "store/padded_buffer.h"

namespace sollens {

class PageSession {
 public:
  // The input buffer: `size` bytes for the page to fill; grow keeps the bytes written
  // so far (a .gz whose trailer understated its size) and may move them; set_size
  // gives the number of bytes actually written, when fewer.
  uint8_t* allocate(size_t size);
  uint8_t* grow(size_t new_size);
  void set_size(size_t size) { buffer_.truncate(size); }
  size_t capacity() const { return buffer_.size(); }

  // Parses the filled buffer: ok when loaded, else the load's error (cancelled when
  // `progress` returned false; Session::load's codes).
  Status load(const LoadOptions& options = {});

  // The other way in, for traces of any size: the file fed in chunks as it is read,
  // each window of events parsed as it completes and only what the store needs kept
  // (ingest/trace_stream.h). begin_stream(the text's size, 0 if unknown); then for each
  // chunk stream_prepare(n), the bytes written there (good until the next call; null:
  // out of memory) and stream_commit(n), false once the load has failed (stop reading);
  // then finish_stream(), as load() (no_trace_loaded when no stream was begun). Frees
  // the trace loaded before; begin_stream's error is out_of_memory.
  Status begin_stream(size_t expected_bytes, const LoadOptions& options = {});
  uint8_t* stream_prepare(size_t n);
  bool stream_commit(size_t n);
  size_t stream_events() const;
  // The .gz the chunks were inflated from ended early: said before finish_stream().
  void stream_input_cut_short();
  Status finish_stream();

  // The same read split in two at the ',' at byte `split_at` (ingest/trace_stream.h,
  // StreamSplit), one PageSession per part (the page's two workers), each fed its part's
  // text as above: the first part the text through that ',', the second the text from
  // it. The second part ends with finish_second_part(): ok, and its encoding is at
  // part_data() (part_size() bytes) until the next call. The first part ends with
  // finish_first_part(), once that encoding is in the filled buffer (allocate), which
  // it frees. Either fails with split_missed where the split was not between two events,
  // or with the load's error: the page then reads the file in one pass, which gives the
  // exact warnings and errors.
  Status begin_stream_part(size_t expected_bytes, size_t split_at, bool second, const LoadOptions& options = {});
  Status finish_second_part();
  const uint8_t* part_data() const { return reinterpret_cast<const uint8_t*>(part_.data()); }
  size_t part_size() const { return part_.size(); }
  Status finish_first_part();

  size_t event_count() const { return session_.loaded() ? session_.event_count() : 0; }
  std::string warnings_json() const;           // [{"code","message"}]
  std::string info_json() const;               // writers/info_json.h; "{}" before a load
  // [{"type","time ms","percent"}] of the whole trace (also when the report splits it by
  // is_recompute); include_unlinked as in build_report.
  std::string gpu_timeline_json(bool include_unlinked = false) const;
  std::string gpu_timeline_csv() const;
  std::string trace_metadata_json() const;     // as report.json's metadata.trace
  static std::string device_names_json();      // api/options.h device_names()
  // The diagnostics catalogue, [{id, severity, meaning, action}] (writers/diagnostics_catalogue.h).
  static std::string diagnostics_catalogue_json();

  // Every build_* below answers its JSON, or {"error": {"code", "message"}}
  // (writers/page_json.h page_error_json), the code the catalogue's id.
  // Computes every sheet; {"device", "timingsMs", "sheets": [table descriptions]}, or
  // {"error"} (an unknown option or device keeps the previous report). option_words: the
  // report options as on the command line (report_options_json; e.g. {"--device",
  // "MI300X", "--corrected"}). --detect-recompute's is_recompute columns come from the
  // tree with the python frames (built on first use and kept for this trace, as for SOL).
  std::string build_report(const std::vector<std::string>& option_words = {});
  // The Holistic Trace Analysis sheets of the report these words ask for, alone
  // (Session::hta_sheets): {"ms", "sheets"}, or {"error"}. The page asks for the report
  // with --no-hta and then for these, so that the report is shown without waiting for
  // them; they are kept with the report's tables (a new report drops them).
  std::string build_hta(const std::vector<std::string>& option_words = {});
  // The report options the page can send: [{"flag", "name" (the page's camelCase name),
  // "value" (what the flag takes, null for a switch), "help"}], from report_flags.def.
  static std::string report_options_json();
  // {"summary", "kernels", "preambles", "sheets"}, or {"error"} for an unknown mode or
  // order (options.h: "" is the default order, per device and stream).
  std::string build_cycles(const std::string& mode, const std::string& order);

  // Speed of light (Session::sol) at this efficiency factor, in (0, 1]: sol.json's
  // {"device" (the SOL device's name), "device_identification", "efficiency_factor",
  // "module_frames", "notes", "metrics": {name: value}} (writers/sol_json.h) and
  // "sheets", or {"error"}. Layer types need the python frames, which the loaded tree
  // leaves out: a tree with them is built on the first call and kept for this trace, as
  // is the cycle detection (Session::python_tree, Session::default_cycles).
  std::string build_sol(const std::string& device_name, double efficiency);
  // The trace of the CUDA / HIP graph capture whose graphs the loaded trace replays
  // (plain or gzip JSON) in the filled buffer: build_sol then counts the replayed kernels
  // for the ops captured (Session::load_capture): ok when read, else the load's error
  // (no_trace_loaded before the trace itself).
  Status load_capture();

  // A PyTorch Execution Trace (plain or gzip JSON) in the filled buffer, kept beside the
  // Kineto trace, loaded before or after it or not at all (Session::load_execution_trace):
  // ok when read, else the load's error, and the previous one is dropped.
  Status load_execution_trace();
  bool has_execution_trace() const { return session_.has_execution_trace(); }
  // Solar (Session::solar) for that graph, measured in the Kineto trace when one is
  // loaded: {"solar": solar.json's document, "summary": [lines], "measured": bool,
  // "sheets": [solar_nodes, solar_intermediates]}, or {"error"}. device_name "": the
  // Kineto trace's GPU; with neither, no SOL times (the document says why).
  std::string build_solar(const std::string& device_name);

  // This trace (the variant) compared with `baseline`'s, as sollens diff compares
  // them, the runs named as by its --names (column names carry them; "" = the default
  // baseline / variant): {"names": [baseline, variant], "sheets": [table descriptions]}
  // (api/compare.h), or {"error"} (names that --names refuses).
  std::string build_comparison(const PageSession& baseline, const std::string& baseline_name = "",
                               const std::string& variant_name = "");

  // The time axis (Session::time_axis, api/time_axis.h), built on first call and kept
  // for this trace: {"traceStartUs", "buildMs", "inputsMs", "sheets": [time_axis_lanes,
  // time_axis_events, time_axis_spans]} (writers/time_axis_json.h), or {"error"}.
  // device_name: the SOL device ("": from the trace). Defined in page_time_axis.cpp.
  std::string build_time_axis(const std::string& device_name);
  // One event's details by store row (writers/time_axis_json.h), or {"error"}; needs
  // build_time_axis first (its SOL ops).
  std::string event_detail(int64_t row) const;
  // [start_us, end_us] (from the trace's start) summarised (analyses/time_axis/
  // range_summary.h): {"sheets": [time_axis_range_summary]}, or {"error"}.
  std::string range_summary(double start_us, double end_us);
  // The trace's text in the filled buffer (the page reads the file again: the
  // streamed load kept no text) cut to [start_us, end_us] from the trace's start, kept
  // until the next call (trimmed()); ok when cut, else why not (no_trace_loaded,
  // bad_range, not_a_trace, out_of_memory). The buffer is freed.
  Status trim_buffer(double start_us, double end_us);
  const std::string& trimmed() const { return trimmed_; }

  // The tables of the last report, cycles, SOL, comparison and Solar, by the handles in
  // their descriptions.
  TableRegistry& tables() { return tables_; }
  std::string sheet_csv(int32_t handle) const;
  std::string sheet_json(int32_t handle) const;

  const Session& session() const { return session_; }

 private:
  // begin_stream and begin_stream_part: the trace loaded before freed, a reader made.
  Status start_reader(size_t expected_bytes, const LoadOptions& options, std::optional<StreamSplit> split);
  Session session_;
  TableRegistry tables_;
  PaddedBuffer buffer_;
  std::unique_ptr<TraceStreamReader> stream_;
  std::string part_;  // the second part's encoding (finish_second_part)
  std::unique_ptr<TimeAxisResult> time_axis_;  // build_time_axis's, for details and ranges
  int32_t time_axis_lanes_ = 0, time_axis_events_ = 0;  // their handles in tables_
  std::string trimmed_;
  LoadOptions stream_options_;
};

}  // namespace sollens
