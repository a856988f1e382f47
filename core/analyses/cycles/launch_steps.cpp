#include "analyses/cycles/launch_steps.h"

#include <algorithm>

#include "store/event_store.h"

namespace sollens {

namespace {

// The pattern's cycle becomes the layer of one step covering kernels [first, last].
void make_layer_of_one_step(CyclePattern& p, uint32_t first, uint32_t last) {
  Cycle step;
  step.start = first;
  step.length = last - first + 1;
  step.starts = {first};
  p.layer_offset = p.outer.start - first;
  p.layers_per_outer = static_cast<uint32_t>(p.outer.repetitions());
  p.layer = std::move(p.outer);
  p.outer = std::move(step);
}

}  // namespace

void promote_single_launch_layers(const std::vector<int64_t>& launch,
                                  std::vector<CyclePattern>& patterns) {
  for (CyclePattern& p : patterns) {
    if (p.layer || p.outer.repetitions() == 0 || p.outer.end() > launch.size()) continue;
    const int64_t id = launch[p.outer.start];
    if (id < 0 || id == kNoValue) continue;
    bool one_launch = true;
    for (uint32_t i = p.outer.start; i < p.outer.end() && one_launch; ++i) one_launch = launch[i] == id;
    if (!one_launch) continue;
    // The step: every kernel of that launch in this sequence (they are contiguous in
    // a replay; a stray kernel of another launch in between stays inside the span).
    uint32_t first = p.outer.start, last = p.outer.end() - 1;
    for (uint32_t i = 0; i < launch.size(); ++i)
      if (launch[i] == id) {
        if (i < first) first = i;
        if (i > last) last = i;
      }
    make_layer_of_one_step(p, first, last);
    p.step_source = StepSource::kOneLaunch;
  }
}

void promote_single_annotation_layers(const KernelSequence& seq,
                                      const std::vector<AnnotationSpan>& annotations,
                                      std::vector<CyclePattern>& patterns) {
  for (CyclePattern& p : patterns) {
    if (p.layer || p.outer.repetitions() == 0 || p.outer.end() > seq.size()) continue;
    double begin = seq.ts[p.outer.start], end = begin;
    for (uint32_t i = p.outer.start; i < p.outer.end(); ++i) {
      begin = std::min(begin, seq.ts[i]);
      end = std::max(end, seq.ts[i] + seq.dur[i]);
    }
    const AnnotationSpan* inner = nullptr;
    for (const AnnotationSpan& a : annotations)
      if (a.begin <= begin && end <= a.end && (!inner || a.end - a.begin < inner->end - inner->begin))
        inner = &a;
    if (!inner) continue;
    // The step: the sequence's kernels that run inside the annotation (the sequence
    // is in time order, so they are contiguous around the pattern).
    uint32_t first = p.outer.start, last = p.outer.end() - 1;
    while (first > 0 && seq.ts[first - 1] >= inner->begin &&
           seq.ts[first - 1] + seq.dur[first - 1] <= inner->end)
      --first;
    while (last + 1 < seq.size() && seq.ts[last + 1] >= inner->begin &&
           seq.ts[last + 1] + seq.dur[last + 1] <= inner->end)
      ++last;
    make_layer_of_one_step(p, first, last);
    p.step_source = StepSource::kOneAnnotation;
  }
}

}  // namespace sollens
