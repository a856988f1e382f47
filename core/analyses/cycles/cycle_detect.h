#pragma once
// Repeating-kernel cycle detection over one kernel sequence: uplifter's anchor /
// spacing / verification / sub-cycle / grouping / deduplication / classification
// pipeline (seed-systems.md §a.2–a.6), with its defects fixed:
//  * deterministic: candidates are ordered by (count desc, first position), ids are
//    dense and numbered by first appearance, ties are broken by position;
//  * canonical phase: a cycle starts at the earliest kernel from which the sequence
//    is periodic (shifted back while kernel[s−1] == kernel[s−1+len]), so sub-cycles
//    are never rotated and do not spill into the kernels after the last layer;
//  * a sub-cycle (layer) does not replace its outer cycle (step): both are kept, so
//    the kernels outside the layers (embedding, LM head, sampling) stay reported.
//
// Complexity, n kernels in the sequence: O(n) to count and index names; O(n) over all
// gap checks (each anchor's occurrences are scanned once); one O(n) verification per
// anchor that passes the gap check and whose first occurrence is not already inside an
// accepted cycle of the same length (anchors of an accepted cycle are skipped, which
// keeps a step with hundreds of once-per-step kernels at one verification); and per
// accepted cycle of length m a sub-cycle search of O(m log m + m·k) for k candidate
// layer lengths tried (smallest first, stopping at the first length accepted). In
// practice near-linear: see tests/bench (1,000,000 synthetic kernels).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyses/cycles/cycle_options.h"
#include "analyses/cycles/kernel_sequence.h"

namespace sollens {

// A repeating window of `length` kernels; repetition r covers kernel indices
// [starts[r], starts[r] + length) of the sequence.
struct Cycle {
  uint32_t start = 0;
  uint32_t length = 0;
  std::vector<uint32_t> starts;
  size_t repetitions() const { return starts.size(); }
  uint32_t end() const { return starts.empty() ? start : starts.back() + length; }  // exclusive
  double center() const { return (static_cast<double>(start) + end()) / 2.0; }  // uplifter CenterPos
};

// kStep: the main repeating unit of a trace that is not known to be LLM inference.
// Chunked prefill and mixed batches come from inferred LLM forwards (llm_forward_steps.h).
enum class CyclePhase : uint8_t { kOther, kPrefill, kDecode, kStep, kChunkedPrefill, kMixed };

// Where a pattern's outer cycle (its step) comes from (launch_steps.h).
enum class StepSource : uint8_t {
  kDetected,       // repetitions found by detection
  kOneLaunch,      // one graph replay holding the layers
  kOneAnnotation,  // LLM mode: the kernels inside one GPU annotation holding the layers
  kAnnotations,    // one repetition per ProfilerStep#N annotation (or Optimizer.step iteration)
};

// How sure a pattern is: high when the trace says so (annotations, graph launches) or
// every anchor gap agreed; medium with deviating gaps; low for 2–4 repetitions found
// from the kernel names alone.
enum class Confidence : uint8_t { kHigh, kMedium, kLow };
const char* confidence_name(Confidence c);
const char* cycle_phase_name(CyclePhase phase);

struct CyclePattern {
  Cycle outer;                 // e.g. a training iteration or a decode step
  uint32_t anchor = 0;         // name id of the anchor kernel that found the outer cycle
  std::optional<Cycle> layer;  // sub-cycle inside each outer repetition, e.g. a layer
  uint32_t layer_offset = 0;   // first layer's kernel index inside an outer repetition
  uint32_t layers_per_outer = 0;
  CyclePhase phase = CyclePhase::kOther;
  StepSource step_source = StepSource::kDetected;
  // Structure mode: consecutive runs of layers in the first step (a pass of the
  // network each; classifier-free guidance runs it twice per denoising step).
  uint32_t passes = 1;
  // Structure mode: layers inside each layer window when layers of different kinds
  // alternate (the window is then their super-period: a sliding-window and a
  // full-attention layer, three Mamba layers and an attention layer); 1 otherwise.
  uint32_t layers_of_kinds = 1;
  uint32_t deviating_gaps = 0;  // anchor gaps outside the tolerance, bridged by runs
  bool few_steps = false;       // found with fewer than min_repetitions repetitions
  Confidence confidence = Confidence::kHigh;
  // The annotation's name when the step is one annotation; for kAnnotations the kind
  // ("ProfilerStep#", "Optimizer.step").
  std::string step_annotation;
  // Tokens per repetition where inferred LLM forwards give them (mean), else 0.
  int64_t tokens_per_step = 0;

  // What uplifter reports: the layer when there is one, else the outer cycle.
  const Cycle& effective() const { return layer ? *layer : outer; }
  // Structure mode: how the pattern was found, e.g. "anchor", "anchor+nesting",
  // "graph launch+anchor", "annotation ProfilerStep#".
  std::string found_by() const;
};

// Patterns of one sequence, ordered by the effective cycle's centre (uplifter's
// output order), ties by start. Phases are
// classified (§a.6): the significant pattern with the earliest centre is prefill, the
// one with the latest centre and a different signature decode, the rest other; a lone
// significant pattern is labelled decode (uplifter uses it as both).
std::vector<CyclePattern> detect_cycles(const KernelSequence& seq, const CycleOptions& options = {});

// Signature of a cycle: kernel_signature of its first `options.signature_kernels`
// kernels, joined by '|' (uplifter's getCycleSignature).
// Structure mode: the layer of the pattern's first outer repetition (uplifter's
// sub-cycle search), then collect_layers. Leaves a pattern without a layer alone.
void find_layers(const KernelSequence& seq, CyclePattern& pattern, const CycleOptions& options);

// Layer windows of every outer repetition (structure mode): windows of the layer's
// length matching the pattern's first layer window at options.sub_match, scanned
// through each repetition; sets layer starts, layers_per_outer (first repetition),
// layer_offset and passes.
void collect_layers(const KernelSequence& seq, CyclePattern& pattern, uint32_t layer_start,
                    uint32_t layer_length, const CycleOptions& options);

// Passes of a step from its runs of back-to-back layers: as many as the runs when
// they all hold the same number (two or more) of layers (the network run again), else
// 1 (stages of different depth are not passes).
uint32_t passes_of(const std::vector<uint32_t>& runs);

// Which of two patterns is the trace's main one: the kernels its steps cover, then
// more steps, then higher confidence, then more layer kernels per step.
bool ranks_above(const CyclePattern& a, const CyclePattern& b);

// Structure mode: the pattern whose steps cover the most kernels is the step
// (CyclePhase::kStep), every other pattern other; no prefill / decode without evidence.
void label_main_step(std::vector<CyclePattern>& patterns);

std::string cycle_signature(const KernelSequence& seq, const Cycle& cycle, size_t kernels = 10);

}  // namespace sollens
