#pragma once
// kernel_summary (tracelens-semantics.md §4.9): every `kernel` event grouped by
// [Parent op category, Parent cpu_op, Kernel name, Kernel stream] with sums, counts,
// means, minima and maxima of raw dur. Without a cpu_op the launcher's name stands in
// and the category is `graph` or `runtime`; a trace with no cpu_op above any kernel
// has no Parent cpu_op column. Sorted by the sum, descending, ties as pandas orders them.
#include "analyses/ops/kernel_launchers.h"
#include "model/trace_tree.h"
#include "store/event_store.h"
#include "table/table.h"

namespace sollens {

// total_time_us: the gpu_timeline total (for Percent of total time).
Table kernel_summary_table(const EventStore& store, const TraceTree& tree,
                           const LauncherTable& launchers, double total_time_us);

}  // namespace sollens
