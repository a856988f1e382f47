#pragma once
// The gpu_timeline sheet: how GPU time splits into computation, exposed
// communication, exposed memcpy and idle (tracelens-semantics.md §3). The identity
// computation + exposed_comm + exposed_memcpy + idle == total holds.
#include <cstdint>
#include <optional>

#include "model/trace_tree.h"
#include "store/event_store.h"
#include "table/table.h"

namespace sollens {

struct GpuTimelineOptions {
  bool include_unlinked = false;  // TraceLens --include_unlinked_kernels
  // Only GPU events on this process (device) id; TraceLens merges every device.
  std::optional<StrId> only_pid;
};

struct GpuTimeline {
  double computation_us = 0;
  double exposed_comm_us = 0;
  double exposed_memcpy_us = 0;
  double busy_us = 0;
  double idle_us = 0;
  double total_us = 0;
  double total_comm_us = 0;
  double total_memcpy_us = 0;
  size_t events = 0;
};

GpuTimeline compute_gpu_timeline(const EventStore& store, const TraceTree& tree,
                                 const GpuTimelineOptions& options = {});

// Columns type, time ms, percent, rows in TraceLens's order.
Table gpu_timeline_table(const GpuTimeline& timeline);

}  // namespace sollens
