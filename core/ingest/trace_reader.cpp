#include "ingest/trace_reader.h"

#include <simdjson.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "ingest/event_decoder.h"
#include "ingest/gzip.h"
#include "ingest/json_layout.h"
#include "ingest/metadata_reader.h"
#include "ingest/text_repair.h"

namespace sollens {
namespace {

namespace jl = json_layout;
using simdjson::error_code;

struct LoadError {
  std::string message;
};

std::string at_byte(size_t offset) { return " (byte " + std::to_string(offset) + ")"; }

// Cuts traceEvents into windows and decodes each with one reused parser.
class WindowedReader {
 public:
  WindowedReader(EventStore& store, const IngestOptions& options, IngestCounters& counters)
      : store_(store), options_(options), counters_(counters), decoder_(store, counters) {}

  // Returns the index of the array's closing ']', or npos when the input ends first.
  size_t run(size_t array_open) {
    const std::string_view text = store_.input.view();
    size_t sep = array_open;  // the '[' or ',' just before the next window
    while (true) {
      size_t p = jl::skip_ws(text, sep + 1);
      if (p >= text.size()) return jl::npos;
      if (text[p] == ']') return p;
      if (text[p] == ',') {  // an empty element (",,") carries nothing
        ++counters_.empty_elements;
        sep = p;
        continue;
      }
      // Fast guess: the first "}," past the window size. The last window is found
      // exactly, so that what follows the array never enters the parse.
      size_t cut = jl::next_event_boundary(text, p + options_.window_bytes);
      const bool last = cut == jl::npos;
      if (last) cut = jl::scan_to_boundary(text, p, jl::npos);
      Window w = cut == jl::npos ? Window{} : parse_window(sep, cut);
      // A guess inside a string or a nested value cannot parse: find the exact cut.
      if (!w.ok && !last) {
        cut = jl::scan_to_boundary(text, p, p + options_.window_bytes);
        if (cut != jl::npos) w = parse_window(sep, cut);
      }
      if (!w.ok) return recover(sep);
      if (text[cut] == ']') return cut;
      sep = cut;
      report_progress(sep);
    }
  }

 private:
  struct Window {
    bool ok = false;
    error_code error = simdjson::SUCCESS;
  };

  void report_progress(size_t offset) {
    if (options_.progress && !options_.progress(offset, store_.size()))
      throw Cancelled{};
  }

  // Parses [sep, cut] as an array: '[' is written at sep and ']' at cut (or the
  // window runs to the end of the input when cut is npos), then both are restored.
  Window parse_window(size_t sep, size_t cut, bool close_at_end = false) {
    char* d = store_.input.data();
    const size_t n = store_.input.size();
    const size_t rows_before = store_.size();
    const IngestCounters counters_before = counters_;
    size_t end = cut == jl::npos ? n : cut + 1;
    const char saved_sep = d[sep];
    const char saved_pad = d[n];  // padding byte, overwritten only with close_at_end
    const bool cut_is_comma = cut != jl::npos && d[cut] == ',';
    d[sep] = '[';
    if (cut_is_comma) d[cut] = ']';
    if (close_at_end) {
      d[n] = ']';
      end = n + 1;
    }
    Window w = decode(sep, end);
    if (!w.ok && (w.error == simdjson::UTF8_ERROR || w.error == simdjson::UNESCAPED_CHARS)) {
      store_.truncate(rows_before);
      const size_t inner_end = cut == jl::npos ? n : cut;
      counters_.utf8_repairs += repair_invalid_utf8(d + sep + 1, inner_end - sep - 1);
      counters_.control_repairs += repair_control_characters(d + sep + 1, inner_end - sep - 1);
      w = decode(sep, end);
    }
    d[sep] = saved_sep;
    if (cut_is_comma) d[cut] = ',';
    if (close_at_end) d[n] = saved_pad;
    if (!w.ok) {
      store_.truncate(rows_before);
      // Repairs changed the buffer for good; every other count is redone by the retry.
      const size_t utf8 = counters_.utf8_repairs, control = counters_.control_repairs;
      counters_ = counters_before;
      counters_.utf8_repairs = utf8;
      counters_.control_repairs = control;
    }
    return w;
  }

