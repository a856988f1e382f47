#pragma once
// The phase of an op for the SOL groupings: its innermost user annotation.
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "store/event_store.h"

namespace sollens {

inline constexpr std::string_view kNoPhase = "(no phase)";

// The innermost user annotation (cat user_annotation) on an event's thread whose span
// holds the event's start. ProfilerStep#N marks are steps, not phases (by_step has them).
class PhaseLookup {
 public:
  explicit PhaseLookup(const EventStore& store);
  // kNoPhase when no annotation holds the event.
  std::string_view phase_of(uint32_t event) const;

 private:
  struct Span {
    double start, end;
    uint32_t event;
  };
  const EventStore& store_;
  std::unordered_map<uint64_t, std::vector<Span>> by_thread_;  // sorted by start, longer first
};

}  // namespace sollens
