#include "analyses/cycles/cycle_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/interval_math.h"

namespace sollens {

CycleStatistics position_statistics(const KernelSequence& seq, const Cycle& cycle) {
  CycleStatistics s;
  s.iterations = cycle.repetitions();
  s.kernels_per_cycle = cycle.length;
  s.positions.resize(cycle.length);
  for (uint32_t i = 0; i < cycle.length; ++i) {
    PositionStats& p = s.positions[i];
    p.index = i;
    p.kernel_name = seq.names[seq.name[cycle.start + i]];
    double total = 0;
    p.min_us = std::numeric_limits<double>::infinity();
    p.max_us = -std::numeric_limits<double>::infinity();
    for (uint32_t r : cycle.starts) {
      const double d = seq.dur[r + i];
      total += d;
      p.min_us = std::min(p.min_us, d);
      p.max_us = std::max(p.max_us, d);
    }
    p.count = cycle.starts.size();
    if (p.count == 0) continue;
    p.avg_us = total / static_cast<double>(p.count);
    double sq = 0;
    for (uint32_t r : cycle.starts) sq += (seq.dur[r + i] - p.avg_us) * (seq.dur[r + i] - p.avg_us);
    p.stddev_us = std::sqrt(sq / static_cast<double>(p.count));
    s.total_us += total;
  }
  s.avg_cycle_us = s.iterations ? s.total_us / static_cast<double>(s.iterations) : 0;
  for (auto& p : s.positions)
    p.pct_of_cycle = s.avg_cycle_us > 0 ? p.avg_us / s.avg_cycle_us * 100.0
                                        : std::numeric_limits<double>::quiet_NaN();
  return s;
}

std::vector<RepetitionStats> repetition_statistics(const KernelSequence& seq, const Cycle& cycle) {
  std::vector<RepetitionStats> out(cycle.starts.size());
  IntervalList intervals;
  for (size_t r = 0; r < cycle.starts.size(); ++r) {
    RepetitionStats& s = out[r];
    s.index = static_cast<uint32_t>(r);
    s.first_kernel = cycle.starts[r];
    s.start_us = std::numeric_limits<double>::infinity();
    s.end_us = -std::numeric_limits<double>::infinity();
    intervals.clear();
    for (uint32_t j = 0; j < cycle.length; ++j) {
      const size_t k = cycle.starts[r] + j;
      s.start_us = std::min(s.start_us, seq.ts[k]);
      s.end_us = std::max(s.end_us, seq.ts[k] + seq.dur[k]);
      s.kernel_time_us += seq.dur[k];
      intervals.push_back({seq.ts[k], seq.ts[k] + seq.dur[k]});
    }
    s.span_us = s.end_us - s.start_us;
    s.busy_us = total_length(merge_intervals(intervals));
    s.idle_us = std::max(0.0, s.span_us - s.busy_us);
  }
  for (size_t r = 0; r + 1 < out.size(); ++r) out[r].to_next_us = out[r + 1].start_us - out[r].start_us;
  return out;
}

}  // namespace sollens
