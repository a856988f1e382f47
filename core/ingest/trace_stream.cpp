#include "ingest/trace_stream.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "ingest/cut_short.h"
#include "ingest/gzip.h"
#include "ingest/json_layout.h"
#include "ingest/stream_part.h"
#include "ingest/trace_layout.h"
#include "ingest/window_parser.h"

namespace sollens {

namespace jl = json_layout;

namespace {

// The text buffer starts here and doubles only for an event (or a head, or a tail)
// longer than what it holds.
constexpr size_t kFirstBufferBytes = size_t(4) << 20;
// The store's columns start with room for this many events.
constexpr size_t kFirstRows = size_t(1) << 12;
// The least text read before the rest is projected from it (reserve_ahead).
constexpr size_t kProjectAfterBytes = size_t(4) << 20;

}  // namespace

// The text buffer holds the bytes [base_, base_ + buf_.size()) of the trace. Before the
// events array is found everything is kept (base_ stays 0); while the events are read,
// only what follows the last window; after the array, its tail (the members after it).
// Local offsets index buf_; absolute ones (in messages) add base_.
class TraceStreamReader::State {
 public:
  State(IngestOptions options, size_t expected_bytes, std::optional<StreamSplit> split = std::nullopt)
      : options_(std::move(options)),
        expected_bytes_(expected_bytes),
        split_(split),
        store_(std::make_unique<EventStore>()) {
    options_.compact_input = true;
    options_.release_input = nullptr;
    options_.threads = 1;
    try {
      buf_ = PaddedBuffer(kFirstBufferBytes);
      buf_.truncate(0);
    } catch (const std::bad_alloc&) {  // the standard library's
      fail(out_of_memory());
    }
    if (second_part() && !failed()) guarded([&] { return enter_second_part(); });
  }

  char* prepare(size_t n) {
    if (failed()) return nullptr;
    try {
      make_room(n);
    } catch (const std::bad_alloc&) {  // the standard library's
      fail(out_of_memory());
      return nullptr;
    }
    return buf_.data() + buf_.size();
  }

  bool commit(size_t n) {
    if (failed()) return false;
    if (n == 0) return true;
    if (n > std::numeric_limits<size_t>::max() - total_) {  // a 32-bit build (WebAssembly) counting past 4 GiB
      fail(Status(Code::trace_too_large, "the trace is larger than this build can count (" +
                                             std::to_string(total_ >> 20) +
                                             " MiB read): open it with the sollens command line"));
      return false;
    }
    const size_t size = buf_.size() + n;
    std::memset(buf_.data() + size, 0, PaddedBuffer::kPadding);
    buf_.extend(size);
    total_ += n;
    guarded([&] { return step(/*final=*/false); });
    return !failed();
  }

  Result<std::string> finish_part() {
    if (!second_part()) return Status(Code::split_missed, "only the second part of a split read is encoded");
    std::string encoded;
    if (!failed()) guarded([&] { return encode_part(encoded); });
    if (failed()) return status_;
    return encoded;
  }

  void set_second_part(std::string_view encoded) { second_part_bytes_ = encoded; }

  size_t bytes_read() const { return total_; }
  void input_cut_short() { input_cut_short_ = true; }
  size_t events() const { return store_ ? store_->size() : 0; }

  Result<std::unique_ptr<EventStore>> finish() {
    if (second_part()) return Status(Code::split_missed, "the second part of a split read has no store of its own");
    if (!failed()) guarded([&] { return finish_load(); });
    if (failed()) return status_;
    if (whole_) return std::move(whole_);
    return std::move(store_);
  }

 private:
  enum class Phase {
    kHead,    // looking for the events array
    kEvents,  // in it, after sep_
    kTail,    // past its ']' (at tail_ locally)
    kWhole,   // no events array found as it was read: the whole text is kept for load_trace
    kDone,    // the input ended inside the array
    kSplit,   // the first part of a split read: its events end at the split
  };

  bool first_part() const { return split_ && split_->part == StreamSplit::Part::kFirst; }
  bool second_part() const { return split_ && split_->part == StreamSplit::Part::kSecond; }
  static Status split_missed(const std::string& why) {
    return Status(Code::split_missed, "the split read's second part does not start between two events (" + why + ")");
  }

