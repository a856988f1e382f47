#pragma once
// A decode step replayed by one graph launch (CUDA/HIP graphs: every kernel of the
// replay carries the launch's correlation id) repeats its layers inside one launch.
// Detection then finds the layer as the outermost cycle, and the LLM view would call
// each layer a "step". This pass recognises that case from the trace itself: a
// pattern without a layer whose every repetition lies in one launch becomes the layer
// of a one-repetition step spanning the whole replay, so per-step latency, layers per
// step and the kernels outside the layers (embedding, LM head, sampling) are right.
#include <cstdint>
#include <string>
#include <string_view>
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
  std::string name;
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

// A ProfilerStep#N annotation as kernel indices of the sequence, inclusive.
struct KernelSpan {
  uint32_t first = 0;
  uint32_t last = 0;
  uint32_t size() const { return last - first + 1; }
};

// The sequence's kernels inside each annotation (kernels are in time order, so each
// annotation holds a contiguous range); annotations holding no kernel are dropped.
std::vector<KernelSpan> kernel_spans(const KernelSequence& seq,
                                     const std::vector<AnnotationSpan>& annotations);

// Structure mode: ProfilerStep#N annotations (or iterations ending in Optimizer.step)
// are steps. A layer-less pattern whose
// repetitions lie in one of them becomes the layer of that one step; one spread over
// several, with two or more repetitions in each, becomes the layer of those steps.
// A detected step as long as marked steps is re-phased to them (repetitions start
// where the marks do, not mid-iteration; PARAM linear: 39 iterations of 220 kernels
// after a partial first one, where the canonical phase gave 38). With two or more
// steps and no pattern that already has steps of their size, the
// steps become a pattern of their own (its layers searched inside the first step): a
// training run profiled for three iterations has no anchor seen five times.
// Structure mode: a layer-less pattern whose repetitions lie inside one or more
// repetitions of another pattern's (longer, layered) steps is a second kind of layer
// of those steps (a vision tower and a text tower in one forward), collected through
// every one of them (an anchor with many runs verified only one step's).
void nest_in_detected_steps(const KernelSequence& seq, const CycleOptions& options,
                            std::vector<CyclePattern>& patterns);

// Step evidence that is not an annotation, as `evidence` (found_by shows it as is):
// one step per graph launch, and python frames (followed by the frame's name).
inline constexpr std::string_view kGraphLaunchEvidence = "graph launches";
inline constexpr std::string_view kPythonFrameEvidence = "python frame ";

// `evidence` names the annotation for found_by ("ProfilerStep#", "Optimizer.step"),
// or is one of the two above.
void promote_profiler_steps(const KernelSequence& seq, const std::vector<KernelSpan>& steps,
                            const std::string& evidence, const CycleOptions& options,
                            std::vector<CyclePattern>& patterns);

// LLM mode with structure: prefill or decode only where the trace says so: kernel
// names of the step (paged / split-KV / decode_attention → decode; varlen / prefill /
// context attention → prefill), a graph replay (decode), the step annotation's name
// (context / prefill / extend → prefill). At most one prefill and one decode per
// sequence (the main one of each, ranks_above); without evidence the main pattern is a
// step.
void label_llm_phases(const KernelSequence& seq, std::vector<CyclePattern>& patterns);

}  // namespace sollens
