#include "store/event_store.h"

#include <cmath>

namespace sollens {

int64_t EventStore::ts_ns(size_t i) const {
  // Whole µs and fraction apart: epoch-µs values (~1.6e15) times 1000 exceed 2^53.
  const double whole = std::floor(ts[i]);
  return static_cast<int64_t>(whole) * 1000 + std::llround((ts[i] - whole) * 1000.0);
}

template <typename... Columns>
static void reserve_all(size_t n, Columns&... cols) {
  (cols.reserve(n), ...);
}
template <typename... Columns>
static void truncate_all(size_t n, Columns&... cols) {
  (cols.resize(n), ...);
}
template <typename... Columns>
static size_t bytes_of(const Columns&... cols) {
  return ((cols.capacity() * sizeof(typename Columns::value_type)) + ...);
}

#define SOLLENS_EVENT_COLUMNS                                                              \
  phase, category, cat, name, pid, tid, ts, dur, correlation, external_id, flow_id, stream, \
      device, python_id, python_parent_id, sequence_number, args_offset, args_length,       \
      has_args_object

void EventStore::reserve(size_t n) { reserve_all(n, SOLLENS_EVENT_COLUMNS); }
void EventStore::truncate(size_t n) {
  if (n < size()) truncate_all(n, SOLLENS_EVENT_COLUMNS);
  while (!names.empty() && names.back().event >= n) names.pop_back();
}
size_t EventStore::heap_bytes() const {
  return bytes_of(SOLLENS_EVENT_COLUMNS) + strings.heap_bytes() +
         names.capacity() * sizeof(NameRecord);
}

#undef SOLLENS_EVENT_COLUMNS

}  // namespace sollens
