#pragma once
// HTA's launch-queue counters (trace_counters.py): the number of GPU operations a
// stream has been asked to run and has not yet started. +1 at each launching runtime
// call (cudaLaunchKernel, cudaMemcpyAsync, hipLaunchKernel, ...) that has a GPU event,
// −1 when that GPU event starts.
#include <vector>

#include "analyses/hta/counter_series.h"
#include "analyses/hta/hta_options.h"
#include "analyses/hta/hta_trace.h"
#include "table/table.h"

namespace sollens::hta {

// The running queue length per stream, as get_queue_length_time_series has it.
std::vector<QueueLengthPoint> queue_length_series(const HtaTrace& trace);

// queue_length_summary: rank, stream, count, mean, std, min, 25%, 50%, 75%, max.
Table queue_length_summary_table(const HtaTrace& trace, const std::vector<QueueLengthPoint>& series);
// queue_length_time_series: rank, ts, pid, tid, stream, queue_length (one row per change).
Table queue_length_time_series_table(const HtaTrace& trace, const std::vector<QueueLengthPoint>& series);
// time_blocked_on_full_queue: rank, stream, duration_at_max_queue_length (µs),
// relative_duration_at_max_queue_length (of the trace's span), for each stream whose
// queue reached options.max_queue_length.
Table time_blocked_on_full_queue_table(const HtaTrace& trace, const std::vector<QueueLengthPoint>& series,
                                       const HtaOptions& options);

}  // namespace sollens::hta
