#include "ingest/trace_reader.h"

#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <optional>
#include <utility>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "ingest/byte_stream.h"
#include "ingest/cut_short.h"
#include "ingest/event_decoder.h"
#include "ingest/gzip.h"
#include "ingest/gzip_stream.h"
#include "ingest/json_layout.h"
#include "ingest/trace_layout.h"
#include "ingest/window_parser.h"
#include "base/stopwatch.h"

namespace sollens {
namespace {

namespace jl = json_layout;

// Bytes kept between a window's cut and the last inflated byte while streaming: the
// parser reads up to 64 bytes past a window's end.
constexpr size_t kStreamMargin = PaddedBuffer::kPadding;

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
        stream_(stream),
        rows_at_start_(store.size()),
        arena_(arena),
        // Repairs change the input for good: only the one-pass parse may make them (a
        // half that needs one fails, and the whole file is parsed again in one pass).
        window_parser_(store, input, counters, /*repairs_allowed=*/!in_parallel_half, arena) {}

  // Returns the index of the array's closing ']', or npos when the input ends first;
  // the error when the JSON is broken, the load was cancelled (Code::cancelled) or, in
  // a parallel half, the split was not between two events.
  Result<size_t> run(size_t array_open) {
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
      if (!progress_allows(sep)) return Status(Code::cancelled, "loading was cancelled");
    }
  }

  size_t stop_at() const { return stop_at_; }

  // The text's final size where it is known up front (a gzip trailer's; a whole text):
  // the columns are then reserved for every event to come with room to spare, instead
  // of growing, and being copied, as the events arrive (reserve_ahead).
  void expect_input_size(size_t bytes) { expected_input_size_ = bytes; }

 private:
  // The input before `offset` (the next window's separator) is not read again.
  void release_before(size_t offset) {
    if (!arena_ || !options_.release_input || offset <= released_to_) return;
    const char* released = options_.release_input(input_.data() + released_to_, input_.data() + offset);
    released_to_ = static_cast<size_t>(released - input_.data());
  }

  // Room for the events still to come (up to `end`), projected from the bytes per
  // event so far, with a tenth to spare: columns left to double as they fill would
  // hold up to twice the memory they need. Where the text's final size is known up
  // front (native gzip streamed, a parallel second half), half to spare: a trace's
  // first events are often longer than the rest (owlv2: 530 bytes each in its first
  // half, 420 overall), and growing the columns later copies every row; room never
  // written stays address space.
  void reserve_ahead(size_t begin, size_t done, size_t end) {
    const size_t rows = store_.size() - rows_at_start_;
    if (rows < 256 || done <= begin) return;
    const double bytes_per_row = double(done - begin) / double(rows);
    const double spare = expected_input_size_ ? 1.5 : 1.1;
    const size_t projected =
        store_.size() + static_cast<size_t>(double(end - done) / bytes_per_row * spare) + 16;
    if (projected > store_.capacity())
      store_.reserve(std::max(projected, store_.capacity() + store_.capacity() / 4));
  }

