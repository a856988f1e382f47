#pragma once
// Structure mode's outer-cycle search (CycleOptions::structure): anchors whose
// occurrences split into evenly spaced runs (a few deviating gaps), windows that
// follow the anchor, and long cycles seen only 2..min_repetitions−1 times; and its
// choice between two patterns with the same layers (the step over its passes). The
// layer collection, passes and the main-step label are declared in cycle_detect.h.
#include <cstdint>
#include <vector>

#include "analyses/cycles/cycle_detect.h"
#include "analyses/cycles/cycle_windows.h"

namespace sollens {

// Every evenly spaced run of each candidate anchor (most frequent first) is a
// candidate outer cycle; accepted ones (with their layers) are appended to `found`.
void find_structure_cycles(const KernelSequence& seq, const cycle_windows::Occurrences& occ,
                           const std::vector<uint32_t>& candidates, const CycleOptions& options,
                           std::vector<CyclePattern>& found);

// Anchors seen 2..min_repetitions−1 times, at least few_steps_min_length apart, whose
// windows cover at least half of the sequence and overlap no pattern found.
void find_few_step_cycles(const KernelSequence& seq, const cycle_windows::Occurrences& occ,
                          const CycleOptions& options, std::vector<CyclePattern>& found);

// Two layer-less patterns with the same signature and length whose windows do not
// overlap are one cycle seen in separate stretches (a stage's blocks in each training
// iteration, found from different anchors): `kept` takes f's repetitions. Returns
// whether it did.
bool joins_disjoint_repetitions(const CyclePattern& f, CyclePattern& kept);

// Whether pattern `f` replaces `kept` when both have the same layer signature.
bool replaces_in_structure(const CyclePattern& f, const CyclePattern& kept);

}  // namespace sollens
