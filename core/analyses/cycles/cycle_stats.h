#pragma once
// Statistics of a detected cycle: uplifter's per-position table (ExtractCycle,
// seed-systems.md §a.7: population standard deviation, cycle time = Σ kernel
// durations) and, beyond uplifter, each repetition's wall-clock span, busy time
// (union of its kernels' intervals) and idle time.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyses/cycles/cycle_detect.h"
#include "analyses/cycles/kernel_sequence.h"

namespace sollens {

struct PositionStats {
  uint32_t index = 0;
  std::string kernel_name;  // the name in the first repetition
  double avg_us = 0, min_us = 0, max_us = 0, stddev_us = 0;  // stddev: population (÷ N)
  size_t count = 0;
  double pct_of_cycle = 0;  // avg / avg cycle time · 100; NaN when the cycle time is 0
};

struct CycleStatistics {
  size_t iterations = 0;      // repetitions
  uint32_t kernels_per_cycle = 0;
  double avg_cycle_us = 0;    // Σ kernel durations / repetitions (uplifter's "cycle time")
  double total_us = 0;        // Σ kernel durations over all repetitions
  std::vector<PositionStats> positions;
};

CycleStatistics position_statistics(const KernelSequence& seq, const Cycle& cycle);

struct RepetitionStats {
  uint32_t index = 0;         // 0-based repetition number
  uint32_t first_kernel = 0;  // kernel index in the sequence
  double start_us = 0;        // earliest kernel start
  double end_us = 0;          // latest kernel end
  double span_us = 0;         // end − start: wall clock
  double busy_us = 0;         // union of the kernels' [ts, ts + dur]
  double idle_us = 0;         // span − busy
  double kernel_time_us = 0;  // Σ durations (uplifter)
  std::optional<double> to_next_us;  // next repetition's start − this start (step period)
};

std::vector<RepetitionStats> repetition_statistics(const KernelSequence& seq, const Cycle& cycle);

}  // namespace sollens
