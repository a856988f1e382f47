#pragma once
// unified_perf_summary (tracelens-semantics.md §2.9, §4.6): one row per distinct op
// (the 9 ops_unique_args key columns) over the ops that own the GPU time: the
// outermost modeled op, the sole backward op of a modeled forward op, or else the leaf
// cpu_op launching the kernels; GPU events none of them covers become
// "<launcher>-><kernel> (Synthetic Op)" rows. Perf-model columns where a model applies,
// roofline columns with a device.
#include "analyses/ops/kernel_launchers.h"
#include "analyses/ops/process_names.h"
#include "analyses/perf/modeled_ops.h"
#include "analyses/perf/perf_sheets.h"
#include "model/trace_tree.h"
#include "store/event_store.h"
#include "table/table.h"

namespace sollens {

// options.device: the roofline columns' GPU (null: TraceLens's no-arch header);
// options.corrected: the corrected FLOPs/bytes (CORRECTIONS.md) in the metric columns.
Table unified_perf_summary_table(const EventStore& store, const TraceTree& tree, const LauncherTable& launchers,
                                 const ProcessThreadNames& names, const ModeledOps& ops,
                                 const PerfSheetOptions& options = {});
// The same, reading the process and thread names first.
Table unified_perf_summary_table(const EventStore& store, const TraceTree& tree, const LauncherTable& launchers,
                                 const ModeledOps& ops, const PerfSheetOptions& options = {});

// Which ops the table is built from (§2.9), in TraceLens's traversal order.
struct UnifiedOp {
  enum class Kind : uint8_t { kModeled, kSoleBackward, kLeaf };
  uint32_t event = 0;
  Kind kind = Kind::kLeaf;
  int32_t forward = -1;  // kSoleBackward: the modeled forward op
};
std::vector<UnifiedOp> collect_unified_ops(const EventStore& store, const TraceTree& tree, const ModeledOps& ops);

}  // namespace sollens
