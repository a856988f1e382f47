#include "ingest/trace_reader.h"

#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <utility>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "ingest/byte_stream.h"
#include "ingest/event_decoder.h"
#include "ingest/gzip.h"
#include "ingest/gzip_stream.h"
#include "ingest/json_layout.h"
#include "ingest/metadata_reader.h"
#include "ingest/text_repair.h"
#include "base/stopwatch.h"

namespace sollens {
namespace {

namespace jl = json_layout;
using simdjson::error_code;

struct LoadError {
  std::string message;
};

std::string at_byte(size_t offset) { return " (byte " + std::to_string(offset) + ")"; }

// Bytes kept between a window's cut and the last inflated byte while streaming: the
// parser reads up to 64 bytes past a window's end.
constexpr size_t kStreamMargin = PaddedBuffer::kPadding;

// Kineto events take 200 to 450 bytes of JSON: the store's first reservation assumes
// the most, and grows from what the first windows show.
constexpr size_t kBytesPerEventAtMost = 512;

// The args JSON the store keeps, moved out of an input that is not kept whole
// (IngestOptions::compact_input). Grown with realloc: a large block moves by remapping,
// not by copying.
class ArgsArena {
 public:
  ArgsArena() = default;
  ArgsArena(const ArgsArena&) = delete;
  ArgsArena& operator=(const ArgsArena&) = delete;
  ~ArgsArena() { std::free(data_); }

  // Moves the args of rows [from, store.size()) here; their offsets become offsets here.
  void take(EventStore& store, size_t from, const char* input) {
    for (size_t i = from; i < store.size(); ++i) {
      const uint32_t n = store.args_length[i];
      if (n == 0) continue;
      reserve(size_ + n);
      std::memcpy(data_ + size_, input + store.args_offset[i], n);
      store.args_offset[i] = size_;
      size_ += n;
    }
  }

  // Appends `other`, whose args belong to the rows `other_rows` (the second half of a
  // parse in two halves), shifting those rows' offsets to where their bytes land here.
  void absorb(const ArgsArena& other, EventStore& other_rows) {
    for (size_t i = 0; i < other_rows.size(); ++i)
      if (other_rows.args_length[i] != 0) other_rows.args_offset[i] += size_;
    reserve(size_ + other.size_);
    if (other.size_) std::memcpy(data_ + size_, other.data_, other.size_);
    size_ += other.size_;
  }

  // The arena as the store's input, padded as simdjson reads it.
  PaddedBuffer finish() {
    reserve(size_ + PaddedBuffer::kPadding);
    std::memset(data_ + size_, 0, PaddedBuffer::kPadding);
    char* data = std::exchange(data_, nullptr);
    return PaddedBuffer::adopt(data, size_, capacity_, [](char* d, size_t) { std::free(d); });
  }

 private:
  void reserve(size_t need) {
    if (need <= capacity_) return;
    const size_t capacity = std::max(need, capacity_ + capacity_ / 2 + (size_t(1) << 20));
    char* d = static_cast<char*>(std::realloc(data_, capacity));
    if (!d) throw std::bad_alloc();
    data_ = d;
    capacity_ = capacity;
  }

  char* data_ = nullptr;
  size_t size_ = 0, capacity_ = 0;
};

// Cuts traceEvents into windows and decodes each with one reused parser.
class WindowedReader {
 public:
  // Rows go to `store`; `input` is the whole trace text. Parsing stops at the array's
  // ']' or, for the first half of a parallel parse, at the ',' at `stop_at`. With a
  // `stream`, another thread is still writing `input`: windows are parsed as their
  // bytes arrive, and the writer sets the stop when it finishes. With an `arena`, each
  // window's args move there once it is read, and the input it spanned is released
  // (IngestOptions::compact_input).
  WindowedReader(EventStore& store, PaddedBuffer& input, const IngestOptions& options,
                 IngestCounters& counters, size_t stop_at = jl::npos,
                 bool in_parallel_half = false, ByteStream* stream = nullptr, ArgsArena* arena = nullptr)
      : store_(store),
        input_(input),
        options_(options),
        counters_(counters),
        stop_at_(stop_at),
        in_parallel_half_(in_parallel_half),
        stream_(stream),
        rows_at_start_(store.size()),
        arena_(arena),
        decoder_(store, input, counters, arena != nullptr) {}