  Window decode(size_t begin, size_t end) {
    Window w;
    char* d = store_.input.data();
    const size_t capacity = store_.input.capacity() - begin;
    simdjson::ondemand::document doc;
    w.error = parser_.iterate(d + begin, end - begin, capacity).get(doc);
    if (w.error) return w;
    simdjson::ondemand::array array;
    if ((w.error = doc.get_array().get(array))) return w;
    for (auto element : array) {
      simdjson::ondemand::value value;
      if ((w.error = element.get(value))) return w;
      if ((w.error = decoder_.decode(value, doc))) return w;
    }
    // A guessed cut past the end of traceEvents leaves other members after the ']'
    // that iteration stopped at: not a window of events.
    if (!doc.at_end()) {
      w.error = simdjson::TRAILING_CONTENT;
      return w;
    }
    w.ok = true;
    return w;
  }

  // Slow path after a window failed: one event at a time, each cut found exactly,
  // to keep everything before a truncation and to name the byte where the JSON is
  // broken.
  size_t recover(size_t sep) {
    const std::string_view text = store_.input.view();
    while (true) {
      size_t p = jl::skip_ws(text, sep + 1);
      if (p >= text.size()) return jl::npos;
      if (text[p] == ']') return p;
      if (text[p] == ',') {
        ++counters_.empty_elements;
        sep = p;
        continue;
      }
      const size_t cut = jl::scan_to_boundary(text, p, p);
      if (cut == jl::npos) {
        // The input ends in or after this event: complete, missing only the ']'?
        if (parse_window(sep, jl::npos, /*close_at_end=*/true).ok) {
          counters_.missing_close_bracket = true;
          return jl::npos;
        }
        // Truncated, or broken JSON (an unescaped quote, say) that misled the scan
        // to the end: well-formed events closing the array after the next "},"
        // mean the file goes on, and the event at p is broken.
        const size_t next = jl::next_event_boundary(text, p);
        if (next != jl::npos) {
          const size_t close = jl::scan_to_boundary(text, jl::skip_ws(text, next + 1), jl::npos);
          if (close != jl::npos && text[close] == ']')
            throw LoadError{"invalid JSON in traceEvents: the event starting here is malformed" +
                            at_byte(p)};
        }
        counters_.truncated_at = p;
        return jl::npos;
      }
      const Window w = parse_window(sep, cut);
      if (!w.ok)
        throw LoadError{std::string("invalid JSON in traceEvents: ") +
                        simdjson::error_message(w.error) + at_byte(p)};
      if (text[cut] == ']') return cut;
      sep = cut;
    }
  }

 public:
  struct Cancelled {};

