#include "store/event_store.h"

#include <cmath>
#include <utility>

namespace sollens {

int64_t EventStore::ts_ns(size_t i) const {
  // Whole µs and fraction apart: epoch-µs values (~1.6e15) times 1000 exceed 2^53.
  const double whole = std::floor(ts[i]);
  return static_cast<int64_t>(whole) * 1000 + std::llround((ts[i] - whole) * 1000.0);
}

// The whole-row operations expand the column list (store/event_columns.h), so none of
// them can miss a column.
#define SOLLENS_IGNORE(type, column, absent)

void EventStore::reserve(size_t n) {
#define SOLLENS_RESERVE(type, c, absent) c.reserve(n);
  SOLLENS_EVENT_COLUMNS(SOLLENS_RESERVE, SOLLENS_RESERVE)
#undef SOLLENS_RESERVE
}

void EventStore::shrink_to_fit() {
#define SOLLENS_SHRINK(type, c, absent) c.shrink_to_fit();
  SOLLENS_EVENT_COLUMNS(SOLLENS_SHRINK, SOLLENS_SHRINK)
#undef SOLLENS_SHRINK
}

size_t EventStore::spare_column_bytes() const {
  size_t bytes = 0;
#define SOLLENS_SPARE(type, c, absent) bytes += column_heap_bytes(c) - column_used_bytes(c);
  SOLLENS_EVENT_COLUMNS(SOLLENS_SPARE, SOLLENS_SPARE)
#undef SOLLENS_SPARE
  return bytes;
}

void EventStore::truncate(size_t n) {
  if (n >= size()) return;
#define SOLLENS_TRUNCATE(type, c, absent) c.resize(n);
  SOLLENS_EVENT_COLUMNS(SOLLENS_TRUNCATE, SOLLENS_TRUNCATE)
#undef SOLLENS_TRUNCATE
  while (!names.empty() && names.back().event >= n) names.pop_back();
}

void EventStore::append_rows(EventStore&& part, const std::vector<StrId>& remap) {
  const size_t offset = size();
  const size_t total = offset + part.size();
#define SOLLENS_APPEND(type, c, absent) append_column(c, std::move(part.c));
  SOLLENS_EVENT_COLUMNS(SOLLENS_APPEND, SOLLENS_IGNORE)
#undef SOLLENS_APPEND
  // String ids go through `remap`: part's pool → this pool.
#define SOLLENS_APPEND_REMAPPED(type, c, absent) \
  c.reserve(total);                              \
  for (StrId id : part.c) c.push_back(remap[id]); \
  std::vector<StrId>().swap(part.c);
  SOLLENS_EVENT_COLUMNS(SOLLENS_IGNORE, SOLLENS_APPEND_REMAPPED)
#undef SOLLENS_APPEND_REMAPPED
  for (const NameRecord& r : part.names)
    names.push_back({r.event + offset, remap[r.kind], remap[r.pid], remap[r.tid], remap[r.value]});
}

size_t EventStore::heap_bytes() const {
  size_t bytes = strings.heap_bytes() + names.capacity() * sizeof(NameRecord);
#define SOLLENS_BYTES(type, c, absent) bytes += column_heap_bytes(c);
  SOLLENS_EVENT_COLUMNS(SOLLENS_BYTES, SOLLENS_BYTES)
#undef SOLLENS_BYTES
  return bytes;
}

#undef SOLLENS_IGNORE

}  // namespace sollens
