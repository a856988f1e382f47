#pragma once
// What HTA's breakdown analyses share:
//   * the GPU events they read: HTA's loader drops the GPU events launched in the last
//     profiler step (HtaTrace::last_step_start: a GPU event whose launching call starts at
//     or after it is dropped); with one ProfilerStep#N name or none, the breakdowns drop
//     only those launched after the last step ends. An event without a launching call in
//     the trace is kept;
//   * HTA's interval merge (utils.merge_kernel_intervals): intervals by start, a new group
//     where a start is after every earlier end, each group [min start, max end]. HTA's
//     rounding can give a sub-µs event end < start; such an interval is merged as it is
//     (a lone one then counts negative), as HTA does;
#include <cstdint>
#include <vector>

#include "analyses/hta/hta_trace.h"
#include "analyses/hta/pandas_like.h"

namespace sollens::hta {

struct BreakdownEvents {
  std::vector<uint32_t> gpu;    // kernels, memcpy, memset that HTA keeps, by HTA start
  std::vector<uint32_t> syncs;  // cuda_sync events on a stream that HTA keeps, by HTA start
};

BreakdownEvents breakdown_events(const HtaTrace& trace);

// The time before which (or at which, `inclusive`) a launching call keeps its GPU events.
struct StepCut {
  double limit = 0;
  bool inclusive = true;
  bool keeps(double launch_ts) const { return inclusive ? launch_ts <= limit : launch_ts < limit; }
};
StepCut step_cut(const HtaTrace& trace);

struct Interval {
  double start = 0, end = 0;
};
// HTA's merge of the intervals (sorted here; input order does not matter).
std::vector<Interval> merge_like_hta(std::vector<Interval> intervals);
// Σ (end − start) of merged intervals (negative for a lone inverted one, as in HTA).
double merged_length(const std::vector<Interval>& merged);


}  // namespace sollens::hta
