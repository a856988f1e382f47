// Embind surface of the core for the web page: the page writes the trace's bytes
// straight into wasm memory (no whole copy in the JS heap), then asks for results.
#include <emscripten/bind.h>

#include <memory>
#include <string>

#include "analyses/info/trace_info.h"
#include "analyses/timeline/gpu_timeline.h"
#include "ingest/trace_reader.h"
#include "model/trace_tree.h"
#include "writers/csv_writer.h"
#include "writers/json_writer.h"
#include "writers/number_format.h"

namespace {

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      continue;
    }
    out += c;
  }
  return out + "\"";
}

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
        out += (out.size() > 1 ? "," : "") + std::string("{\"code\":") + json_string(w.code) +
               ",\"message\":" + json_string(w.message) + "}";
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
  std::string gpu_timeline_csv() const {
    if (!store_) return "";
    return sollens::to_csv(
        sollens::gpu_timeline_table(sollens::compute_gpu_timeline(*store_, *tree_)));
  }

 private:
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
      .function("gpuTimelineCsv", &Session::gpu_timeline_csv);
  emscripten::function("version", emscripten::optional_override([] { return std::string("0.1.0"); }));
}
