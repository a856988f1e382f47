#pragma once
// The parent links of an Execution Trace, checked once its nodes are read: ids that
// repeat, parents that are no node, and parents that loop. The graph is kept as read
// (analyses take a parent they cannot find, or one whose id is not below its child's,
// as none, which breaks every loop); the graph's warnings say what is wrong.
#include "store/execution_graph.h"

namespace sollens {

void check_parent_links(ExecutionGraph& graph);

}  // namespace sollens
