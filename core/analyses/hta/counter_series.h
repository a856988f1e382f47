#pragma once
// What HTA's counter analyses (trace_counters.py) share: the events HTA still holds after
// loading, the order in which pandas' sort_values lays out equal timestamps, pandas'
// describe(), and the counter series themselves as plain values (the sheets and the
// Perfetto trace with counter tracks are both written from them).
#include <cstdint>
#include <string>
#include <vector>

#include "analyses/hta/hta_options.h"
#include "analyses/hta/hta_trace.h"
#include "analyses/hta/pandas_like.h"
#include "model/trace_tree.h"
#include "table/table.h"

namespace sollens::hta {

// The permutation numpy's argsort(kind="quicksort") gives on a CPU without its SIMD
// sorts: introsort (median of three, insertion sort under 16 elements, heapsort past
// the depth limit). It is not stable; HTA's sort_values("ts") takes its tie order from
// it, and that order moves the running counts that the summaries describe.
std::vector<uint32_t> numpy_quicksort_order(const std::vector<double>& keys);

// One change of a stream's launch queue: +1 at a launching runtime call, −1 when a GPU
// event starts. Points are grouped by stream (ascending), each stream's in HTA's order.
struct QueueLengthPoint {
  double ts = 0;          // µs, HTA's rounded time of the call or the GPU start
  int64_t stream = -1;
  int64_t queue_length = 0;
  uint32_t gpu_event = 0;  // the GPU event counted (its pid and tid name the track)
};

// One change of the summed bandwidth of one kind of memory operation: + at a
// memcpy/memset start, − at its end. Grouped by kind (name order), then HTA's order.
struct MemoryBwPoint {
  double ts = 0;  // µs
  std::string_view kind;  // "Memcpy DtoD", "Memcpy HtoD", "Memcpy DtoH", "Memset", ...
  double memory_bw_gbps = 0;
  uint32_t gpu_event = 0;  // the memcpy/memset whose start or end this is
};

struct CounterSeries {
  int64_t rank = 0;
  std::vector<QueueLengthPoint> queue_length;
  std::vector<MemoryBwPoint> memory_bw;
};

// Both series of one rank's trace (the counter tracks of the Perfetto trace).
CounterSeries counter_series(const HtaTrace& trace);

// The counter sheets in report order: queue_length_summary, queue_length_time_series
// (with options.time_series), time_blocked_on_full_queue, memory_bw_summary,
// memory_bw_time_series (with options.time_series), cupti_counters.
std::vector<Table> counter_tables(const HtaTrace& trace, const TraceTree& tree, const HtaOptions& options);

}  // namespace sollens::hta