  // The second part's text starts with the ',' at the split: its events come at once.
  Status enter_second_part() {
    base_ = split_->at;
    events_ = EventsArray{split_->at, split_->at};
    sep_ = 0;
    store_->reserve(kFirstRows);
    parser_.emplace(*store_, buf_, counters_, /*repairs_allowed=*/true, &arena_);
    phase_ = Phase::kEvents;
    return Status::success();
  }

  bool failed() const { return !status_.ok(); }
  void fail(Status status) {
    if (!failed()) status_ = std::move(status);
  }
  static Status out_of_memory() { return Status(Code::out_of_memory, "out of memory while reading the trace"); }
  static Status cancelled() { return Status(Code::cancelled, "loading was cancelled"); }

  // Runs a step that returns a Status, recording its failure (or the standard
  // library's bad_alloc) as the load's.
  template <typename F>
  void guarded(F&& f) {
    try {
      fail(f());
    } catch (const std::bad_alloc&) {
      fail(out_of_memory());
    }
  }

  // The first byte still needed: what comes before it has been read for good.
  size_t keep_from() const {
    switch (phase_) {
      case Phase::kEvents: return sep_;
      case Phase::kTail: return tail_;
      default: return 0;
    }
  }

  // Moves what is still needed to the front, then grows the buffer if `n` more bytes do
  // not fit (an event, a head or a tail longer than it).
  void make_room(size_t n) {
    const size_t keep = keep_from();
    if (buf_.size() + n + PaddedBuffer::kPadding <= buf_.capacity()) return;
    if (keep > 0) {
      const size_t rest = buf_.size() - keep;
      std::memmove(buf_.data(), buf_.data() + keep, rest);
      buf_.truncate(rest);
      base_ += keep;
      if (phase_ == Phase::kEvents) sep_ = 0;
      if (phase_ == Phase::kTail) tail_ = 0;
    }
    const size_t need = buf_.size() + n + PaddedBuffer::kPadding;
    if (need <= buf_.capacity()) return;
    PaddedBuffer bigger(std::max(need, buf_.capacity() * 2));
    std::memcpy(bigger.data(), buf_.data(), buf_.size());
    bigger.truncate(buf_.size());
    buf_ = std::move(bigger);
  }

  Status step(bool final) {
    if (second_part() && base_ == split_->at && !buf_.empty() && buf_.view()[0] != ',')
      return split_missed("its text does not start with the ',' between two events");
    if (phase_ == Phase::kHead) {
      Status found = find_events(final);
      if (!found.ok()) return found;
    }
    if (phase_ == Phase::kEvents) return read_events(final);
    return Status::success();
  }

  // Enters the events array once the text before it is in (the legacy form is the
  // array itself); anything else that is not a Kineto trace goes whole to load_trace,
  // which says what it is, unless it is plainly not JSON.
  Status find_events(bool final) {
    const std::string_view text = buf_.view();
    // Scans from the start again only once the text has doubled: linear time however
    // long the head (a file that is not a trace is read whole).
    if (!final && (text.size() < 4 || text.size() < 2 * head_scanned_)) return Status::success();
    head_scanned_ = text.size();
    if (looks_like_gzip(text)) {
      phase_ = Phase::kWhole;
      return Status::success();
    }
    size_t p = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    p = jl::skip_ws(text, p);
    if (p >= text.size()) return Status::success();
    if (text[p] == '{') {
      const auto member = jl::find_member(text, p, "traceEvents");
      if (!member || member->value_begin >= text.size()) {
        if (final) phase_ = Phase::kWhole;
        return Status::success();
      }
      if (text[member->value_begin] != '[') {
        phase_ = Phase::kWhole;
        return Status::success();
      }
    }
    Result<std::optional<EventsArray>> located = locate_events(*store_, text);  // the error for non-JSON
    if (!located.ok()) return located.status();
    events_ = **located;
    if (first_part() && split_->at <= events_.array_open) return split_missed("the split is before the events array");
    head_.assign(text.substr(0, events_.array_open));
    sep_ = events_.array_open;
    // Little at first: the first window tells the bytes per event, and reserve_ahead
    // then reserves for the rest (a guess from the size alone could leave a large
    // block unused, and WebAssembly memory never shrinks).
    store_->reserve(kFirstRows);
    parser_.emplace(*store_, buf_, counters_, /*repairs_allowed=*/true, &arena_);
    phase_ = Phase::kEvents;
    return Status::success();
  }

