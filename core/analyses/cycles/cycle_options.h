#pragma once
// Parameters of cycle detection. Defaults are uplifter's HEAD thresholds
// (seed-systems.md §a.2–a.6); each field says where it comes from.
#include <cstddef>
#include <cstdint>

#include "analyses/cycles/kernel_sequence.h"

namespace sollens {

struct CycleOptions {
  // Which sequences to search (uplifter: kFileOrder, everything interleaved). Default:
  // per device and stream, by start time. Per device alone lets a kernel of a side
  // stream land inside a layer (the SGLang Qwen3-8B trace: one stream-2 kernel inside
  // layer 6 of 36), which fixed-stride windows cannot absorb.
  KernelOrder order = KernelOrder::kStartTimePerStream;
  // The trace is LLM inference (--mode llm): a layer pattern inside one GPU annotation
  // is the layer of one step (launch_steps.h). Off: training traces keep their steps.
  bool llm = false;
  // Structure mode (default; off = uplifter's pipeline exactly, `--mode uplifter`):
  // anchors tolerate a few deviating gaps (their occurrences split into runs of even
  // spacing) and windows follow the anchor's occurrences, so a layer with an extra
  // kernel does not shift every later window; layers are found anywhere in a step
  // (several passes of the network); steps also come from the trace's own evidence
  // (ProfilerStep#N annotations, graph launches) and from 2–4 long repetitions; phases
  // are "step" outside LLM mode, prefill / decode only with evidence.
  bool structure = true;

  // --- outer cycles (§a.2) ---
  size_t min_anchor_count = 5;      // an anchor name occurs at least this often
  size_t max_anchor_divisor = 5;    // ... and at most n / this (integer division)
  size_t min_cycle_length = 10;     // distance of its first two occurrences, at least
  size_t gap_tolerance_pct = 20;    // every later gap within max(1, len·pct/100) (integer)
  double cycle_match = 0.95;        // a repetition matches the first when this share of names does
  size_t min_repetitions = 5;       // a cycle has at least this many accepted repetitions
  // Structure mode: an anchor's evenly spaced runs are each tried when it has at most
  // this many (a few deviating gaps); beyond, only its longest run.
  size_t max_anchor_runs = 8;
  // Structure mode: a long cycle (a training iteration, a denoising step) repeats only a
  // few times in a profile; with this many kernels it may have 2..min_repetitions−1.
  size_t few_steps_min_length = 30;
  size_t few_steps_min_repetitions = 2;

  // --- sub-cycles (layers) inside the first repetition of an outer cycle (§a.3) ---
  bool find_sub_cycles = true;
  size_t sub_cycle_above = 20;      // searched when the outer length is > this
  size_t min_sub_anchor_count = 3;  // a signature occurs at least this often in the outer cycle
  size_t min_sub_length = 5;        // min_sub_length <= length < outer / 2
  size_t sub_gap_tolerance_pct = 10;
  double sub_match = 0.80;          // a window matches when this share of signatures does
  // uplifter accepts 3 matching pairs of consecutive windows, i.e. 4 windows.
  size_t min_sub_repetitions = 4;

  // --- grouping, deduplication, classification (§a.2 step 4–5, §a.6) ---
  size_t signature_kernels = 10;    // pattern signature: signatures of its first N kernels
  size_t dedup_length_tolerance_pct = 20;  // |lenA − lenB| <= max(lenA, lenB)·pct/100
  double dedup_jaccard = 0.80;      // weighted Jaccard of signature → share of cycle time
  double significance_pct = 1.0;    // LLM phases: repetitions·length >= n·pct/100

  bool operator==(const CycleOptions&) const = default;
};

}  // namespace sollens