  // Returns the index of the array's closing ']', or npos when the input ends first.
  size_t run(size_t array_open) {
    // the '[' or ',' just before the next window
    size_t sep = stream_ ? stream_windows(array_open) : array_open;
    released_to_ = array_open + 1;
    const std::string_view text = visible_text();
    while (true) {
      if (sep == stop_at_) return stop_at_;
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
      if (stop_at_ != jl::npos && (cut == jl::npos || cut >= stop_at_)) {
        const Window w = parse_window(sep, stop_at_);
        if (w.ok) return stop_at_;
        return recover(sep);
      }
      const bool last = cut == jl::npos;
      if (last) cut = jl::scan_to_boundary(text, p, jl::npos);
      Window w = cut == jl::npos ? Window{} : parse_window(sep, cut);
      // A guess inside a string or a nested value cannot parse: find the exact cut.
      if (!w.ok && !last) {
        cut = jl::scan_to_boundary(text, p, p + options_.window_bytes);
        if (stop_at_ != jl::npos && (cut == jl::npos || cut > stop_at_)) cut = stop_at_;
        if (cut != jl::npos) w = parse_window(sep, cut);
      }
      if (!w.ok) return recover(sep);
      if (text[cut] == ']') return cut;
      sep = cut;
      reserve_ahead(array_open, sep, text.size());
      release_before(sep);
      report_progress(sep);
    }
  }

  size_t stop_at() const { return stop_at_; }

 private:
  // The input before `offset` (the next window's separator) is not read again.
  void release_before(size_t offset) {
    if (!arena_ || !options_.release_input || offset <= released_to_) return;
    const char* released = options_.release_input(input_.data() + released_to_, input_.data() + offset);
    released_to_ = static_cast<size_t>(released - input_.data());
  }

  // Room for the events still to come (up to `end`), projected from the bytes per
  // event so far, with a tenth to spare: columns left to double as they fill would
  // hold up to twice the memory they need.
  void reserve_ahead(size_t begin, size_t done, size_t end) {
    const size_t rows = store_.size() - rows_at_start_;
    if (rows < 256 || done <= begin) return;
    const double bytes_per_row = double(done - begin) / double(rows);
    const size_t projected =
        store_.size() + static_cast<size_t>(double(end - done) / bytes_per_row * 1.1) + 16;
    if (projected > store_.capacity())
      store_.reserve(std::max(projected, store_.capacity() + store_.capacity() / 4));
  }

  // While the writer is still at work: windows of events as their bytes arrive, each
  // claimed first so that the writer, finishing, splits off only events not begun.
  // Anything unusual (an empty element, the array's end, a window that does not
  // parse) waits for the whole text and is left to run()'s loop. Returns the
  // separator reached; stop_at_ is then the writer's choice.
  size_t stream_windows(size_t sep) {
    const size_t window = options_.window_bytes;
    size_t want = sep + 2 * window + kStreamMargin;
    while (true) {
      const ByteStream::State state = stream_->wait_for(want);
      if (state.finished) break;
      const std::string_view text(input_.data(), state.ready - kStreamMargin);
      const size_t p = jl::skip_ws(text, sep + 1);
      if (p >= text.size() || text[p] != '{') break;
      size_t cut = jl::next_event_boundary(text, p + window);
      if (cut == jl::npos) {  // one event longer than the bytes there: wait for more
        want = state.ready + window;
        continue;
      }
      if (!stream_->claim(cut)) break;
      Window w = parse_window(sep, cut);
      if (!w.ok) {  // a guess inside a string or a nested value
        cut = jl::scan_to_boundary(text, p, p + window);
        if (cut == jl::npos || text[cut] != ',' || !stream_->claim(cut)) break;
        if (!parse_window(sep, cut).ok) break;
      }
      sep = cut;
      want = sep + 2 * window + kStreamMargin;
    }
    stop_at_ = stream_->wait_finished().stop;
    return sep;
  }

  // The first half of a parallel parse sees nothing past its split, so that no scan
  // reads bytes the other half may be writing.
  // Repairs change the input for good: only the one-pass parse may make them (a half
  // that needs one fails, and the whole file is parsed again in one pass).
  bool repairs_allowed() const { return !in_parallel_half_; }

  std::string_view visible_text() const {
    const std::string_view all = input_.view();
    return stop_at_ == jl::npos ? all : all.substr(0, stop_at_ + 1);
  }

  struct Window {
    bool ok = false;
    error_code error = simdjson::SUCCESS;
  };