  // Windows of events while their bytes are in; at the end of the input, the rest.
  Status read_events(bool final) {
    const std::string_view text = buf_.view();
    const size_t window = options_.window_bytes;
    while (phase_ == Phase::kEvents) {
      const size_t p = jl::skip_ws(text, sep_ + 1);
      if (p >= text.size()) {
        if (final) phase_ = Phase::kDone;  // unclosed
        return Status::success();
      }
      if (text[p] == ']') {
        close_array(p);
        return Status::success();
      }
      if (text[p] == ',') {  // an empty element (",,") carries nothing
        ++counters_.empty_elements;
        move_past(p);
        continue;
      }
      // A guessed cut first; then the exact one, which a guess inside a string or a
      // nested value, or past the array's end, cannot parse.
      size_t cut = clamp_to_split(jl::next_event_boundary(text, p + window), text);
      if (cut == jl::npos && !final) return Status::success();  // the window's end is not in yet
      if (cut != jl::npos) {
        const Parsed parsed = parse(cut);
        if (parsed == Parsed::kCancelled) return cancelled();
        if (parsed == Parsed::kDone) continue;
      }
      cut = clamp_to_split(jl::scan_to_boundary(text, p, p + window), text);
      if (cut == jl::npos) return final ? one_at_a_time(jl::npos, final) : Status::success();
      const Parsed parsed = parse(cut);
      if (parsed == Parsed::kCancelled) return cancelled();
      // Events before the split parse up to it, or it is not between two of them (or one
      // of them is broken: the read in one pass then names it).
      if (parsed == Parsed::kFailed && cut_at_split_) return split_missed("an event spans it");
      if (parsed == Parsed::kFailed) {
        Status slow = one_at_a_time(cut, final);
        if (!slow.ok()) return slow;
      }
    }
    return Status::success();
  }

  enum class Parsed { kDone, kFailed, kCancelled };

  // The first part's windows end at the split at the latest (npos while it is not in),
  // or at the first ',' of the empty elements before it, which are then stepped over.
  size_t clamp_to_split(size_t cut, std::string_view text) {
    cut_at_split_ = false;
    if (!first_part()) return cut;
    size_t split = split_->at - base_;
    if (cut != jl::npos && cut <= split) return cut;
    if (split >= text.size()) return jl::npos;
    for (size_t before = split; before > sep_ + 1;) {
      while (before > sep_ + 1 && jl::is_ws(text[before - 1])) --before;
      if (before <= sep_ + 1 || text[before - 1] != ',') break;
      split = --before;
    }
    cut_at_split_ = true;
    return split;
  }

  // Past a window that ends at the separator `cut`.
  void move_past(size_t cut) {
    sep_ = cut;
    if (first_part() && base_ + sep_ == split_->at) phase_ = Phase::kSplit;
  }

  // Parses the window after sep_ up to `cut`; on success moves on past it.
  Parsed parse(size_t cut) {
    if (!parser_->parse(sep_, cut).ok) return Parsed::kFailed;
    if (buf_.view()[cut] == ']') {
      close_array(cut);
    } else {
      move_past(cut);
      reserve_ahead();
      if (options_.progress && !options_.progress(base_ + sep_, store_->size())) return Parsed::kCancelled;
    }
    return Parsed::kDone;
  }

  // Slow path after a window failed: one event at a time, each cut found exactly, up to
  // the separator `until` (npos: the end of the input), to name the byte where the
  // JSON is broken or keep everything before a truncation.
  Status one_at_a_time(size_t until, bool final) {
    const std::string_view text = buf_.view();
    while (phase_ == Phase::kEvents && sep_ != until) {
      const size_t p = jl::skip_ws(text, sep_ + 1);
      if (p >= text.size()) {
        if (final) phase_ = Phase::kDone;
        return Status::success();
      }
      if (text[p] == ']') {
        close_array(p);
        return Status::success();
      }
      if (text[p] == ',') {
        ++counters_.empty_elements;
        move_past(p);
        continue;
      }
      const size_t cut = jl::scan_to_boundary(text, p, p);
      if (cut == jl::npos) return final ? last_event(p) : Status::success();
      const WindowParser::Result w = parser_->parse(sep_, cut);
      if (!w.ok)
        return Status(Code::invalid_json, std::string("invalid JSON in traceEvents: ") +
                                              simdjson::error_message(w.error) + at_byte(base_ + p));
      if (text[cut] == ']') {
        close_array(cut);
        return Status::success();
      }
      move_past(cut);
    }
    return Status::success();
  }

