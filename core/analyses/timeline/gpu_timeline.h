#pragma once
// The gpu_timeline sheet: how GPU time splits into computation, exposed
// communication, exposed memcpy and idle (tracelens-semantics.md §3). The identity
// computation + exposed_comm + exposed_memcpy + idle == total holds.
#include <cstdint>
#include <optional>
#include <vector>

#include "model/trace_tree.h"
#include "store/event_store.h"
#include "table/table.h"

namespace sollens {

struct GpuTimelineOptions {
  bool include_unlinked = false;  // TraceLens --include_unlinked_kernels
  // Only GPU events on this process (device) id; TraceLens merges every device.
  std::optional<StrId> only_pid;
  // Only GPU events whose recompute flag (recompute.h, one per event) equals
  // `only_recompute`; TraceLens --detect_recompute computes the timeline once per value.
  const std::vector<uint8_t>* recompute_flags = nullptr;
  bool only_recompute = false;
  // TraceLens --micro_idle_thresh_us: idle time split into the gaps between busy
  // intervals shorter than this (micro) and the others (macro).
  std::optional<double> micro_idle_threshold_us;
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
  // With a micro-idle threshold: micro_idle_time and macro_idle_time replace idle_time.
  std::optional<double> micro_idle_us, macro_idle_us;
  size_t events = 0;
};

GpuTimeline compute_gpu_timeline(const EventStore& store, const TraceTree& tree,
                                 const GpuTimelineOptions& options = {});

// Columns type, time ms, percent, rows in TraceLens's order.
Table gpu_timeline_table(const GpuTimeline& timeline);
// The same rows for the non-recompute GPU events, then for the recompute ones, each
// with its own percentages and an is_recompute column last.
Table gpu_timeline_table(const GpuTimeline& rest, const GpuTimeline& recompute);

}  // namespace sollens
