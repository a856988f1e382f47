#pragma once
// `temporal_breakdown` (HTA get_temporal_breakdown): one row per rank of its GPU time
// from the first event's start to the last one's end (kernel_time), split into
//   idle_time        kernel_time − the merged busy time of every GPU event;
//   compute_time     the merged time of COMPUTATION kernels;
//   non_compute_time kernel_time − compute − idle: busy time with no computation running
//                    (communication, memory, syncs);
// each also as a % of kernel_time rounded to 2 decimals. HTA's GPU events here are the
// kernels, memcpys, memsets and cuda_sync events on a stream (breakdown_events.h).
//
// HTA rounds each start up and each end down; a sub-µs event then ends 1 µs before it
// starts, and merged alone it takes 1 µs off the busy time. When those inverted events
// are memory or sync events, non_compute_time comes out negative and HTA's assertion
// fails. sollens then counts each inverted event as empty (end = start): the numbers are
// HTA's wherever HTA's are valid, and physical where HTA's are not
// (`inverted_events_emptied` says which).
#include <cstdint>

#include "analyses/hta/breakdown_events.h"
#include "analyses/hta/hta_options.h"
#include "model/trace_tree.h"
#include "table/table.h"

namespace sollens::hta {

struct TemporalBreakdown {
  double idle_us = 0, compute_us = 0, non_compute_us = 0, kernel_us = 0;
  bool inverted_events_emptied = false;  // HTA's own arithmetic was invalid here
};

TemporalBreakdown temporal_breakdown(const HtaTrace& trace, const BreakdownEvents& events);

// rank, idle_time(us), compute_time(us), non_compute_time(us), kernel_time(us),
// idle_time_pctg, compute_time_pctg, non_compute_time_pctg.
Table temporal_breakdown_table(const HtaTrace& trace, const TraceTree& tree, const HtaOptions& options);

}  // namespace sollens::hta
