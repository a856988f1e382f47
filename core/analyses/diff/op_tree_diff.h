#pragma once
// An op-tree diff in the manner of TraceLens's TraceDiff: the two host call trees
// (cpu_op and user_annotation events under the cpu root ops, children in start order)
// are merged top-down, children aligned by name with an edit distance
// (sequence_alignment.h); an op present in one run only makes its whole subtree added
// or removed. Merged ops are summed per call-stack path (names joined by " > ") with
// their subtree GPU time (kernels, memcpy, memset launched under them).
#include "analyses/diff/table_compare.h"
#include "model/trace_tree.h"
#include "store/event_store.h"
#include "table/table.h"

namespace sollens {

struct TraceView {
  const EventStore& store;
  const TraceTree& tree;
};

// "op_tree_diff": path, name, depth, status (added | removed | slower | faster |
// unchanged), <tag>::count, <tag>::gpu_time_us, gpu_time_us__<v>_diff / _pct, and
// share_of_total_pct = diff / the baseline's GPU time under all root ops · 100.
// Rows ranked by |diff| (largest first), ties in merged-tree order.
Table op_tree_diff_table(const TraceView& baseline, const TraceView& variant, const CompareTags& tags);

}  // namespace sollens