  void report_progress(size_t offset) {
    if (options_.progress && !options_.progress(offset, store_.size())) throw Cancelled{};
  }

  // Parses [sep, cut] as an array: '[' is written at sep and ']' at cut (or the
  // window runs to the end of the input when cut is npos), then both are restored.
  Window parse_window(size_t sep, size_t cut, bool close_at_end = false) {
    char* d = input_.data();
    const size_t n = input_.size();
    const size_t rows_before = store_.size();
    const IngestCounters counters_before = counters_;
    size_t end = cut == jl::npos ? n : cut + 1;
    const char saved_sep = d[sep];
    const char saved_pad = close_at_end ? d[n] : 0;  // padding byte, written only then
    const bool cut_is_comma = cut != jl::npos && d[cut] == ',';
    const bool write_sep = d[sep] != '[';  // a '[' already there is left alone (see below)
    if (write_sep) d[sep] = '[';
    if (cut_is_comma) d[cut] = ']';
    if (close_at_end) {
      d[n] = ']';
      end = n + 1;
    }
    Window w = decode(sep, end);
    if (!w.ok && repairs_allowed() &&
        (w.error == simdjson::UTF8_ERROR || w.error == simdjson::UNESCAPED_CHARS)) {
      store_.truncate(rows_before);
      const size_t inner_end = cut == jl::npos ? n : cut;
      counters_.utf8_repairs += repair_invalid_utf8(d + sep + 1, inner_end - sep - 1);
      counters_.control_repairs += repair_control_characters(d + sep + 1, inner_end - sep - 1);
      w = decode(sep, end);
    }
    if (write_sep) d[sep] = saved_sep;
    if (cut_is_comma) d[cut] = ',';
    if (close_at_end) d[n] = saved_pad;
    if (w.ok && arena_) {
      arena_->take(store_, compacted_rows_, d);
      compacted_rows_ = store_.size();
    }
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
    char* d = input_.data();
    const size_t capacity = input_.capacity() - begin;
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
    const std::string_view text = visible_text();
    while (true) {
      if (sep == stop_at_) return stop_at_;
      if (stop_at_ != jl::npos && sep > stop_at_) throw SplitMissed{};
      size_t p = jl::skip_ws(text, sep + 1);
      if (p >= text.size()) return jl::npos;
      if (text[p] == ']') return p;
      if (text[p] == ',') {
        ++counters_.empty_elements;
        sep = p;
        continue;
      }
      const size_t cut = jl::scan_to_boundary(text, p, p);
      if (stop_at_ != jl::npos && (cut == jl::npos || cut > stop_at_)) throw SplitMissed{};
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
      release_before(sep);
    }
  }

 public:
  struct Cancelled {};
  struct SplitMissed {};  // a parallel split point that was not between two events

