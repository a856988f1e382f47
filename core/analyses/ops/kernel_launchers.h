#pragma once
// Kernel launchers (tracelens-semantics.md §2.8): the rows behind every ops_* sheet,
// and the per-op GPU time the perf-model sheets also need. For each GPU event with a
// non-collective name and a runtime parent, walk up from the runtime event's parent
// past python_function frames and `execute` cpu_ops: the first cpu_op is the
// launcher, else the runtime event itself.
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "model/row_map.h"
#include "model/trace_tree.h"
#include "store/event_store.h"

namespace sollens {

struct KernelLauncher {
  uint32_t event = 0;             // the launcher's row (UID)
  std::vector<uint32_t> kernels;  // its direct GPU events, by ts (stable)
  double direct_time_us = 0;      // busy time (interval union) of `kernels`
  double subtree_time_us = 0;     // busy time of every GPU event below `event`
  std::string_view category;      // op category (§5), first kernel as fallback
  bool is_recompute = false;      // under a checkpoint recompute frame (recompute.h)
};

struct LauncherTable {
  std::vector<KernelLauncher> launchers;  // by ts (stable: first kernel's order on ties)
  // Per event: index into `launchers`, or -1.
  RowMap launcher_index;

  const KernelLauncher* find(uint32_t event) const {
    const int32_t i = launcher_index[event];
    return i < 0 ? nullptr : &launchers[static_cast<size_t>(i)];
  }
};

LauncherTable find_kernel_launchers(const EventStore& store, const TraceTree& tree);

// The launcher a GPU event's time is attributed to (the walk above); nullopt when the
// event is unlinked. Collective names are not filtered here.
std::optional<uint32_t> launcher_of_gpu_event(const EventStore& store, const TraceTree& tree,
                                              uint32_t gpu_event);

// TraceLens's gpu_events of an event: every GPU event linked to a runtime event in its
// subtree (itself included), appended to `out` in no particular order; may repeat when
// two launches claim one event. `stack` is scratch.
void append_subtree_gpu_events(const EventStore& store, const TraceTree& tree, uint32_t event,
                               std::vector<uint32_t>& out, std::vector<uint32_t>& stack);

// Busy time (µs) of a set of GPU events: the length of the union of [ts, ts + dur].
double busy_time_us(const EventStore& store, std::span<const uint32_t> events);

// TraceLens's gpu_only: the trace has no cpu_op and no python_function event.
bool is_gpu_only_trace(const EventStore& store);

}  // namespace sollens