 private:
  EventStore& store_;
  const IngestOptions& options_;
  IngestCounters& counters_;
  EventDecoder decoder_;
  simdjson::ondemand::parser parser_;
};

std::string describe_start(std::string_view text, size_t p) {
  unsigned char c = static_cast<unsigned char>(text[p]);
  if (text.substr(p, 2) == "PK") return "a zip archive";
  if (c < 0x20 || c >= 0x80) return "binary data (byte 0x" + [&] {
    const char* hex = "0123456789abcdef";
    return std::string{hex[c >> 4], hex[c & 15]};
  }() + ")";
  return std::string("'") + static_cast<char>(c) + "'";
}

void add_warnings(EventStore& store, const IngestCounters& c, size_t array_close,
                  bool array_form) {
  auto warn = [&](std::string code, std::string message) {
    store.warnings.push_back({std::move(code), std::move(message)});
  };
  if (c.truncated_at != jl::npos)
    warn("truncated", "the trace ends inside an event" + at_byte(c.truncated_at) +
                          ": it is truncated; the " + std::to_string(store.size()) +
                          " events before that point were read");
  else if (c.missing_close_bracket || (array_close == jl::npos && !store.metadata.top_level_array))
    warn("unclosed_array",
         "traceEvents has no closing ']': the file may be cut short; every complete event was "
         "read");
  else if (array_close == jl::npos && array_form)
    warn("unclosed_array", "the events array has no closing ']'; every complete event was read");
  if (c.non_object)
    warn("non_object_events", std::to_string(c.non_object) +
                                  " elements of traceEvents are not objects and were skipped");
  if (c.empty_objects)
    warn("empty_events", std::to_string(c.empty_objects) + " empty {} events were skipped");
  if (c.empty_elements)
    warn("empty_elements", std::to_string(c.empty_elements) + " empty array elements (,,)");
  if (c.bad_numbers)
    warn("bad_numbers", std::to_string(c.bad_numbers) +
                            " ts/dur values are not numbers; they were read as 0");
  if (c.utf8_repairs)
    warn("invalid_utf8", std::to_string(c.utf8_repairs) +
                             " bytes of invalid UTF-8 were replaced by '?' in names");
  if (c.control_repairs)
    warn("control_characters",
         std::to_string(c.control_repairs) +
             " raw control characters inside strings were replaced by spaces");
  if (c.huge_durations)
    warn("huge_durations", std::to_string(c.huge_durations) +
                               " events last longer than 7 days (CUPTI timestamp overflow?); "
                               "kept as written");
}

}  // namespace

LoadResult load_trace(PaddedBuffer bytes, const IngestOptions& options) {
  LoadResult result;
  try {
    if (bytes.empty()) throw LoadError{"the file is empty"};
    auto store = std::make_unique<EventStore>();
    if (looks_like_gzip(bytes.view())) {
      store->compressed_bytes = bytes.size();
      GunzipResult unzipped = gunzip(bytes.view());
      if (!unzipped.error.empty()) throw LoadError{unzipped.error};
      if (unzipped.truncated)
        store->warnings.push_back(
            {"gzip_truncated", "the gzip stream ends early: the file is cut short"});
      bytes = std::move(unzipped.data);
      if (bytes.empty()) throw LoadError{"the gzip file decompresses to nothing"};
    }
    store->input = std::move(bytes);
    store->input_bytes = store->input.size();
    const std::string_view text = store->input.view();

    size_t p = 0;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") p = 3;  // UTF-8 byte order mark
    p = jl::skip_ws(text, p);
    if (p >= text.size()) throw LoadError{"the file holds only whitespace"};

    size_t array_open;
    if (text[p] == '[') {
      store->metadata.top_level_array = true;
      array_open = p;
    } else if (text[p] == '{') {
      auto member = jl::find_member(text, p, "traceEvents");
      if (!member && jl::find_member(text, p, "nodes") && jl::find_member(text, p, "schema")) {
        // A PyTorch Execution Trace: an operator graph without timings. It is a
        // trace users have, so it loads, empty, with a word on what to open instead.
        store->metadata.execution_trace = true;
        store->warnings.push_back(
            {"execution_trace",
             "this is a PyTorch Execution Trace (operator graph, no timings): it has no "
             "profiler events; open the Kineto trace recorded with it for timing analysis"});
        result.store = std::move(store);
        return result;
      }
      if (!member)
        throw LoadError{
            "no \"traceEvents\" array in the top-level object: this JSON is not a Chrome/Kineto "
            "trace (or it is cut short before its events)"};
      if (member->value_begin >= text.size() || text[member->value_begin] != '[')
        throw LoadError{"\"traceEvents\" is not an array" + at_byte(member->value_begin)};
      store->metadata.has_trace_events_key = true;
      array_open = member->value_begin;
    } else {
      throw LoadError{"not JSON: the file starts with " + describe_start(text, p) + at_byte(p) +
                      "; expected a Kineto trace (.json or .json.gz)"};
    }

    // Rough count for reservation: Kineto events average a few hundred bytes.
    store->reserve(text.size() / 320 + 16);
    IngestCounters counters;
    WindowedReader reader(*store, options, counters);
    size_t array_close = reader.run(array_open);

    if (!store->metadata.top_level_array)
      read_metadata(*store, p, array_open, array_close);
    add_warnings(*store, counters, array_close, store->metadata.top_level_array);
    if (options.progress) options.progress(text.size(), store->size());
    result.store = std::move(store);
  } catch (const LoadError& e) {
    result.error = e.message;
  } catch (const WindowedReader::Cancelled&) {
    result.cancelled = true;
    result.error = "loading was cancelled";
  } catch (const std::bad_alloc&) {
    result.error = "out of memory while reading the trace";
  }
  return result;
}

}  // namespace sollens