 private:
  EventStore& store_;
  PaddedBuffer& input_;
  const IngestOptions& options_;
  IngestCounters& counters_;
  size_t stop_at_;
  const bool in_parallel_half_;
  ByteStream* const stream_;
  const size_t rows_at_start_;
  ArgsArena* arena_;
  size_t compacted_rows_ = 0;  // rows whose args are in the arena
  size_t released_to_ = 0;     // the input before this offset was released
  EventDecoder decoder_;
  simdjson::ondemand::parser parser_;
};

std::string describe_start(std::string_view text, size_t p) {
  unsigned char c = static_cast<unsigned char>(text[p]);
  if (text.substr(p, 2) == "PK") return "a zip archive";
  if (c < 0x20 || c >= 0x80)
    return "binary data (byte 0x" + [&] {
      const char* hex = "0123456789abcdef";
      return std::string{hex[c >> 4], hex[c & 15]};
    }() + ")";
  return std::string("'") + static_cast<char>(c) + "'";
}

// Appends `part`'s rows to `store`, re-interning its strings into store's pool.
void append_part(EventStore& store, EventStore&& part) {
  const char* begin = store.input.data();
  const char* end = begin + store.input.capacity();
  std::vector<StrId> remap(part.strings.size());
  for (StrId id = 0; id < part.strings.size(); ++id) {
    const std::string_view v = part.strings.view(id);
    const bool in_input = v.data() >= begin && v.data() < end;  // else owned by part's pool
    remap[id] = in_input ? store.strings.intern_stable(v) : store.strings.intern(v);
  }
  store.append_rows(std::move(part), remap);
}

void add_counts(IngestCounters& to, const IngestCounters& from) {
  to.non_object += from.non_object;
  to.empty_objects += from.empty_objects;
  to.empty_elements += from.empty_elements;
  to.bad_numbers += from.bad_numbers;
  to.huge_durations += from.huge_durations;
  to.utf8_repairs += from.utf8_repairs;
  to.control_repairs += from.control_repairs;
  to.truncated_at = from.truncated_at;
  to.missing_close_bracket = from.missing_close_bracket;
}

// Where to split the events after `from` in two for two threads: the ',' of a
// "},<whitespace with a newline>{" near the middle of the rest, or npos. JSON strings
// cannot hold a raw newline, so in a valid trace that is always between two events
// (Kineto writes one event per line; minified traces are parsed in one pass). The
// first half writes ']' at the ',', the second '[' at the whitespace after it.
size_t find_split(std::string_view text, size_t from, const IngestOptions& options) {
  if (options.threads < 2 || options.progress || text.size() - from < options.parallel_min_bytes)
    return jl::npos;
  auto good_split = [&](size_t comma) {
    size_t q = comma + 1;
    bool newline = false;
    while (q < text.size() && jl::is_ws(text[q])) newline |= text[q++] == '\n';
    return newline && q < text.size() && text[q] == '{';
  };
  size_t split = jl::next_event_boundary(text, from + (text.size() - from) / 2);
  for (int tries = 0; split != jl::npos && !good_split(split); ++tries)
    split = tries < 256 ? jl::next_event_boundary(text, split + 1) : jl::npos;
  return split;
}

// Whether a half parsed cleanly: no truncation, nothing missing.
bool clean(const IngestCounters& c) {
  return c.truncated_at == jl::npos && !c.missing_close_bracket;
}

// Large inputs on several cores: the events array is split near its middle and the
// halves are parsed at once, each with its own parser and string pool. Returns false
// (nothing changed in `store`) whenever the split cannot be trusted — a split inside
// a string, a truncated or broken file — and the caller parses sequentially, which
// gives the exact messages.
bool parse_in_two_halves(EventStore& store, const IngestOptions& options, size_t array_open,
                         IngestCounters& counters, size_t& array_close, std::optional<ArgsArena>& arena) {
  const std::string_view text = store.input.view();
  const size_t split = find_split(text, array_open, options);
  if (split == jl::npos) return false;

  EventStore second;
  second.reserve((text.size() - split) / kBytesPerEventAtMost + 16);  // as parse_text does
  std::optional<ArgsArena> second_arena;
  if (arena) second_arena.emplace();
  IngestCounters first_counts, second_counts;
  bool first_ok = false, second_ok = false;
  size_t second_close = jl::npos;
  // The '[' of the second half is written here, before either half starts, and the
  // second half leaves it in place: no byte is written while the other half may read it.
  char* d = store.input.data();
  const char saved = d[split + 1];
  d[split + 1] = '[';
  struct Restore {
    char* at;
    char value;
    ~Restore() { *at = value; }
  } restore{d + split + 1, saved};
  std::thread worker;
  try {
    worker = std::thread([&] {
      try {
        WindowedReader reader(second, store.input, options, second_counts, jl::npos, true, nullptr,
                              second_arena ? &*second_arena : nullptr);
        second_close = reader.run(split + 1);
        second_ok = clean(second_counts);
      } catch (...) {
      }
    });
  } catch (const std::system_error&) {
    return false;  // no threads here (a WebAssembly build without pthreads)
  }
  try {
    WindowedReader reader(store, store.input, options, first_counts, split, true, nullptr, arena ? &*arena : nullptr);
    first_ok = reader.run(array_open) == split && first_counts.truncated_at == jl::npos;
  } catch (...) {
  }
  worker.join();
  if (!first_ok || !second_ok) {
    store.truncate(0);
    if (arena) arena.emplace();  // the one-pass parse starts over
    return false;
  }
  if (arena) arena->absorb(*second_arena, second);
  append_part(store, std::move(second));
  counters = first_counts;
  add_counts(counters, second_counts);
  array_close = second_close;
  store.parse_threads = 2;
  return true;
}

void add_warnings(EventStore& store, const IngestCounters& c, size_t array_close, bool array_form) {
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
    warn("bad_numbers",
         std::to_string(c.bad_numbers) + " ts/dur values are not numbers; they were read as 0");
  if (c.utf8_repairs)
    warn("invalid_utf8",
         std::to_string(c.utf8_repairs) + " bytes of invalid UTF-8 were replaced by '?' in names");
  if (c.control_repairs)
    warn("control_characters",
         std::to_string(c.control_repairs) +
             " raw control characters inside strings were replaced by spaces");
  if (c.huge_durations)
    warn("huge_durations", std::to_string(c.huge_durations) +
                               " events last longer than 7 days (CUPTI timestamp overflow?); "
                               "kept as written");
}

struct EventsArray {
  size_t object_open;  // the top-level '{' (or the array's '[' in the legacy form)
  size_t array_open;
};

// Finds the events array in `text`: nullopt for an Execution Trace (the store says
// so), an error where there is none.
std::optional<EventsArray> locate_events(EventStore& store, std::string_view text) {
  size_t p = 0;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") p = 3;  // UTF-8 byte order mark
  p = jl::skip_ws(text, p);
  if (p >= text.size()) throw LoadError{"the file holds only whitespace"};
  if (text[p] == '[') {
    store.metadata.top_level_array = true;
    return EventsArray{p, p};
  }
  if (text[p] != '{')
    throw LoadError{"not JSON: the file starts with " + describe_start(text, p) + at_byte(p) +
                    "; expected a Kineto trace (.json or .json.gz)"};
  auto member = jl::find_member(text, p, "traceEvents");
  if (!member && jl::find_member(text, p, "nodes") && jl::find_member(text, p, "schema")) {
    // A PyTorch Execution Trace: an operator graph without timings. It is a
    // trace users have, so it loads, empty, with a word on what to open instead.
    store.metadata.execution_trace = true;
    store.warnings.push_back(
        {"execution_trace",
         "this is a PyTorch Execution Trace (operator graph, no timings): it has no "
         "profiler events; open the Kineto trace recorded with it for timing analysis, or "
         "run `sollens solar` on it for its graph speed of light"});
    return std::nullopt;
  }
  if (!member)
    throw LoadError{
        "no \"traceEvents\" array in the top-level object: this JSON is not a Chrome/Kineto "
        "trace (or it is cut short before its events)"};
  if (member->value_begin >= text.size() || text[member->value_begin] != '[')
    throw LoadError{"\"traceEvents\" is not an array" + at_byte(member->value_begin)};
  store.metadata.has_trace_events_key = true;
  return EventsArray{p, member->value_begin};
}

// The members around the events, then the warnings.
void finish_store(EventStore& store, const EventsArray& events, size_t array_close,
                  const IngestCounters& counters) {
  if (!store.metadata.top_level_array)
    read_metadata(store, events.object_open, events.array_open, array_close);
  add_warnings(store, counters, array_close, store.metadata.top_level_array);
}

// A trace whose whole text is in store.input.
void parse_text(EventStore& store, const IngestOptions& options) {
  store.input_bytes = store.input.size();
  const std::string_view text = store.input.view();
  const std::optional<EventsArray> events = locate_events(store, text);
  if (!events) return;
  // A first guess; the reader reserves for the rest as it learns the bytes per event.
  store.reserve(text.size() / kBytesPerEventAtMost + 16);
  IngestCounters counters;
  size_t array_close = jl::npos;
  std::optional<ArgsArena> arena;
  if (options.compact_input) arena.emplace();
  // The caller's release_input is for its own bytes, not for a decompressed copy.
  IngestOptions parse_options = options;
  if (store.compressed_bytes) parse_options.release_input = nullptr;
  if (!parse_in_two_halves(store, parse_options, events->array_open, counters, array_close, arena)) {
    counters = IngestCounters{};
    WindowedReader reader(store, store.input, parse_options, counters, jl::npos, false, nullptr,
                          arena ? &*arena : nullptr);
    array_close = reader.run(events->array_open);
  }
  finish_store(store, *events, array_close, counters);
  if (arena) store.input = arena->finish();  // the whole input is freed here
}

// The first bytes inflated, enough to find the events array in a Kineto trace.
constexpr size_t kHeadBytes = size_t(64) << 10;

// gzip on two cores: one thread inflates while this one parses the events as they
// arrive; once the inflate is done, that thread takes the second half of the events
// not yet begun. Whatever does not go cleanly (a truncated or broken file, the array
// not in the first bytes) is parsed again from the whole text, as without streaming,
// which gives the exact messages. False when streaming is not possible here.
bool parse_while_inflating(EventStore& store, std::string_view compressed,
                           const IngestOptions& options) {
  // A compacted input is parsed from the whole text (the arena follows one reader).
  if (options.threads < 2 || options.progress || options.compact_input || !streamed_gunzip_available())
    return false;
  StreamedGunzip gunzip(compressed, store.input);
  EventStore second;
  IngestCounters second_counts;
  bool second_ok = false;
  size_t second_close = jl::npos;
  char saved_after_stop = 0;
  const auto choose_stop = [&](size_t claimed, std::string_view text) {
    // Nothing claimed: the parser has not found the events yet and will split itself.
    const size_t stop = claimed == 0 ? jl::npos : find_split(text, claimed, options);
    if (stop != jl::npos) {  // the second half's '[', written before the first half can read it
      saved_after_stop = text[stop + 1];
      store.input.data()[stop + 1] = '[';
    }
    return stop;
  };
  const auto parse_second_half = [&](size_t stop) {
    try {
      second.reserve((store.input.size() - stop) / kBytesPerEventAtMost + 16);
      WindowedReader reader(second, store.input, options, second_counts, jl::npos, true);
      second_close = reader.run(stop + 1);
      second_ok = clean(second_counts);
    } catch (...) {
    }
  };
  if (!gunzip.start(choose_stop, parse_second_half)) return false;

  ByteStream& stream = gunzip.stream();
  std::optional<EventsArray> events;
  const ByteStream::State head = stream.wait_for(kHeadBytes);
  if (!head.finished) {
    EventStore probe;
    try {
      events = locate_events(probe, std::string_view(store.input.data(), head.ready));
    } catch (const LoadError&) {
    }
  }
  IngestCounters counters;
  size_t first_end = jl::npos, stop = jl::npos;
  bool first_ok = false;
  if (events && stream.claim(events->array_open)) {
    const size_t hint = Inflater::size_hint(compressed);
    store.reserve((hint ? hint : compressed.size() * 8) / kBytesPerEventAtMost + 16);
    try {
      WindowedReader reader(store, store.input, options, counters, jl::npos, true, &stream);
      first_end = reader.run(events->array_open);
      stop = reader.stop_at();
      first_ok = clean(counters) && first_end != jl::npos && (stop == jl::npos || first_end == stop);
    } catch (...) {
    }
  }
  gunzip.join();
  if (stop != jl::npos) store.input.data()[stop + 1] = saved_after_stop;
  store.inflate_ms = gunzip.inflate_ms();
  store.inflated_beside_parse = true;
  if (!gunzip.error().empty()) throw LoadError{gunzip.error()};
  if (gunzip.truncated())
    store.warnings.push_back({"gzip_truncated", "the gzip stream ends early: the file is cut short"});
  if (store.input.empty()) throw LoadError{"the gzip file decompresses to nothing"};
  if (first_ok && (stop == jl::npos || second_ok)) {
    store.input_bytes = store.input.size();
    events = locate_events(store, store.input.view());  // the same, on the whole text
    size_t array_close = first_end;
    if (stop != jl::npos) {
      append_part(store, std::move(second));
      add_counts(counters, second_counts);
      array_close = second_close;
      store.parse_threads = 2;
    }
    finish_store(store, *events, array_close, counters);
    return true;
  }
  store.truncate(0);
  parse_text(store, options);
  return true;
}

}  // namespace

LoadResult load_trace(PaddedBuffer bytes, const IngestOptions& options) {
  LoadResult result;
  try {
    if (bytes.empty()) throw LoadError{"the file is empty"};
    auto store = std::make_unique<EventStore>();
    if (!looks_like_gzip(bytes.view())) {
      store->input = std::move(bytes);
      parse_text(*store, options);
    } else {
      store->compressed_bytes = bytes.size();
      if (!parse_while_inflating(*store, bytes.view(), options)) {
        const auto t0 = std::chrono::steady_clock::now();
        GunzipResult unzipped = gunzip(bytes.view());
        store->inflate_ms = ms_since(t0);
        if (!unzipped.error.empty()) throw LoadError{unzipped.error};
        if (unzipped.truncated)
          store->warnings.push_back(
              {"gzip_truncated", "the gzip stream ends early: the file is cut short"});
        store->input = std::move(unzipped.data);
        if (store->input.empty()) throw LoadError{"the gzip file decompresses to nothing"};
        parse_text(*store, options);
      }
    }
    if (options.progress) options.progress(store->input.size(), store->size());
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