  // The input ends in or after the event at p: complete but for the array's ']', cut
  // short, or broken JSON (an unescaped quote, say) that misled the scan to the end,
  // which well-formed events closing the array after the next "}," reveal.
  Status last_event(size_t p) {
    phase_ = Phase::kDone;
    if (parser_->parse(sep_, jl::npos, /*close_at_end=*/true).ok) {
      counters_.missing_close_bracket = true;
      return Status::success();
    }
    const std::string_view text = buf_.view();
    const size_t next = jl::next_event_boundary(text, p);
    if (next != jl::npos) {
      const size_t close = jl::scan_to_boundary(text, jl::skip_ws(text, next + 1), jl::npos);
      if (close != jl::npos && text[close] == ']')
        return Status(Code::invalid_json,
                      "invalid JSON in traceEvents: the event starting here is malformed" + at_byte(base_ + p));
    }
    counters_.truncated_at = base_ + p;
    return Status::success();
  }

  void close_array(size_t at) {
    array_close_ = base_ + at;
    tail_ = at;
    phase_ = Phase::kTail;
  }

  // Room for the events and kept args still to come, projected from the bytes read so
  // far with a tenth to spare (as the whole-text reader does for the columns), once a
  // 32nd of the text is in: a trace's first events are no sample of the rest (owlv2's
  // first 8 MB keep three times the args of the whole). Before that, and without a size
  // to go by, they grow by steps. A projection that falls short grows the columns by a
  // quarter at least, as the whole-text reader does: each growth copies every row, and
  // steps of a sixteenth copied owlv2's store 11 times and a 1 GB one's 4 times, ending
  // with more room to spare (2.90 M rows for 2.51 M) than one step of a quarter (2.85 M).
  void reserve_ahead() {
    EventStore& store = *store_;
    const size_t done = base_ + sep_;
    const size_t read = done - events_.array_open;
    if (!expected_bytes_ || done >= expected_bytes_ || read < std::max(expected_bytes_ / 32, kProjectAfterBytes))
      return;
    const double growth = double(expected_bytes_ - events_.array_open) / double(read) * 1.1;
    const size_t rows = static_cast<size_t>(double(store.size()) * growth) + 16;
    if (rows > store.capacity()) {
      store.reserve(std::max(rows, store.capacity() + store.capacity() / 4));
    }
    if (!arena_reserved_) {
      arena_.reserve(static_cast<size_t>(double(arena_.size()) * growth) + (size_t(1) << 20));
      arena_reserved_ = true;
    }
  }

  Status finish_load() {
    if (total_ == 0) return Status(Code::file_empty, "the file is empty");
    Status stepped = step(/*final=*/true);
    if (!stepped.ok()) return stepped;
    if (first_part()) return finish_first_part();
    if (phase_ == Phase::kHead || phase_ == Phase::kWhole) return load_whole();
    const bool closed = phase_ == Phase::kTail;
    return finish_events(closed, closed ? buf_.view().substr(tail_ + 1) : std::string_view(), total_);
  }

  // The second part appended: its rows, args and counters, the text after the array.
  Status finish_first_part() {
    if (phase_ != Phase::kSplit) {
      if (phase_ == Phase::kHead || phase_ == Phase::kWhole) return split_missed("no events array before it");
      if (phase_ == Phase::kTail) return split_missed("the events array ends before it");
      return split_missed("an event spans it");
    }
    Result<StreamPartEnd> end = append_stream_part(second_part_bytes_, *store_, arena_, counters_);
    if (!end.ok()) return end.status();
    const std::string tail(end->tail);  // the part's bytes may go once it is appended
    return finish_events(end->closed, tail, split_->at + end->bytes_read);
  }

  Status encode_part(std::string& encoded) {
    Status stepped = step(/*final=*/true);
    if (!stepped.ok()) return stepped;
    const bool closed = phase_ == Phase::kTail;
    const std::string_view tail = closed ? buf_.view().substr(tail_ + 1) : std::string_view();
    encoded = encode_stream_part(*store_, arena_, counters_, StreamPartEnd{closed, tail, total_});
    buf_ = PaddedBuffer();
    store_.reset();
    return Status::success();
  }

