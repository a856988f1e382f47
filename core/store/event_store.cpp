#include "store/event_store.h"

#include <cmath>

namespace sollens {

int64_t EventStore::ts_ns(size_t i) const {
  // Whole µs and fraction apart: epoch-µs values (~1.6e15) times 1000 exceed 2^53.
  const double whole = std::floor(ts[i]);
  return static_cast<int64_t>(whole) * 1000 + std::llround((ts[i] - whole) * 1000.0);
}

// Every column once: reserve, truncate, append and heap_bytes all expand these lists,
// so a new column cannot be forgotten by one of them.
#define SOLLENS_FOR_STRING_COLUMNS(X) X(cat) X(name) X(pid) X(tid)
#define SOLLENS_FOR_PLAIN_COLUMNS(X)                                                      \
  X(phase) X(category) X(ts) X(dur) X(correlation) X(external_id) X(flow_id) X(stream) \
      X(device) X(python_id) X(python_parent_id) X(sequence_number) X(args_offset)     \
          X(args_length) X(has_args_object)
#define SOLLENS_FOR_EVENT_COLUMNS(X) SOLLENS_FOR_STRING_COLUMNS(X) SOLLENS_FOR_PLAIN_COLUMNS(X)

void EventStore::reserve(size_t n) {
#define SOLLENS_RESERVE(c) c.reserve(n);
  SOLLENS_FOR_EVENT_COLUMNS(SOLLENS_RESERVE)
#undef SOLLENS_RESERVE
}

void EventStore::truncate(size_t n) {
  if (n >= size()) return;
#define SOLLENS_TRUNCATE(c) c.resize(n);
  SOLLENS_FOR_EVENT_COLUMNS(SOLLENS_TRUNCATE)
#undef SOLLENS_TRUNCATE
  while (!names.empty() && names.back().event >= n) names.pop_back();
}

void EventStore::append_rows(const EventStore& part, const std::vector<StrId>& remap) {
  const size_t offset = size();
#define SOLLENS_APPEND(c) c.insert(c.end(), part.c.begin(), part.c.end());
  SOLLENS_FOR_PLAIN_COLUMNS(SOLLENS_APPEND)
#undef SOLLENS_APPEND
  // String ids go through `remap`: part's pool → this pool.
#define SOLLENS_APPEND_REMAPPED(c) \
  for (StrId id : part.c) c.push_back(remap[id]);
  SOLLENS_FOR_STRING_COLUMNS(SOLLENS_APPEND_REMAPPED)
#undef SOLLENS_APPEND_REMAPPED
  for (const NameRecord& r : part.names)
    names.push_back({r.event + offset, remap[r.kind], remap[r.pid], remap[r.tid], remap[r.value]});
}

size_t EventStore::heap_bytes() const {
  size_t bytes = strings.heap_bytes() + names.capacity() * sizeof(NameRecord);
#define SOLLENS_BYTES(c) bytes += c.capacity() * sizeof(c[0]);
  SOLLENS_FOR_EVENT_COLUMNS(SOLLENS_BYTES)
#undef SOLLENS_BYTES
  return bytes;
}

#undef SOLLENS_FOR_EVENT_COLUMNS
#undef SOLLENS_FOR_PLAIN_COLUMNS
#undef SOLLENS_FOR_STRING_COLUMNS

}  // namespace sollens
