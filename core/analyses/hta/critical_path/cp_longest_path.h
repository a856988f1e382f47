#pragma once
// The longest path through the critical-path graph, as networkx's dag_longest_path
// finds it (HTA's choice among equally long paths included): nodes in
// topological_sort's order (Kahn's generations over the nodes in the order the graph
// first saw them), each node's best predecessor the first in insertion order among the
// longest, the path ending at the first node in that order with the longest distance.
// Edges weigh max(weight, 0): HTA sets the negative weights rounding makes to 0.
#include <cstdint>
#include <vector>

#include "analyses/hta/critical_path/cp_graph.h"

namespace sollens::hta::cp {

struct LongestPath {
  bool acyclic = true;
  std::vector<uint32_t> edges;  // edge ids, in path order
};

LongestPath longest_path(const CpGraph& graph);

}  // namespace sollens::hta::cp
