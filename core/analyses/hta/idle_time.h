#pragma once
// HTA's idle-time breakdown per stream (get_idle_time_breakdown with
// show_idle_interval_stats): a stream's kernels, memcpys and memsets (breakdown_events.h)
// by HTA start; each event after the first has a gap `start − previous end`:
//   host_wait    its launching runtime call started after the previous event ended (the
//                CPU did not enqueue in time);
//   kernel_wait  else, when the gap is under consecutive_kernel_delay µs (launch
//                overhead between back-to-back kernels);
//   other        else.
// An event without a launching call in the trace is compared as HTA compares it: HTA's
// join lands on row 0 of its table, so the trace's first complete event (file order)
// stands in for the launch.
// The first event has no gap but is categorised `other`, so every stream has an `other`
// row (0 when it has no other gap), as in HTA. Gaps are summed as HTA sums them: a
// negative gap (overlapping events on one stream, or HTA's rounding) counts too.
// Streams in the order of their first event.
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "analyses/hta/breakdown_events.h"
#include "analyses/hta/hta_options.h"
#include "model/trace_tree.h"
#include "table/table.h"

namespace sollens::hta {

// pandas describe() of one category's gaps (std: ddof 1; quartiles: linear interpolation).
struct GapStats {
  int64_t count = 0;
  double mean = 0, min = 0, q25 = 0, q50 = 0, q75 = 0, max = 0;
  std::optional<double> std;  // needs two gaps
};

struct CategoryIdle {
  bool present = false;  // some event of the stream falls in this category
  double idle_us = 0;    // Σ gaps
  GapStats gaps;
};

enum IdleCategory : uint8_t { kHostWait, kKernelWait, kOtherIdle };
inline constexpr std::array<const char*, 3> kIdleCategoryNames = {"host_wait", "kernel_wait", "other"};

struct StreamIdle {
  int64_t stream = -1;
  std::array<CategoryIdle, 3> categories;  // by IdleCategory
  double total_idle_us() const;
};

std::vector<StreamIdle> idle_time_by_stream(const HtaTrace& trace, const BreakdownEvents& events,
                                            double consecutive_kernel_delay_us);

// `idle_time_breakdown`: rank, stream, idle_category, idle_time, idle_time_ratio (both
// rounded to 2 decimals as HTA rounds them); a row per category present.
Table make_idle_time_table(TableKind kind);
void append_idle_time_rows(Table& table, int64_t rank, const std::vector<StreamIdle>& streams);
// `idle_time_interval_stats`: idle_category, rank, stream, count, mean, std, min, 25%,
// 50%, 75%, max (rounded to 2 decimals); a row per category present.
Table make_idle_interval_stats_table();
void append_idle_interval_rows(Table& table, int64_t rank, const std::vector<StreamIdle>& streams);

Table idle_time_breakdown_table(const HtaTrace& trace, const TraceTree& tree, const HtaOptions& options);
Table idle_time_interval_stats_table(const HtaTrace& trace, const TraceTree& tree, const HtaOptions& options);

}  // namespace sollens::hta
