#include "analyses/cycles/llm_forward_steps.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace sollens {

namespace {

CyclePhase cycle_phase_of(LlmPhase phase) {
  switch (phase) {
    case LlmPhase::kPrefill: return CyclePhase::kPrefill;
    case LlmPhase::kChunkedPrefill: return CyclePhase::kChunkedPrefill;
    case LlmPhase::kDecode: return CyclePhase::kDecode;
    case LlmPhase::kMixed: return CyclePhase::kMixed;
    case LlmPhase::kNone: break;
  }
  return CyclePhase::kOther;
}

bool overlaps(const Cycle& c, const KernelSpan& s) {
  for (uint32_t start : c.starts)
    if (start <= s.last && s.first < start + c.length) return true;
  return false;
}

// One pattern whose repetitions are the given forwards (each its first kernel on,
// as long as the shortest).
CyclePattern pattern_of_forwards(const KernelSequence& seq, const std::vector<KernelSpan>& steps, CyclePhase phase,
                                 int64_t tokens_per_step, const CycleOptions& options) {
  CyclePattern p;
  p.anchor = seq.name[steps[0].first];
  p.step_source = StepSource::kAnnotations;
  p.step_annotation = std::string(kInferredForwardsEvidence);
  p.phase = phase;
  p.tokens_per_step = tokens_per_step;
  p.outer.start = steps[0].first;
  p.outer.length = std::numeric_limits<uint32_t>::max();
  for (const KernelSpan& s : steps) {
    p.outer.starts.push_back(s.first);
    p.outer.length = std::min(p.outer.length, s.size());
  }
  if (options.find_sub_cycles && p.outer.length > options.sub_cycle_above) find_layers(seq, p, options);
  return p;
}

// A prefill or decode LLM mode named whose steps the trace marks (annotations, graph
// launches) wins, kernels and all. One named from kernel names over detected
// repetitions keeps its phase but not its boundaries, a guess: detection may start a
// step anywhere in a forward (the Llama loop fixture's decode steps began 12 kernels
// before each forward, inside the prefill), so the inferred forwards replace it.
bool is_named(const CyclePattern& p) {
  return (p.phase == CyclePhase::kPrefill || p.phase == CyclePhase::kDecode) && p.step_source != StepSource::kDetected;
}

}  // namespace

void apply_llm_forwards(const EventStore& store, const KernelSequence& seq, const StepMarks& marks,
                        const LlmPhases& phases, const CycleOptions& options, std::vector<CyclePattern>& patterns) {
  if (!phases.any()) return;
  // The trace's own steps win: a phase named on them stays, and so do its kernels. The
  // inferred forwards fill in the other phases where they do not overlap those.
  std::vector<CyclePhase> named_phases;
  std::vector<Cycle> named_outers;
  for (const CyclePattern& p : patterns)
    if (is_named(p)) {
      named_phases.push_back(p.phase);
      named_outers.push_back(p.outer);
    }
  std::vector<CyclePattern> found;
  std::vector<KernelSpan> all_steps;
  for (LlmPhase phase : {LlmPhase::kPrefill, LlmPhase::kChunkedPrefill, LlmPhase::kMixed, LlmPhase::kDecode}) {
    if (std::find(named_phases.begin(), named_phases.end(), cycle_phase_of(phase)) != named_phases.end()) continue;
    std::vector<MarkSpan> spans;
    int64_t tokens = 0;
    for (const LlmForward& f : phases.forwards) {
      if (f.phase != phase) continue;
      // Mark spans hold their end; a forward ends where the next begins.
      spans.push_back({f.begin, std::nextafter(f.end, f.begin), 0});
      tokens += f.tokens;
    }
    std::sort(spans.begin(), spans.end());
    std::vector<KernelSpan> steps = kernels_in_spans(store, seq, marks, spans);
    std::erase_if(steps, [&](const KernelSpan& s) {
      return std::any_of(named_outers.begin(), named_outers.end(), [&](const Cycle& c) { return overlaps(c, s); });
    });
    if (steps.empty()) continue;
    const int64_t per_step = tokens / static_cast<int64_t>(spans.size());
    found.push_back(pattern_of_forwards(seq, steps, cycle_phase_of(phase), per_step, options));
    all_steps.insert(all_steps.end(), steps.begin(), steps.end());
  }
  if (found.empty()) return;
  std::erase_if(patterns, [&](const CyclePattern& p) {
    return !is_named(p) &&
           std::any_of(all_steps.begin(), all_steps.end(), [&](const KernelSpan& s) { return overlaps(p.outer, s); });
  });
  patterns.insert(patterns.end(), found.begin(), found.end());
  std::stable_sort(patterns.begin(), patterns.end(), [](const CyclePattern& a, const CyclePattern& b) {
    return a.effective().center() < b.effective().center();
  });
}

}  // namespace sollens
