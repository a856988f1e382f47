#pragma once
// Structure mode: the LLM forwards inferred from op shapes (analyses/phases) are the
// steps of an unannotated generation loop. Kernel names alone cannot tell a prefill
// from a decode step when both launch the same kernels (a Hugging Face eager loop), so
// detection finds one "step" of every forward. Where forwards have a phase, each
// phase's forwards become one pattern of that phase (the 31 decode forwards: decode
// 31 × N; the prefill: prefill 1 × N), layers searched inside, and the detected
// patterns overlapping them give way. Traces without inferred phases are unchanged, and
// so is a sequence whose patterns LLM mode already named prefill or decode from the
// trace's own annotations or kernel names (those win).
#include <cstdint>
#include <string_view>
#include <vector>

#include "analyses/cycles/cycle_detect.h"
#include "analyses/cycles/kernel_sequence.h"
#include "analyses/cycles/step_evidence.h"
#include "analyses/phases/llm_phases.h"
#include "store/event_store.h"

namespace sollens {

// found_by of these patterns (not an annotation).
inline constexpr std::string_view kInferredForwardsEvidence = "inferred LLM forwards";

void apply_llm_forwards(const EventStore& store, const KernelSequence& seq, const StepMarks& marks,
                        const LlmPhases& phases, const CycleOptions& options, std::vector<CyclePattern>& patterns);

}  // namespace sollens
