#pragma once
// Steps the trace itself marks on the CPU side, as kernel ranges of one sequence: a
// kernel belongs to the CPU annotation around its launch (the runtime call with the
// same correlation id). Used in structure mode where no GPU ProfilerStep#N exists:
// ProfilerStep#N annotations (CPU side only in many traces), else Optimizer.step
// annotations (iteration k ends with the last kernel its optimizer step launched).
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analyses/cycles/kernel_sequence.h"
#include "analyses/cycles/launch_steps.h"
#include "store/event_store.h"

namespace sollens {

// Launch time (µs) of each correlation id: the runtime / driver call that launched it.
using LaunchTimes = std::unordered_map<int64_t, double>;
LaunchTimes launch_times(const EventStore& store);

// CPU annotations (user_annotation or cpu_op) whose name starts with `prefix`, each as
// the range of the sequence's kernels launched inside it; empty ranges dropped.
std::vector<KernelSpan> cpu_annotation_spans(const EventStore& store, const KernelSequence& seq,
                                             const LaunchTimes& launches, std::string_view prefix);

// Iterations ending at each optimizer step: [after the previous one's last kernel,
// this one's last kernel]; the first from the sequence's first kernel.
std::vector<KernelSpan> iterations_ending_in(const std::vector<KernelSpan>& optimizer_steps);

}  // namespace sollens
