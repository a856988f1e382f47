#pragma once
// The event store's columns, declared once. The store's members, its row type and
// every whole-row operation (reserve, truncate, append, heap_bytes, push_row) expand
// this list, so a column added here reaches all of them.
//
// SOLLENS_EVENT_COLUMNS(COLUMN, STRING_COLUMN) calls COLUMN(type, name, absent) for each
// plain column and STRING_COLUMN(type, name, absent) for each interned-string column
// (its ids are remapped when rows move between pools); `absent` is the value of a field
// the event does not have. A column's storage is ColumnOf<type>: 64-bit ids are held
// narrow while they fit (store/narrow_column.h), every other type in a plain vector.
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "store/categories.h"
#include "store/narrow_column.h"
#include "store/string_pool.h"

namespace sollens {

inline constexpr int64_t kNoValue = std::numeric_limits<int64_t>::min();

#define SOLLENS_EVENT_COLUMNS(COLUMN, STRING_COLUMN)                                            \
  COLUMN(Phase, phase, Phase::kNone)                                                           \
  COLUMN(Category, category, Category::kUnknown) /* from cat */                                \
  STRING_COLUMN(StrId, cat, kEmptyStr)           /* raw category text */                       \
  STRING_COLUMN(StrId, name, kEmptyStr)                                                        \
  STRING_COLUMN(StrId, pid, kEmptyStr) /* raw pid / tid text: numbers and strings both occur */ \
  STRING_COLUMN(StrId, tid, kEmptyStr)                                                         \
  COLUMN(double, ts, 0)                       /* µs, as the JSON number parses to a double */   \
  COLUMN(double, dur, 0)                      /* µs; 0 when absent */                           \
  COLUMN(int64_t, correlation, kNoValue)      /* args.correlation */                            \
  COLUMN(int64_t, external_id, kNoValue)      /* args["External id"] (legacy "external id") */  \
  COLUMN(int64_t, flow_id, kNoValue)          /* "id" of flow events */                         \
  COLUMN(int64_t, stream, kNoValue)           /* args.stream */                                 \
  COLUMN(int64_t, device, kNoValue)           /* args.device */                                 \
  COLUMN(int64_t, python_id, kNoValue)                                                          \
  COLUMN(int64_t, python_parent_id, kNoValue)                                                   \
  COLUMN(int64_t, sequence_number, kNoValue)                                                    \
  COLUMN(uint64_t, args_offset, 0)     /* raw args JSON in the store's input */                 \
  COLUMN(uint32_t, args_length, 0)     /* 0: no args kept */                                    \
  COLUMN(uint8_t, has_args_object, 0)  /* the event had an "args" object at all */

template <typename T>
struct ColumnStorage {
  using type = std::vector<T>;
};
template <>
struct ColumnStorage<int64_t> {
  using type = NarrowColumn<int64_t>;
};
template <>
struct ColumnStorage<uint64_t> {
  using type = NarrowColumn<uint64_t>;
};
template <typename T>
using ColumnOf = typename ColumnStorage<T>::type;

// The operations whole-row code needs that the two storages spell differently.
template <typename T>
size_t column_heap_bytes(const std::vector<T>& c) {
  return c.capacity() * sizeof(T);
}
template <typename T>
size_t column_heap_bytes(const NarrowColumn<T>& c) {
  return c.heap_bytes();
}
template <typename T>
size_t column_used_bytes(const std::vector<T>& c) {
  return c.size() * sizeof(T);
}
template <typename T>
size_t column_used_bytes(const NarrowColumn<T>& c) {
  return c.used_bytes();
}
// Appends `from`'s values to `to`, then frees `from`.
template <typename T>
void append_column(std::vector<T>& to, std::vector<T>&& from) {
  to.reserve(to.size() + from.size());
  to.insert(to.end(), from.begin(), from.end());
  std::vector<T>().swap(from);
}
template <typename T>
void append_column(NarrowColumn<T>& to, NarrowColumn<T>&& from) {
  to.append(std::move(from));
}
// Appends `rows` values stored as T in `bytes` (unaligned).
template <typename T>
void append_column_bytes(std::vector<T>& to, const char* bytes, size_t rows) {
  const size_t old = to.size();
  to.resize(old + rows);
  if (rows) std::memcpy(to.data() + old, bytes, rows * sizeof(T));
}
template <typename T>
void append_column_bytes(NarrowColumn<T>& to, const char* bytes, size_t rows) {
  to.reserve(to.size() + rows);
  for (size_t i = 0; i < rows; ++i) {
    T v;
    std::memcpy(&v, bytes + i * sizeof(T), sizeof(T));
    to.push_back(v);
  }
}

// One event's values, one member per column.
struct EventRow {
#define SOLLENS_ROW_FIELD(type, column, absent) type column = absent;
  SOLLENS_EVENT_COLUMNS(SOLLENS_ROW_FIELD, SOLLENS_ROW_FIELD)
#undef SOLLENS_ROW_FIELD
};

}  // namespace sollens
