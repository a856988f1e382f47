// Embind surface of the core for the web page: the page writes the trace's bytes
// straight into wasm memory (no whole copy in the JS heap), then asks for results.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "analyses/cycles/cycle_sheets.h"
#include "analyses/info/trace_info.h"
#include "analyses/roofline/device_identify.h"
#include "report/report.h"
#include "analyses/timeline/gpu_timeline.h"
#include "ingest/trace_reader.h"
#include "model/trace_tree.h"
#include "writers/csv_writer.h"
#include "writers/json_writer.h"
#include "base/number_format.h"
#include "writers/report_json.h"
#include "report/trace_metadata_json.h"

namespace {

class Session {
 public:
  // Returns the address of a buffer of `size` bytes for the page to fill.
  uintptr_t allocate(double size) {
    buffer_ = sollens::PaddedBuffer(static_cast<size_t>(size));
    return reinterpret_cast<uintptr_t>(buffer_.data());
  }
  // Grows the buffer to `new_size` bytes keeping the bytes written so far (a .gz
  // whose trailer understated its size); returns the new address: the old one and
  // any HEAPU8 view taken before are invalid afterwards.
  uintptr_t grow(double new_size) {
    buffer_.resize(static_cast<size_t>(new_size));
    return reinterpret_cast<uintptr_t>(buffer_.data());
  }
  // The number of bytes actually written, when fewer than allocated.
  void set_size(double size) { buffer_.truncate(static_cast<size_t>(size)); }
  double capacity() const { return static_cast<double>(buffer_.size()); }
  // Parses the filled buffer; returns "" or the error in plain words.
  std::string load() { return load_with_progress(emscripten::val::undefined()); }
  // The same, calling on_progress(bytes parsed, events so far) after each parse
  // window; a callback returning false cancels (the result is then "cancelled").
  std::string load_with_progress(emscripten::val on_progress) {
    drop_tables(report_ids_);
    drop_tables(cycle_ids_);
    store_.reset();
    tree_.reset();
    sollens::IngestOptions options;
    if (on_progress.typeOf().as<std::string>() == "function")
      options.progress = [&on_progress](size_t bytes, size_t events) {
        emscripten::val r = on_progress(static_cast<double>(bytes), static_cast<double>(events));
        return !(r.isFalse());
      };
    sollens::LoadResult r = sollens::load_trace(std::move(buffer_), options);
    if (r.cancelled) return "cancelled";
    if (!r.store) return r.error.empty() ? "the trace could not be read" : r.error;
    store_ = std::move(r.store);
    tree_ = std::make_unique<sollens::TraceTree>(sollens::TraceTree::build(*store_));
    return "";
  }
  double event_count() const { return store_ ? static_cast<double>(store_->size()) : 0; }
  std::string warnings_json() const {
    std::string out = "[";
    if (store_)
      for (const auto& w : store_->warnings)
        out += (out.size() > 1 ? "," : "") + std::string("{\"code\":") + sollens::json_string(w.code) +
               ",\"message\":" + sollens::json_string(w.message) + "}";
    return out + "]";
  }
  // What the trace is (sollens info as JSON): format, version hints, devices,
  // ranks, event counts, time span and warnings. "{}" before a load.
  std::string info_json() const {
    if (!store_) return "{}";
    const sollens::TraceInfo info = sollens::describe_trace(*store_, *tree_);
    const auto& m = store_->metadata;
    auto num = [](int64_t v) {
      return v == sollens::kNoValue ? std::string("null") : std::to_string(v);
    };
    auto strings = [](const std::vector<std::string>& v) {
      std::string out = "[";
      for (const auto& s : v) out += (out.size() > 1 ? "," : "") + sollens::json_string(s);
      return out + "]";
    };
    auto counts = [](const std::vector<std::pair<std::string, size_t>>& v) {
      std::string out = "[";
      for (const auto& [k, n] : v)
        out += (out.size() > 1 ? "," : "") + std::string("[") + sollens::json_string(k) + "," +
               std::to_string(n) + "]";
      return out + "]";
    };
    std::string out = "{\"format\":" + sollens::json_string(info.format);
    out += ",\"traceName\":" + sollens::json_string(m.trace_name);
    out += ",\"jsonBytes\":" + std::to_string(store_->input_bytes);
    out += ",\"events\":" + std::to_string(info.events);
    out += ",\"gpuEvents\":" + std::to_string(info.gpu_events);
    out += ",\"linkedGpuEvents\":" + std::to_string(info.linked_gpu_events);
    out += ",\"firstTsUs\":" + sollens::format_python_float(info.first_ts_us);
    out += ",\"lastEndUs\":" + sollens::format_python_float(info.last_end_us);
    out += ",\"spanMs\":" +
           sollens::format_python_float((info.last_end_us - info.first_ts_us) / 1e3);
    out += ",\"versionHints\":" + strings(info.version_hints);
    out += ",\"gpuPids\":" + strings(info.gpu_devices);
    out += ",\"eventsByCategory\":" + counts(info.events_by_category);
    out += ",\"eventsByPhase\":" + counts(info.events_by_phase);
    out += ",\"devices\":[";
    for (size_t i = 0; i < m.devices.size(); ++i) {
      const auto& d = m.devices[i];
      out += std::string(i ? "," : "") + "{\"id\":" + num(d.id) +
             ",\"name\":" + sollens::json_string(d.name) +
             ",\"totalGlobalMem\":" + num(d.total_global_mem) +
             ",\"computeMajor\":" + num(d.compute_major) +
             ",\"computeMinor\":" + num(d.compute_minor) + ",\"numSms\":" + num(d.num_sms) +
             ",\"warpSize\":" + num(d.warp_size) + "}";
    }
    out += "],\"distributed\":";
    if (m.distributed) {
      const auto& di = *m.distributed;
      out += "{\"backend\":" + sollens::json_string(di.backend) + ",\"rank\":" + num(di.rank) +
             ",\"worldSize\":" + num(di.world_size) + ",\"pgCount\":" + num(di.pg_count) +
             ",\"ncclVersion\":" + sollens::json_string(di.nccl_version) + "}";
    } else {
      out += "null";
    }
    out += ",\"warnings\":" + strings(info.warnings);
    return out + "}";
  }
  // The gpu_timeline sheet as JSON rows ({"type","time ms","percent"}).
  std::string gpu_timeline_json() const {
    if (!store_) return "[]";
    return sollens::to_json(
        sollens::gpu_timeline_table(sollens::compute_gpu_timeline(*store_, *tree_)));
  }
  // --- the report as typed-array columns ------------------------------------------
  // Computes every sheet (core/report) and returns its description as JSON:
  //   {"device": {...identification...}, "timingsMs": {...},
  //    "sheets": [{"id", "name", "rows", "columns": [{"name", "type"}]}]}
  // type: "string" | "int" | "float" | "bool"; id: the table's handle for the column
  // calls (valid until the next buildReport). device_name "" identifies the GPU from
  // the trace; an unknown name gives {"error": "..."}. The columns are then read with
  // the calls below, each returning a view into wasm memory that the caller must copy
  // at once (any later call may grow memory and detach it).
  std::string build_report(std::string device_name, bool corrected, bool include_unlinked) {
    if (!store_) return "{\"error\":\"no trace is loaded\"}";
    if (!device_name.empty() && !sollens::find_device(device_name))
      return "{\"error\":" +
             sollens::json_string("unknown device '" + device_name +
                                  "' (known: " + sollens::known_device_names() + ")") +
             "}";
    const sollens::DeviceIdentification device =
        sollens::identify_trace_device(*store_, device_name);
    sollens::ReportOptions options;
    options.perf.corrected = corrected;
    options.timeline.include_unlinked = include_unlinked;
    options.device = device.roofline_spec();
    drop_tables(report_ids_);  // only now: a rejected call keeps the previous report
    sollens::Report report = sollens::build_report(*store_, *tree_, options);
    const auto& t = report.timings;
    std::string out = "{\"device\":" + sollens::device_identification_json(device);
    out += ",\"timingsMs\":{\"timeline\":" + sollens::format_python_float(t.timeline_ms) +
           ",\"ops\":" + sollens::format_python_float(t.ops_ms) +
           ",\"perf\":" + sollens::format_python_float(t.perf_ms) +
           ",\"collectives\":" + sollens::format_python_float(t.collectives_ms) + "}";
    return out + ",\"sheets\":" + keep_tables(std::move(report.sheets), report_ids_) + "}";
  }
  // Repeating-kernel cycles (core/analyses/cycles): mode "all", "llm" or "uplifter", order
  // "device" | "stream" | "file". {"summary": "...", "kernels": N, "sheets": [...]}
  // with sheets described as in buildReport, plus each positions table's preamble.
  std::string build_cycles(std::string mode, std::string order) {
    if (!store_) return "{\"error\":\"no trace is loaded\"}";
    sollens::CycleOptions options;
    if (order == "stream") options.order = sollens::KernelOrder::kStartTimePerStream;
    else if (order == "file") options.order = sollens::KernelOrder::kFileOrder;
    else if (order == "device" || order.empty()) options.order = sollens::KernelOrder::kStartTimePerDevice;
    else return "{\"error\":\"order is device, stream or file\"}";
    if (mode != "all" && mode != "llm" && mode != "uplifter")
      return "{\"error\":\"mode is all, llm or uplifter\"}";
    drop_tables(cycle_ids_);
    options.llm = mode == "llm";
    options.structure = mode != "uplifter";
    const sollens::CycleReport report = sollens::analyze_cycles(*store_, options);
    std::vector<sollens::Table> tables;
    std::string preambles = "[";
    for (auto& sheet : sollens::cycle_sheets(
             report, mode == "llm" ? sollens::CycleSheetMode::kLlm : sollens::CycleSheetMode::kAll)) {
      preambles += (tables.empty() ? "" : ",") + sollens::json_string(sheet.preamble);
      tables.push_back(std::move(sheet.table));
    }
    return "{\"summary\":" + sollens::json_string(sollens::cycles_summary(report)) +
           ",\"kernels\":" + std::to_string(report.kernels) + ",\"preambles\":" + preambles +
           "],\"sheets\":" + keep_tables(std::move(tables), cycle_ids_) + "}";
  }
  // Numeric columns (int, float, bool) as a Float64Array view (null cells hold 0;
  // see columnValidity). Ints are exact up to 2^53.
  emscripten::val column_numbers(int sheet, int column) {
    Encoded* e = encode(sheet, column);
    if (!e) return emscripten::val::null();
    return emscripten::val(emscripten::typed_memory_view(e->numbers.size(), e->numbers.data()));
  }
  // 1 = value, 0 = null (empty cell), as a Uint8Array view.
  emscripten::val column_validity(int sheet, int column) {
    const sollens::Column* col = find_column(sheet, column);
    if (!col) return emscripten::val::null();
    return emscripten::val(
        emscripten::typed_memory_view(col->validity().size(), col->validity().data()));
  }
  // String columns dictionary-encoded: an Int32Array view of codes (-1 = null) into
  // columnDictionaryJson's array of distinct strings (in first-seen order).
  emscripten::val column_codes(int sheet, int column) {
    Encoded* e = encode(sheet, column);
    if (!e) return emscripten::val::null();
    return emscripten::val(emscripten::typed_memory_view(e->codes.size(), e->codes.data()));
  }
  std::string column_dictionary_json(int sheet, int column) {
    Encoded* e = encode(sheet, column);
    return e ? e->dictionary_json : "[]";
  }
  // One sheet as CSV (TraceLens's formatting) or as JSON rows, as the CLI writes them.
  std::string sheet_csv(int sheet) const {
    const sollens::Table* t = find_sheet(sheet);
    return t ? sollens::to_csv(*t) : "";
  }
  std::string sheet_json(int sheet) const {
    const sollens::Table* t = find_sheet(sheet);
    return t ? sollens::to_json(*t) : "[]";
  }
  // The trace's top-level metadata as the CLI's report.json writes it under
  // metadata.trace (writers/report_json.h), for the page's report export. "{}" before a load.
  std::string trace_metadata_json() const {
    return store_ ? sollens::trace_metadata_json(store_->metadata) : "{}";
  }
  // The device database's names (ids), for a device selector.
  static std::string device_names_json() {
    std::string out = "[";
    for (const auto& d : sollens::device_db())
      out += (out.size() > 1 ? "," : "") + sollens::json_string(d.id);
    return out + "]";
  }
  std::string gpu_timeline_csv() const {
    if (!store_) return "";
    return sollens::to_csv(
        sollens::gpu_timeline_table(sollens::compute_gpu_timeline(*store_, *tree_)));
  }

