#pragma once
// Repeating-kernel cycle detection over a whole trace: kernel sequences per
// device, cycles per sequence, and the tables the CLI writes. See README.md here.
#include <string>
#include <vector>

#include "analyses/cycles/cycle_detect.h"
#include "analyses/cycles/cycle_options.h"
#include "analyses/cycles/cycle_stats.h"
#include "analyses/cycles/kernel_sequence.h"
#include "store/event_store.h"
#include "table/table.h"

namespace sollens {

struct SequenceCycles {
  KernelSequence sequence;
  std::vector<CyclePattern> patterns;
};

struct CycleReport {
  std::vector<SequenceCycles> sequences;
  size_t kernels = 0;
  bool structure = true;  // CycleOptions::structure: the tables carry found_by / confidence / passes
  size_t patterns() const;
};

CycleReport analyze_cycles(const EventStore& store, const CycleOptions& options = {});

// One line for `sollens report`, e.g. "2 patterns in 1 sequence: decode 36 × 15 kernels …".
std::string cycles_summary(const CycleReport& report);

// --- tables -------------------------------------------------------------------------
// "cycles": one row per cycle (an outer cycle, and its layer when it has one),
// patterns numbered from 1 in sequence then centre order.
Table cycles_table(const CycleReport& report);

// uplifter's per-position layout: index, kernel_name, avg_duration_us, min_duration_us,
// max_duration_us, stddev_us, count, pct_of_cycle.
Table cycle_positions_table(const CycleStatistics& stats, const std::string& name);
// uplifter's "# Cycle Statistics" comment block (numbers %.3f), ending in a blank line.
std::string cycle_positions_preamble(const CycleStatistics& stats);

// One row per repetition: wall-clock span, busy, idle, Σ kernel time, period.
Table cycle_repetitions_table(const std::vector<RepetitionStats>& reps, const std::string& name);

// The kernels of one outer repetition that lie outside its layers (embedding, LM head,
// sampling, optimizer, ...), with where they sit and their average durations.
Table outside_layers_table(const KernelSequence& seq, const CyclePattern& pattern,
                           const std::string& name);

// LLM view: per sequence, the prefill and decode patterns with per-step latency,
// layers per step and the time outside the layers.
Table cycles_llm_table(const CycleReport& report);

}  // namespace sollens
