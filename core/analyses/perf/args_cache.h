#pragma once
// The shape/type args of cpu_ops, built once per distinct text: events are numbered by
// the raw JSON text of the keys the perf models read ("Input Dims", "Input type",
// "Input Strides", "Concrete Inputs", "Output type", and the MoE pseudo ops' "MoE topk"
// and "MoE GEMM gated"; see ArgsTextIndex), and only the
// first event with a given text is read into PyValues.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analyses/perf/event_args.h"
#include "store/event_store.h"
#include "store/raw_args.h"

namespace sollens::perf {

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
  explicit ArgsCache(const EventStore& store);
  // Index of the event's args entry (read on first sight of its text).
  uint32_t intern(uint32_t event);
  const ArgsEntry& operator[](uint32_t id) const { return entries_[id]; }

 private:
  const EventStore& store_;
  ArgsTextIndex index_;
  std::vector<ArgsEntry> entries_;
  std::unordered_map<std::string, uint32_t> display_index_;
  std::vector<int32_t> event_ids_;  // per event: its entry, or -1 before its first intern
};

}  // namespace sollens::perf