  // The store finished: the members around the array (`tail`: the text after its ']'
  // when `closed`), the warnings, the args as the store's input.
  Status finish_events(bool closed, std::string_view tail, size_t input_bytes) {
    EventStore& store = *store_;
    store.input_bytes = input_bytes;
    // The members around the array, as one small text with the events left out.
    std::string around = head_;
    around += "[]";
    if (closed) around.append(tail);
    buf_ = PaddedBuffer();
    store.input = PaddedBuffer::copy_of(around);
    if (input_cut_short_) store.warnings.push_back(gzip_truncated_warning());
    finish_store(store, events_, closed ? events_.array_open + 1 : jl::npos, counters_);
    store.input = arena_.finish();
    // The columns were reserved ahead from a projection; what it overshot, where it is
    // much, is given back (a copy a column, one at a time) for the tree and the report.
    if (store.spare_column_bytes() >= options_.shrink_spare_column_bytes) store.shrink_to_fit();
    if (options_.progress) options_.progress(total_, store.size());
    return Status::success();
  }

  // What was read holds no events array that could be entered as it came in (an
  // Execution Trace, a gzip file, something else): the whole text, read at once.
  Status load_whole() {
    buf_.truncate(total_);
    Result<std::unique_ptr<EventStore>> whole = load_trace(std::move(buf_), options_);
    if (!whole.ok()) return whole.status();
    if (input_cut_short_) {
      EventStore& store = **whole;
      auto& warnings = store.warnings;
      warnings.insert(warnings.begin(), gzip_truncated_warning());
      if (std::none_of(warnings.begin(), warnings.end(), [](const Diagnostic& w) { return w.code == Code::cut_short_gpu; }))
        add_cut_short_loss(store);
    }
    whole_ = std::move(*whole);
    return Status::success();
  }

  IngestOptions options_;
  const size_t expected_bytes_;
  const std::optional<StreamSplit> split_;
  std::string_view second_part_bytes_;  // the first part's: the second's encoding
  bool cut_at_split_ = false;  // the first part's last window was cut at the split
  std::unique_ptr<EventStore> store_;
  Status status_;  // the load's failure, once there is one
  std::unique_ptr<EventStore> whole_;  // the store load_trace made of the whole text
  PaddedBuffer buf_;
  size_t base_ = 0;   // absolute offset of buf_'s first byte
  size_t total_ = 0;  // bytes committed
  Phase phase_ = Phase::kHead;
  EventsArray events_{0, 0};
  std::string head_;  // the text before the events array
  size_t head_scanned_ = 0;  // the text's size when the head was last scanned
  size_t sep_ = 0;    // the '[' or ',' before the next window
  size_t tail_ = 0;   // the array's ']'
  size_t array_close_ = jl::npos;
  IngestCounters counters_;
  ArgsArena arena_;
  bool arena_reserved_ = false;
  bool input_cut_short_ = false;  // the compressed file it came from ended early
  std::optional<WindowParser> parser_;
};

TraceStreamReader::TraceStreamReader(IngestOptions options, size_t expected_bytes)
    : state_(std::make_unique<State>(std::move(options), expected_bytes)) {}
TraceStreamReader::TraceStreamReader(IngestOptions options, size_t expected_bytes, StreamSplit split)
    : state_(std::make_unique<State>(std::move(options), expected_bytes, split)) {}
TraceStreamReader::~TraceStreamReader() = default;
char* TraceStreamReader::prepare(size_t n) { return state_->prepare(n); }
bool TraceStreamReader::commit(size_t n) { return state_->commit(n); }
size_t TraceStreamReader::bytes_read() const { return state_->bytes_read(); }
void TraceStreamReader::input_cut_short() { state_->input_cut_short(); }
size_t TraceStreamReader::events() const { return state_->events(); }
Result<std::unique_ptr<EventStore>> TraceStreamReader::finish() { return state_->finish(); }
Result<std::string> TraceStreamReader::finish_part() { return state_->finish_part(); }
void TraceStreamReader::set_second_part(std::string_view encoded) { state_->set_second_part(encoded); }

}  // namespace sollens
