#include "analyses/hta/critical_path/cp_longest_path.h"

#include <algorithm>

namespace sollens::hta::cp {

namespace {

std::vector<uint32_t> topological_order(const CpGraph& g, bool& acyclic) {
  const auto& nodes = g.node_order();
  std::vector<uint32_t> indegree(g.nodes().size(), 0);
  for (const CpEdge& e : g.edges()) ++indegree[e.to];
  std::vector<uint32_t> order, generation, next;
  order.reserve(nodes.size());
  for (const uint32_t n : nodes)
    if (indegree[n] == 0) generation.push_back(n);
  while (!generation.empty()) {
    next.clear();
    for (const uint32_t n : generation) {
      const auto [begin, end] = g.out_edges(n);
      for (const uint32_t* e = begin; e != end; ++e)
        if (--indegree[g.edges()[*e].to] == 0) next.push_back(g.edges()[*e].to);
    }
    order.insert(order.end(), generation.begin(), generation.end());
    std::swap(generation, next);
  }
  acyclic = order.size() == nodes.size();
  return order;
}

}  // namespace

LongestPath longest_path(const CpGraph& g) {
  LongestPath result;
  const std::vector<uint32_t> order = topological_order(g, result.acyclic);
  if (!result.acyclic || order.empty()) return result;
  constexpr int64_t kNone = -1;
  std::vector<double> dist(g.nodes().size(), 0);
  std::vector<int64_t> via(g.nodes().size(), kNone);  // the edge into the node on its longest path
  for (const uint32_t v : order) {
    const auto [begin, end] = g.in_edges(v);
    bool any = false;
    double best = 0;
    int64_t best_edge = kNone;
    for (const uint32_t* e = begin; e != end; ++e) {
      const CpEdge& edge = g.edges()[*e];
      const double length = dist[edge.from] + std::max(edge.weight, 0.0);
      if (!any || length > best) {
        any = true;
        best = length;
        best_edge = *e;
      }
    }
    if (any && best >= 0) {
      dist[v] = best;
      via[v] = best_edge;
    }
  }
  uint32_t last = order.front();
  for (const uint32_t v : order)
    if (dist[v] > dist[last]) last = v;
  for (int64_t e = via[last]; e != kNone; e = via[g.edges()[static_cast<size_t>(e)].from])
    result.edges.push_back(static_cast<uint32_t>(e));
  std::reverse(result.edges.begin(), result.edges.end());
  return result;
}

}  // namespace sollens::hta::cp
