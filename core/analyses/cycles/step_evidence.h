#pragma once
// Steps the trace itself marks on the CPU side, as kernel ranges of one sequence: a
// kernel belongs to the CPU annotation around its launch (the runtime call with the
// same correlation id). Used in structure mode where no GPU ProfilerStep#N exists:
// ProfilerStep#N annotations (CPU side only in many traces), else Optimizer.step
// annotations (iteration k ends with the last kernel its optimizer step launched),
// else DistributedDataParallel forwards (iteration k starts with the first kernel its
// forward launched), else graph launches (one step per replay), else repeated python
// frames (the training or generation loop's body). The CPU side is indexed once per
// trace (StepMarks, O(events)); each sequence then places its kernels, O(n log m).
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analyses/cycles/kernel_sequence.h"
#include "analyses/cycles/launch_steps.h"
#include "store/event_store.h"

namespace sollens {

// A CPU span (µs) and its row in the store.
struct MarkSpan {
  double begin = 0, end = 0;
  size_t row = 0;
  bool operator<(const MarkSpan& o) const { return begin != o.begin ? begin < o.begin : end < o.end; }
};

struct StepMarks {
  std::unordered_map<int64_t, double> launch_time;  // correlation id -> its runtime call's start
  // CPU annotations (user_annotation, cpu_op or python_function) by name prefix, by start.
  std::vector<MarkSpan> profiler_steps;   // ProfilerStep#
  std::vector<MarkSpan> optimizer_steps;  // Optimizer.step
  std::vector<MarkSpan> ddp_forwards;     // DistributedDataParallel.forward
  std::vector<MarkSpan> ddp_frames;       // nn.Module: DistributedDataParallel
  std::unordered_set<int64_t> graph_launches;  // correlation ids of …GraphLaunch calls
  std::vector<size_t> python_frames;  // rows of python_function events with an id
};
StepMarks index_step_marks(const EventStore& store);

// Each span's kernels as a range of the sequence, spans holding none dropped.
std::vector<KernelSpan> kernels_in_spans(const EventStore& store, const KernelSequence& seq,
                                         const StepMarks& marks, const std::vector<MarkSpan>& spans);

// Iterations ending at each optimizer step: [after the previous one's last kernel,
// this one's last kernel]; the first from the sequence's first kernel.
std::vector<KernelSpan> iterations_ending_in(const std::vector<KernelSpan>& optimizer_steps);

// Iterations starting at each forward: [this one's first kernel, before the next
// one's first kernel]; the last up to the sequence's last kernel (`kernels` in all).
std::vector<KernelSpan> iterations_starting_at(const std::vector<KernelSpan>& forwards, uint32_t kernels);

// The kernels each graph launch replays in this sequence, for launches replaying two
// or more of them.
std::vector<KernelSpan> graph_launch_spans(const EventStore& store, const KernelSequence& seq,
                                           const StepMarks& marks);

// The loop body of the python call tree: from the top, the first level where frames
// of one name are seen two or more times and frames so repeated hold at least half of
// the sequence's kernels (a level where one frame holds that many is descended into).
// Iterations start at each frame of the repeated name seen first at that level (the
// forward of forward, backward, optimizer step). `name` is set to that frame's name.
std::vector<KernelSpan> repeated_python_frames(const EventStore& store, const KernelSequence& seq,
                                               const StepMarks& marks, std::string& name);

}  // namespace sollens
