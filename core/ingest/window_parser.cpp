#include "ingest/window_parser.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#include "ingest/text_repair.h"
#include "ingest/vector_scan_parser.h"

namespace sollens {
namespace {

bool ends_the_text(const char* d, size_t from, size_t n) {
  for (size_t i = from; i < n; ++i)
    if (d[i] != ' ' && d[i] != '\n' && d[i] != '\r' && d[i] != '\t') return false;
  return true;
}

}  // namespace

ArgsArena::~ArgsArena() { std::free(data_); }

void ArgsArena::take(EventStore& store, size_t from, const char* input) {
  for (size_t i = from; i < store.size(); ++i) {
    const uint32_t n = store.args_length[i];
    if (n == 0) continue;
    grow_to(size_ + n);
    std::memcpy(data_ + size_, input + store.args_offset[i], n);
    store.args_offset.set(i, size_);
    size_ += n;
  }
}

void ArgsArena::absorb(const ArgsArena& other, EventStore& other_rows) {
  for (size_t i = 0; i < other_rows.size(); ++i)
    if (other_rows.args_length[i] != 0) other_rows.args_offset.set(i, other_rows.args_offset[i] + size_);
  grow_to(size_ + other.size_);
  if (other.size_) std::memcpy(data_ + size_, other.data_, other.size_);
  size_ += other.size_;
}

void ArgsArena::append(std::string_view bytes) {
  grow_to(size_ + bytes.size());
  if (!bytes.empty()) std::memcpy(data_ + size_, bytes.data(), bytes.size());
  size_ += bytes.size();
}

PaddedBuffer ArgsArena::finish() {
  // Exactly the bytes and their padding: the room reserved ahead and not used goes back
  // to the allocator, for the tree and the report (a projection from the first part of a
  // trace can overshoot by half). A shrink that fails keeps the larger block.
  const size_t fitted_size = size_ + PaddedBuffer::kPadding;
  if (char* fitted = static_cast<char*>(std::realloc(data_, fitted_size))) {
    data_ = fitted;
    capacity_ = fitted_size;
  } else if (capacity_ < fitted_size) {
    throw std::bad_alloc();  // as reserve: load_trace reports out_of_memory
  }
  std::memset(data_ + size_, 0, PaddedBuffer::kPadding);
  char* data = std::exchange(data_, nullptr);
  return PaddedBuffer::adopt(data, size_, capacity_, [](char* d, size_t) { std::free(d); });
}

void ArgsArena::grow_to(size_t need) {
  if (need > capacity_) reserve(std::max(need, capacity_ + capacity_ / 2 + (size_t(1) << 20)));
}

void ArgsArena::reserve(size_t capacity) {
  if (capacity <= capacity_) return;
  char* d = static_cast<char*>(std::realloc(data_, capacity));
  // realloc's failure stands in for the standard library's own (a vector that cannot
  // grow): load_trace catches std::bad_alloc at its top as Code::out_of_memory.
  if (!d) throw std::bad_alloc();
  data_ = d;
  capacity_ = capacity;
}

WindowParser::WindowParser(EventStore& store, PaddedBuffer& input, IngestCounters& counters,
                           bool repairs_allowed, ArgsArena* arena)
    : store_(store),
      input_(input),
      counters_(counters),
      repairs_allowed_(repairs_allowed),
      arena_(arena),
      compacted_rows_(store.size()),
      decoder_(store, input, counters, arena != nullptr) {
  prefer_vector_scan();  // before parser_ first allocates
}

WindowParser::Result WindowParser::parse(size_t sep, size_t cut, bool close_at_end) {
  constexpr size_t npos = static_cast<size_t>(-1);
  char* d = input_.data();
  const size_t n = input_.size();
  const size_t rows_before = store_.size();
  const IngestCounters counters_before = counters_;
  size_t end = cut == npos ? n : cut + 1;
  const char saved_sep = d[sep];
  const char saved_pad = close_at_end ? d[n] : 0;  // padding byte, written only then
  // The cut becomes the window's ']': a ',' between events, or the '}' that ends the
  // file where the array's ']' is missing (a scan's cut stops there).
  const char saved_cut = cut != npos ? d[cut] : 0;
  const bool write_cut = saved_cut == ',' || (saved_cut == '}' && ends_the_text(d, cut + 1, n));
  const bool write_sep = d[sep] != '[';  // a '[' already there is left alone (see below)
  if (write_sep) d[sep] = '[';
  if (write_cut) d[cut] = ']';
  if (close_at_end) {
    d[n] = ']';
    end = n + 1;
  }
  Result w = decode(sep, end);
  if (!w.ok && repairs_allowed_ &&
      (w.error == simdjson::UTF8_ERROR || w.error == simdjson::UNESCAPED_CHARS)) {
    store_.truncate(rows_before);
    const size_t inner_end = cut == npos ? n : cut;
    counters_.utf8_repairs += repair_invalid_utf8(d + sep + 1, inner_end - sep - 1);
    counters_.control_repairs += repair_control_characters(d + sep + 1, inner_end - sep - 1);
    w = decode(sep, end);
  }
  if (write_sep) d[sep] = saved_sep;
  if (write_cut) d[cut] = saved_cut;
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

WindowParser::Result WindowParser::decode(size_t begin, size_t end) {
  Result w;
  char* d = input_.data();
  const size_t capacity = input_.capacity() - begin;
  simdjson::ondemand::document doc;
  w.error = parser_.iterate(d + begin, end - begin, capacity).get(doc);
  if (w.error) return w;
  simdjson::ondemand::array array;
  if ((w.error = doc.get_array().get(array))) return w;
  for (auto element : array) {
    if ((w.error = element.error())) return w;
    if ((w.error = decoder_.decode(element.value_unsafe(), doc))) return w;  // by reference
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

}  // namespace sollens
