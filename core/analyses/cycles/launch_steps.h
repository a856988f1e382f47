#pragma once
// A decode step replayed by one graph launch (CUDA/HIP graphs: every kernel of the
// replay carries the launch's correlation id) repeats its layers inside one launch.
// Detection then finds the layer as the outermost cycle, and the LLM view would call
// each layer a "step". This pass recognises that case from the trace itself: a
// pattern without a layer whose every repetition lies in one launch becomes the layer
// of a one-repetition step spanning the whole replay, so per-step latency, layers per
// step and the kernels outside the layers (embedding, LM head, sampling) are right.
#include <cstdint>
#include <vector>

#include "analyses/cycles/cycle_detect.h"

namespace sollens {

// launch[i]: the launch (correlation) id of kernel i of the sequence, or a negative
// value / kNoValue when unknown. Patterns are changed in place.
void promote_single_launch_layers(const std::vector<int64_t>& launch,
                                  std::vector<CyclePattern>& patterns);

}  // namespace sollens