  // While the writer is still at work: windows of events as their bytes arrive, each
  // claimed first so that the writer, finishing, splits off only events not begun.
  // Anything unusual (an empty element, the array's end, a window that does not
  // parse) waits for the whole text and is left to run()'s loop. Returns the
  // separator reached; stop_at_ is then the writer's choice.
  size_t stream_windows(size_t sep) {
    const size_t first_sep = sep;
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
      reserve_ahead(first_sep, sep, std::max(expected_input_size_, state.ready));
    }
    stop_at_ = stream_->wait_finished().stop;
    return sep;
  }

  // The first half of a parallel parse sees nothing past its split, so that no scan
  // reads bytes the other half may be writing.
  std::string_view visible_text() const {
    const std::string_view all = input_.view();
    return stop_at_ == jl::npos ? all : all.substr(0, stop_at_ + 1);
  }

  using Window = WindowParser::Result;

  // False when the caller's progress callback asks to cancel.
  bool progress_allows(size_t offset) const {
    return !options_.progress || options_.progress(offset, store_.size());
  }

  // Only a parallel half meets this; its caller then parses the whole text in one pass.
  static Status split_missed() {
    return Status(Code::internal_error, "a parallel split point was not between two events");
  }

  Window parse_window(size_t sep, size_t cut, bool close_at_end = false) {
    return window_parser_.parse(sep, cut, close_at_end);
  }

  // Slow path after a window failed: one event at a time, each cut found exactly,
  // to keep everything before a truncation and to name the byte where the JSON is
  // broken.
  Result<size_t> recover(size_t sep) {
    const std::string_view text = visible_text();
    while (true) {
      if (sep == stop_at_) return stop_at_;
      if (stop_at_ != jl::npos && sep > stop_at_) return split_missed();
      size_t p = jl::skip_ws(text, sep + 1);
      if (p >= text.size()) return jl::npos;
      if (text[p] == ']') return p;
      if (text[p] == ',') {
        ++counters_.empty_elements;
        sep = p;
        continue;
      }
      const size_t cut = jl::scan_to_boundary(text, p, p);
      if (stop_at_ != jl::npos && (cut == jl::npos || cut > stop_at_)) return split_missed();
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
            return Status(Code::invalid_json,
                          "invalid JSON in traceEvents: the event starting here is malformed" + at_byte(p));
        }
        counters_.truncated_at = p;
        return jl::npos;
      }
      const Window w = parse_window(sep, cut);
      if (!w.ok)
        return Status(Code::invalid_json, std::string("invalid JSON in traceEvents: ") +
                                              simdjson::error_message(w.error) + at_byte(p));
      if (text[cut] == ']') return cut;
      sep = cut;
      release_before(sep);
    }
  }

 private:
  EventStore& store_;
  PaddedBuffer& input_;
  const IngestOptions& options_;
  IngestCounters& counters_;
  size_t stop_at_;
  ByteStream* const stream_;
  const size_t rows_at_start_;
  ArgsArena* arena_;
  size_t released_to_ = 0;  // the input before this offset was released
  size_t expected_input_size_ = 0;
  WindowParser window_parser_;
};

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
  to.negative_durations += from.negative_durations;
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
  second.reserve((text.size() - split) / kBytesPerEventAtLeast + 16);  // as parse_text does
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
        const Result<size_t> close = reader.run(split + 1);
        if (close.ok()) second_close = *close;
        second_ok = close.ok() && clean(second_counts);
      } catch (const std::exception&) {  // the standard library's (bad_alloc): the one-pass parse reports it
      }
    });
  } catch (const std::system_error&) {
    return false;  // no threads here (a WebAssembly build without pthreads)
  }
  try {
    WindowedReader reader(store, store.input, options, first_counts, split, true, nullptr, arena ? &*arena : nullptr);
    const Result<size_t> close = reader.run(array_open);
    first_ok = close.ok() && *close == split && first_counts.truncated_at == jl::npos;
  } catch (const std::exception&) {  // as above
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

// A trace whose whole text is in store.input.
Status parse_text(EventStore& store, const IngestOptions& options) {
  store.input_bytes = store.input.size();
  const std::string_view text = store.input.view();
  Result<std::optional<EventsArray>> located = locate_events(store, text);
  if (!located.ok()) return located.status();
  const std::optional<EventsArray>& events = *located;
  if (!events) return Status::success();
  // For the densest trace; the reader reserves more only for a denser one.
  store.reserve(text.size() / kBytesPerEventAtLeast + 16);
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
    const Result<size_t> close = reader.run(events->array_open);
    if (!close.ok()) return close.status();
    array_close = *close;
  }
  finish_store(store, *events, array_close, counters);
  if (arena) store.input = arena->finish();  // the whole input is freed here
  return Status::success();
}

// The first bytes inflated, enough to find the events array in a Kineto trace.
constexpr size_t kHeadBytes = size_t(64) << 10;

