#pragma once
// Speed of light of one step and one layer, from cycle detection: per detected
// pattern (its outer cycle, a step; and its layer, when it has one), the mean over
// repetitions of
//   sol_latency_us     Σ estimates of the ops whose kernels the repetition holds
//   measured_span_us   wall clock from its first kernel's start to its last kernel's end
// and the gap between them, split so that the parts add up exactly:
//   span = sol_latency + kernel_inefficiency + unmodeled + idle
//   kernel_inefficiency  busy time of estimated ops' kernels − their estimates
//   unmodeled            busy time of the other kernels (unmodeled ops, collectives, unlinked)
//   idle                 span − busy time of all its kernels
// An op whose kernels fall in several repetitions gives each the share of its estimate
// that its kernel time there is of its whole kernel time.
#include <vector>

#include "analyses/cycles/cycles.h"
#include "analyses/sol/sol_ops.h"
#include "store/event_store.h"
#include "table/table.h"

namespace sollens {

struct SolSpan {
  double sol_latency_us = 0, span_us = 0, busy_us = 0, estimated_kernel_us = 0;
  double inefficiency_us() const { return estimated_kernel_us - sol_latency_us; }
  double unmodeled_us() const { return busy_us - estimated_kernel_us; }
  double idle_us() const { return span_us - busy_us; }
};

// One repetition: kernels [first, first + length) of the sequence.
SolSpan sol_span(const EventStore& store, const SolOps& ops, const KernelSequence& seq, uint32_t first,
                 uint32_t length);
// Every repetition of a cycle, in order (each op's kernel time found once for all).
std::vector<SolSpan> sol_spans(const EventStore& store, const SolOps& ops, const KernelSequence& seq,
                               const Cycle& cycle);

// "sol_by_step": sequence, pattern, level (step / layer), llm_phase, repetitions,
// kernels, sol_latency_us, measured_span_us, efficiency_pct, kernel_inefficiency_us,
// unmodeled_us, idle_us, busy_us (means per repetition), then for steps of inferred
// LLM forwards tokens (per step) and tokens_per_s (over the mean step wall time: first
// kernel to the first kernel after the step, the sequence's last step its span), then
// that wall time per repetition: wall_us (mean), wall_p50_us, wall_p90_us, and
// wall_efficiency_pct (sol_latency_us / wall_us: idle included). No rows without cycles.
Table sol_by_step_table(const EventStore& store, const SolOps& ops, const CycleReport& cycles);

}  // namespace sollens
