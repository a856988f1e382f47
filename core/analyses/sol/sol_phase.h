#pragma once
// The phase of an op for the SOL groupings: its innermost user annotation, else the LLM
// phase inferred from the data (analyses/phases: prefill, decode, ...).
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analyses/phases/llm_phases.h"
#include "store/event_store.h"
#include "table/table.h"

namespace sollens {

inline constexpr std::string_view kNoPhase = "(no phase)";

// The innermost user annotation (cat user_annotation) on an event's thread whose span
// holds the event's start; serving frameworks' own names (vLLM, SGLang, ATOM) win this
// way. ProfilerStep#N marks are steps, not phases (by_step has them). Outside every
// annotation: the inferred LLM phase of the forward around the event.
class PhaseLookup {
 public:
  explicit PhaseLookup(const EventStore& store);
  // kNoPhase when no annotation holds the event and no phase was inferred for it.
  std::string_view phase_of(uint32_t event) const;

 private:
  std::string_view annotation_of(uint32_t event) const;
  struct Span {
    double start, end;
    uint32_t event;
  };
  const EventStore& store_;
  LlmPhases llm_;
  std::unordered_map<uint64_t, std::vector<Span>> by_thread_;  // sorted by start, longer first
};

// Adds to sol_by_phase, for rows of an inferred LLM phase: forwards, tokens (their
// embedding tokens, summed) and tokens_per_s over the row's wall_time_ms (when the
// table has that column); empty cells for other rows.
void add_phase_token_columns(Table& by_phase, const EventStore& store);

}  // namespace sollens
