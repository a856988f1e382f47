#pragma once
// HTA's CUPTI counter analysis (cupti_counter_analysis.py): a trace recorded with
// CUPTI's range profiler (PyTorch's experimental profiler metrics) has one
// `cuda_profiler_range` event per kernel, named after the kernel, whose args are the
// counter values (e.g. smsp__sass_thread_inst_executed_op_ffma_pred_on.sum). Each is
// paired with the operator that launched it.
#include "analyses/hta/hta_trace.h"
#include "model/trace_tree.h"
#include "table/table.h"

namespace sollens::hta {

// cupti_counters: rank, name, ts, dur (µs), one column per counter (the union of the
// ranges' arg names, in name order; −1 where a range lacks one, as HTA reads it),
// op_stack (the cpu_ops around the launch, outermost first, joined by " > "),
// top_level_op, bottom_level_op. Ranges and cudaLaunchKernel* runtime calls are paired
// in time order, the n-th with the n-th; where their numbers differ (HTA gives no
// result then) the operator columns are left empty. No rows without ranges.
Table cupti_counters_table(const HtaTrace& trace, const TraceTree& tree);

}  // namespace sollens::hta
