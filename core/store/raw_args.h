#pragma once
// The one reader of events' raw args JSON: the analyses that need args (op shapes,
// perf-model inputs, collective metadata) ask it for the raw text or the Python
// values (PyValue) of the top-level keys they use. Parsing is lazy and reads the
// store's padded input in place.
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/py_value.h"
#include "store/event_store.h"

namespace sollens {

// Reuses one simdjson parser for every event it reads; not for sharing between threads.
class ArgsReader {
 public:
  explicit ArgsReader(const EventStore& store);
  ~ArgsReader();
  ArgsReader(const ArgsReader&) = delete;
  ArgsReader& operator=(const ArgsReader&) = delete;
  ArgsReader(ArgsReader&&) noexcept;
  ArgsReader& operator=(ArgsReader&&) noexcept;

  // raw[k]: the JSON text of args[keys[k]] without trailing whitespace, "" when absent
  // (a repeated key: the last one, as Python's json keeps). false when the event has
  // no args or they are not a JSON object (raw is then all "").
  bool find_raw(uint32_t event, std::span<const std::string_view> keys, std::span<std::string_view> raw);

  // values[k]: json.loads(args)[keys[k]], None when absent. Numbers read as Python's
  // json reads them: ints of any size ("-0" is 0), anything with . e or E a float.
  // false (values all None) when the args are missing, malformed or not an object.
  bool read(uint32_t event, std::span<const std::string_view> keys, std::span<PyValue> values);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Numbers events by the raw text of some of their args: events whose texts are equal
// get the same id, so the work per id (building values, printing them) runs once per
// distinct text. A trace repeats a few hundred distinct argument lists thousands of
// times.
class ArgsTextIndex {
 public:
  // `keys` must outlive the index (string literals, as a rule).
  ArgsTextIndex(const EventStore& store, std::vector<std::string_view> keys);

  // The event's id. Ids count up from 0 in order of first sight: an id equal to the
  // previous size() is new, and the caller then reads this event's values. Each call
  // scans the args: callers that meet an event more than once remember its id.
  uint32_t intern(uint32_t event);
  uint32_t size() const { return static_cast<uint32_t>(index_.size()); }
  // The values of the keys for `event` (see ArgsReader::read).
  void read(uint32_t event, std::span<PyValue> values) { reader_.read(event, keys_, values); }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  const EventStore& store_;
  std::vector<std::string_view> keys_;
  ArgsReader reader_;
  std::unordered_map<std::string, uint32_t, Hash, std::equal_to<>> index_;
  std::vector<std::string_view> raw_;  // reused per intern
  std::string key_;                    // reused per intern
};

}  // namespace sollens
