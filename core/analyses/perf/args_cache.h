#pragma once
// The shape/type args of cpu_ops, parsed once per distinct text. A trace repeats a few
// hundred distinct argument lists thousands of times, so events are keyed on the raw
// JSON text of the keys the perf models read ("Input Dims", "Input type",
// "Input Strides", "Concrete Inputs", "Output type"), found without building values,
// and only the first event with a given text is parsed into PyValues.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analyses/perf/py_value.h"
#include "store/event_store.h"

namespace sollens::perf {

// Raw JSON text of the top-level values the models read ("" when the key is absent).
struct RawModelArgs {
  std::string_view dims, types, strides, concrete, output_type;
};
// false when the event's args are not a JSON object (the caller then keys on the whole
// text).
bool scan_model_args(const EventStore& store, uint32_t event, RawModelArgs& out);

struct ArgsEntry {
  EventArgs args;
  // The four Input columns as TraceLens prints them: str() of list_to_tuple(value) in
  // unified_perf_summary (`tuple_text`), repr of the list in the perf sheets' "_first"
  // columns (`list_text`); nullopt for None. Order: dims, types, strides, concrete.
  std::array<std::optional<std::string>, 4> tuple_text;
  std::array<std::optional<std::string>, 4> list_text;
  // Equal for entries whose four tuple_text cells are equal (texts that differ only in
  // spacing): TraceLens groups on the printed values.
  uint32_t display_id = 0;
};

class ArgsCache {
 public:
  explicit ArgsCache(const EventStore& store) : store_(store) {}
  // Index of the event's args entry (parsed on first sight of its text).
  uint32_t intern(uint32_t event);
  const ArgsEntry& operator[](uint32_t id) const { return entries_[id]; }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  const EventStore& store_;
  std::vector<ArgsEntry> entries_;
  std::unordered_map<std::string, uint32_t, Hash, std::equal_to<>> index_;
  std::unordered_map<std::string, uint32_t> display_index_;
  std::vector<int32_t> event_ids_;  // per event: its entry, or -1 before its first intern
  std::string key_;                 // reused buffer
};

}  // namespace sollens::perf
