#pragma once
// process_name / process_label / thread_name of an event's pid and tid, from the
// trace's "M" events as TraceLens keys them (process entries on tid 0); the string
// "Unknown" where there is none (traces without M events).
#include <string_view>
#include <unordered_map>

#include "store/event_store.h"

namespace sollens {

class ProcessThreadNames {
 public:
  explicit ProcessThreadNames(const EventStore& store);

  std::string_view process_name(StrId pid) const;
  std::string_view process_label(StrId pid) const;
  std::string_view thread_name(StrId pid, StrId tid) const;

 private:
  static uint64_t key(StrId a, StrId b) { return uint64_t(a) << 32 | b; }
  const EventStore& store_;
  std::unordered_map<StrId, StrId> process_name_, process_label_;
  std::unordered_map<uint64_t, StrId> thread_name_;
};

}  // namespace sollens
