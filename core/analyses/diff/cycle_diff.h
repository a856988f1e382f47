#pragma once
// Cycle-level diff of two runs' repeating-kernel patterns (analyses/cycles): step and
// layer latency per paired pattern, and per-position kernel times of each pair's
// repeating unit (the layer, else the step) matched by kernel signature.
//
// Pairing, deterministic: each baseline pattern in report order takes the first
// unpaired variant pattern with the same cycle signature; the rest pair in order within
// the same phase (prefill, decode, other), which pairs runs whose kernel names differ
// (two vendors). Positions: aligned by signature with the edit distance of
// sequence_alignment.h; when no signature is shared and the lengths are equal (other
// vendor, same model) position i pairs with position i.
#include <vector>

#include "analyses/cycles/cycles.h"
#include "analyses/diff/table_compare.h"
#include "table/table.h"

namespace sollens {

// "cycle_diff": pattern (baseline number, from 1), phase, level (step | layer),
// latency_us__<v>_diff/_pct, kernel_time_us__<v>_diff/_pct, then per run
// <tag>::pattern, <tag>::repetitions, <tag>::kernels, <tag>::latency_us (mean wall
// clock of a repetition), <tag>::kernel_time_us (mean Σ kernel durations). Unpaired
// patterns get a row with the other run's columns empty.
// "cycle_positions_diff": pattern, position, signature, baseline/variant kernel name,
// <tag>::avg_us and avg_us__<v>_diff/_pct.
struct CycleDiff {
  Table cycles{"cycle_diff", TableKind::kComparison};
  Table positions{"cycle_positions_diff", TableKind::kComparison};
};

CycleDiff diff_cycles(const CycleReport& baseline, const CycleReport& variant, const CompareTags& tags);

}  // namespace sollens
