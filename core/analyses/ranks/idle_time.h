#pragma once
// HTA's idle-time breakdown per stream (breakdown_analysis._analyze_idle_time_for_stream):
// the GPU events of a stream (kernels, memcpy, memset) in ts order; each gap
// `ts − previous end` is
//   host wait    when the event's launching runtime call started after the previous
//                event ended (the CPU did not enqueue fast enough);
//   kernel wait  else, when the gap is under `consecutive_kernel_delay` (launch
//                overhead between back-to-back kernels);
//   other        else (an unlinked event has no runtime start: never host wait).
// Gaps are summed as HTA sums them (a negative gap, from overlapping events on one
// stream, counts too). The threshold is compared with the trace's µs as HTA does with
// its timestamps; default 30.
#include <string>
#include <vector>

#include "model/trace_tree.h"
#include "store/event_store.h"
#include "table/table.h"

namespace sollens::ranks {

struct StreamIdle {
  std::string stream;  // the `stream` arg, else the event's tid
  double host_wait_us = 0, kernel_wait_us = 0, other_us = 0;
  bool has_host_wait = false, has_kernel_wait = false, has_other = false;  // a gap of that kind exists
};

std::vector<StreamIdle> idle_time_by_stream(const EventStore& store, const TraceTree& tree,
                                            double consecutive_kernel_delay = 30);

struct RankSummary;
// `idle_time_breakdown`: rank, stream, idle_category (host_wait, kernel_wait, other),
// idle_time (µs), idle_time_ratio (of the stream's idle time); HTA's columns, a row
// per category that has a gap.
Table idle_time_table(const std::vector<RankSummary>& ranks);

}  // namespace sollens::ranks