// gzip on two cores: one thread inflates while this one parses the events as they
// arrive; once the inflate is done, that thread takes the second half of the events
// not yet begun. Whatever does not go cleanly (a truncated or broken file, the array
// not in the first bytes) is parsed again from the whole text, as without streaming,
// which gives the exact messages. Sets `streamed` false (and does nothing) when
// streaming is not possible here.
Status parse_while_inflating(EventStore& store, std::string_view compressed, const IngestOptions& options,
                             bool& streamed) {
  streamed = false;
  // A compacted input is parsed from the whole text (the arena follows one reader).
  if (options.threads < 2 || options.progress || options.compact_input || !streamed_gunzip_available())
    return Status::success();
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
      second.reserve((store.input.size() - stop) / kBytesPerEventAtLeast + 16);
      WindowedReader reader(second, store.input, options, second_counts, jl::npos, true);
      reader.expect_input_size(store.input.size());
      const Result<size_t> close = reader.run(stop + 1);
      if (close.ok()) second_close = *close;
      second_ok = close.ok() && clean(second_counts);
    } catch (const std::exception&) {  // the standard library's (bad_alloc): the one-pass parse reports it
    }
  };
  if (!gunzip.start(choose_stop, parse_second_half)) return Status::success();
  streamed = true;

  ByteStream& stream = gunzip.stream();
  std::optional<EventsArray> events;
  const ByteStream::State head = stream.wait_for(kHeadBytes);
  if (!head.finished) {
    EventStore probe;
    Result<std::optional<EventsArray>> located = locate_events(probe, std::string_view(store.input.data(), head.ready));
    if (located.ok()) events = *located;
  }
  IngestCounters counters;
  size_t first_end = jl::npos, stop = jl::npos;
  bool first_ok = false;
  if (events && stream.claim(events->array_open)) {
    const size_t hint = Inflater::size_hint(compressed);
    store.reserve((hint ? hint : compressed.size() * 8) / kBytesPerEventAtLeast + 16);
    try {
      WindowedReader reader(store, store.input, options, counters, jl::npos, true, &stream);
      reader.expect_input_size(hint);
      const Result<size_t> end = reader.run(events->array_open);
      stop = reader.stop_at();
      if (end.ok()) first_end = *end;
      first_ok = end.ok() && clean(counters) && first_end != jl::npos && (stop == jl::npos || first_end == stop);
    } catch (const std::exception&) {  // the standard library's (bad_alloc): the one-pass parse reports it
    }
  }
  gunzip.join();
  if (stop != jl::npos) store.input.data()[stop + 1] = saved_after_stop;
  store.inflate_ms = gunzip.inflate_ms();
  store.inflated_beside_parse = true;
  if (!gunzip.status().ok()) return gunzip.status();
  if (gunzip.truncated())
    store.warnings.push_back(gzip_truncated_warning());
  if (store.input.empty()) return Status(Code::gzip_empty, "the gzip file decompresses to nothing");
  if (first_ok && (stop == jl::npos || second_ok)) {
    store.input_bytes = store.input.size();
    Result<std::optional<EventsArray>> whole = locate_events(store, store.input.view());  // the same, on the whole text
    if (!whole.ok()) return whole.status();
    events = *whole;
    size_t array_close = first_end;
    if (stop != jl::npos) {
      append_part(store, std::move(second));
      add_counts(counters, second_counts);
      array_close = second_close;
      store.parse_threads = 2;
    }
    finish_store(store, *events, array_close, counters);
    return Status::success();
  }
  store.truncate(0);
  return parse_text(store, options);
}

// Decompresses `bytes` into the store's input and parses it, on two cores where it can.
Status parse_gzip(EventStore& store, std::string_view bytes, const IngestOptions& options) {
  store.compressed_bytes = bytes.size();
  bool streamed = false;
  Status status = parse_while_inflating(store, bytes, options, streamed);
  if (streamed) return status;
  const auto t0 = std::chrono::steady_clock::now();
  Result<Gunzipped> unzipped = gunzip(bytes);
  store.inflate_ms = ms_since(t0);
  if (!unzipped.ok()) return unzipped.status();
  if (unzipped->truncated) store.warnings.push_back(gzip_truncated_warning());
  store.input = std::move(unzipped->data);
  if (store.input.empty()) return Status(Code::gzip_empty, "the gzip file decompresses to nothing");
  return parse_text(store, options);
}

Result<std::unique_ptr<EventStore>> load_or_fail(PaddedBuffer bytes, const IngestOptions& options) {
  if (bytes.empty()) return Status(Code::file_empty, "the file is empty");
  auto store = std::make_unique<EventStore>();
  Status status;
  if (!looks_like_gzip(bytes.view())) {
    store->input = std::move(bytes);
    status = parse_text(*store, options);
  } else {
    status = parse_gzip(*store, bytes.view(), options);
  }
  if (!status.ok()) return status;
  if (options.progress) options.progress(store->input.size(), store->size());
  return store;
}

}  // namespace

Result<std::unique_ptr<EventStore>> load_trace(PaddedBuffer bytes, const IngestOptions& options) {
  try {
    return load_or_fail(std::move(bytes), options);
  } catch (const std::bad_alloc&) {  // the standard library's, from a column or buffer that could not grow
    return Status(Code::out_of_memory, "out of memory while reading the trace");
  }
}

}  // namespace sollens
