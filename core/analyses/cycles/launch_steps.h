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
#include "analyses/cycles/kernel_sequence.h"

namespace sollens {

// launch[i]: the launch (correlation) id of kernel i of the sequence, or a negative
// value / kNoValue when unknown. Patterns are changed in place.
void promote_single_launch_layers(const std::vector<int64_t>& launch,
                                  std::vector<CyclePattern>& patterns);

// A GPU annotation's span on the sequence's device (µs).
struct AnnotationSpan {
  double begin = 0;
  double end = 0;
};

// LLM mode only (CycleOptions::llm): an eager step has no graph launch, but serving
// frameworks annotate it (vLLM's `execute_context_…`, a compiled graph's `## Call
// CompiledFxGraph …`). A layer-less pattern whose repetitions all lie inside one GPU
// annotation becomes the layer of a one-repetition step made of the sequence's kernels
// inside the innermost such annotation. Not applied outside LLM mode: in a training
// trace a run-wide annotation around several iterations would turn steps into layers.
void promote_single_annotation_layers(const KernelSequence& seq,
                                      const std::vector<AnnotationSpan>& annotations,
                                      std::vector<CyclePattern>& patterns);

}  // namespace sollens
