#pragma once
// Layers of two or more kinds that alternate through a step (sliding-window and full
// attention layers, a MoE layer every other layer, Mamba and attention layers). A
// layer found by its anchor matches one kind only: its windows sit one super-period
// apart with the other kinds as equal holes between them, and a step of 24 layers
// would come out as 12 (or as 13, or with windows that start mid-layer). Here the
// repeating unit becomes the super-period (one layer of each kind), collected again
// through every step.
#include <vector>

#include "analyses/cycles/cycle_detect.h"

namespace sollens {

// When the runs of the pattern's layer windows in its first step (one window, or up to
// eight back to back) mostly start one distance apart, with a hole of at least
// min_sub_length kernels before the next run (layers of another kind), and the
// sequence is periodic with that distance over two or more of them, the layer becomes
// that super-period: the tiling from the start of the periodic run or from its end (a
// first layer that differs breaks periodicity at the start), whichever holds more
// windows. Sets layers_of_kinds. Returns whether it changed p.
bool merge_alternating_kinds(const KernelSequence& seq, CyclePattern& p, const CycleOptions& options);

// Drops patterns whose steps and layers are another's (two kinds' patterns of one
// step both become the same super-period).
void drop_duplicate_patterns(std::vector<CyclePattern>& patterns);

}  // namespace sollens
