// Embind surface of the core for the web page: the page writes the trace's bytes
// straight into wasm memory (no whole copy in the JS heap), then asks for results.
#include <emscripten/bind.h>

#include <memory>
#include <string>

#include "analyses/timeline/gpu_timeline.h"
#include "ingest/trace_reader.h"
#include "model/trace_tree.h"
#include "writers/csv_writer.h"

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
  // Parses the filled buffer; returns "" or the error in plain words.
  std::string load() {
    sollens::LoadResult r = sollens::load_trace(std::move(buffer_));
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
      .function("load", &Session::load)
      .function("eventCount", &Session::event_count)
      .function("warningsJson", &Session::warnings_json)
      .function("gpuTimelineCsv", &Session::gpu_timeline_csv);
  emscripten::function("version", emscripten::optional_override([] { return std::string("0.1.0"); }));
}