 private:
  // A column converted for JS once: numbers as doubles, strings as codes + dictionary.
  struct Encoded {
    std::vector<double> numbers;
    std::vector<int32_t> codes;
    std::string dictionary_json = "[]";
  };
  const sollens::Table* find_sheet(int sheet) const {
    auto it = tables_.find(sheet);
    return it == tables_.end() ? nullptr : &it->second;
  }
  const sollens::Column* find_column(int sheet, int column) const {
    const sollens::Table* t = find_sheet(sheet);
    if (!t || column < 0 || static_cast<size_t>(column) >= t->num_columns()) return nullptr;
    return &t->column(static_cast<size_t>(column));
  }
  void drop_tables(std::vector<int32_t>& ids) {
    for (int32_t id : ids) {
      const sollens::Table& t = tables_.at(id);
      for (size_t c = 0; c < t.num_columns(); ++c) encoded_.erase(encoded_key(id, static_cast<int>(c)));
      tables_.erase(id);
    }
    ids.clear();
  }
  // Keeps the tables under fresh ids and describes them as a JSON array.
  std::string keep_tables(std::vector<sollens::Table> tables, std::vector<int32_t>& ids) {
    std::string out = "[";
    for (sollens::Table& table : tables) {
      const int32_t id = next_id_++;
      out += std::string(ids.empty() ? "" : ",") + "{\"id\":" + std::to_string(id) +
             ",\"name\":" + sollens::json_string(table.name()) +
             ",\"rows\":" + std::to_string(table.num_rows()) + ",\"columns\":[";
      for (size_t c = 0; c < table.num_columns(); ++c) {
        const sollens::Column& col = table.column(c);
        static constexpr const char* kTypes[] = {"string", "int", "float", "bool"};
        out += std::string(c ? "," : "") + "{\"name\":" + sollens::json_string(col.name()) +
               ",\"type\":\"" + kTypes[static_cast<int>(col.type())] + "\"}";
      }
      out += "]}";
      ids.push_back(id);
      tables_.emplace(id, std::move(table));
    }
    return out + "]";
  }
  static uint64_t encoded_key(int sheet, int column) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(sheet)) << 32) | static_cast<uint32_t>(column);
  }
  Encoded* encode(int sheet, int column) {
    const sollens::Column* col = find_column(sheet, column);
    if (!col) return nullptr;
    auto [it, fresh] = encoded_.try_emplace(encoded_key(sheet, column));
    Encoded& e = it->second;
    if (!fresh) return &e;
    const size_t n = col->size();
    if (col->type() == sollens::ColumnType::kString) {
      std::unordered_map<std::string_view, int32_t> ids;
      e.codes.resize(n);
      e.dictionary_json = "[";
      for (size_t r = 0; r < n; ++r) {
        if (col->is_null(r)) {
          e.codes[r] = -1;
          continue;
        }
        const std::string& v = col->string_at(r);
        auto [pos, added] = ids.try_emplace(v, static_cast<int32_t>(ids.size()));
        if (added)
          e.dictionary_json += (pos->second ? "," : "") + sollens::json_string(v);
        e.codes[r] = pos->second;
      }
      e.dictionary_json += "]";
    } else {
      e.numbers.resize(n);
      for (size_t r = 0; r < n; ++r)
        e.numbers[r] = col->type() == sollens::ColumnType::kFloat
                           ? col->float_at(r)
                           : static_cast<double>(col->int_at(r));
    }
    return &e;
  }

  std::unordered_map<int32_t, sollens::Table> tables_;  // by id
  std::vector<int32_t> report_ids_, cycle_ids_;
  int32_t next_id_ = 1;
  std::unordered_map<uint64_t, Encoded> encoded_;
  sollens::PaddedBuffer buffer_;
  std::unique_ptr<sollens::EventStore> store_;
  std::unique_ptr<sollens::TraceTree> tree_;
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
      .function("infoJson", &Session::info_json)
      .function("gpuTimelineJson", &Session::gpu_timeline_json)
      .function("eventCount", &Session::event_count)
      .function("warningsJson", &Session::warnings_json)
      .function("gpuTimelineCsv", &Session::gpu_timeline_csv)
      .function("buildReport", &Session::build_report)
      .function("buildCycles", &Session::build_cycles)
      .function("columnNumbers", &Session::column_numbers)
      .function("columnValidity", &Session::column_validity)
      .function("columnCodes", &Session::column_codes)
      .function("columnDictionaryJson", &Session::column_dictionary_json)
      .function("sheetCsv", &Session::sheet_csv)
      .function("sheetJson", &Session::sheet_json)
      .function("traceMetadataJson", &Session::trace_metadata_json)
      .class_function("deviceNamesJson", &Session::device_names_json);
  emscripten::function("version", emscripten::optional_override([] { return std::string("0.1.0"); }));
}
