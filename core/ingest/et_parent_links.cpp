#include "ingest/et_parent_links.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace sollens {
namespace {

constexpr uint32_t kNone = UINT32_MAX;

struct Links {
  std::vector<uint32_t> parent;  // node index of each node's parent, kNone for roots
  size_t duplicates = 0, dangling = 0;
  size_t first_duplicate = 0, first_dangling = 0;  // node indices
};

// A node that names itself, or no parent (-1), is a root: PyTorch writes its process
// node as its own parent. A repeated id names the first node that has it.
Links resolve_links(const ExecutionGraph& graph) {
  Links links;
  std::unordered_map<int64_t, uint32_t> index_of;
  for (uint32_t i = 0; i < graph.nodes.size(); ++i)
    if (!index_of.emplace(graph.nodes[i].id, i).second && links.duplicates++ == 0) links.first_duplicate = i;
  links.parent.assign(graph.nodes.size(), kNone);
  for (uint32_t i = 0; i < graph.nodes.size(); ++i) {
    const EtNode& n = graph.nodes[i];
    if (n.parent == n.id || n.parent < 0) continue;
    auto it = index_of.find(n.parent);
    if (it == index_of.end()) {
      if (links.dangling++ == 0) links.first_dangling = i;
    } else if (it->second != i) {
      links.parent[i] = it->second;
    }
  }
  return links;
}

// Nodes on a loop of parent links, found by walking up from each node once (iterative:
// chains can be as long as the graph).
std::vector<uint32_t> nodes_in_loops(const std::vector<uint32_t>& parent) {
  enum : uint8_t { kUnseen, kOnPath, kDone };
  std::vector<uint8_t> state(parent.size(), kUnseen);
  std::vector<uint32_t> path, in_loops;
  for (uint32_t start = 0; start < parent.size(); ++start) {
    uint32_t i = start;
    while (i != kNone && state[i] == kUnseen) {
      state[i] = kOnPath;
      path.push_back(i);
      i = parent[i];
    }
    if (i != kNone && state[i] == kOnPath)  // the walk came back to itself: a loop from i
      for (uint32_t j = i;; j = parent[j]) {
        in_loops.push_back(j);
        if (parent[j] == i) break;
      }
    for (uint32_t j : path) state[j] = kDone;
    path.clear();
  }
  return in_loops;
}

std::string node_words(const EtNode& n) { return "node " + std::to_string(n.id) + " (" + n.name + ")"; }

}  // namespace

void check_parent_links(ExecutionGraph& graph) {
  const Links links = resolve_links(graph);
  if (links.duplicates)
    graph.warnings.push_back({Code::et_duplicate_ids,
                              std::to_string(links.duplicates) + " nodes repeat the id of an earlier node (first: " +
                                  node_words(graph.nodes[links.first_duplicate]) +
                                  "); a parent link to that id names the first"});
  if (links.dangling) {
    const EtNode& n = graph.nodes[links.first_dangling];
    graph.warnings.push_back({Code::et_dangling_parent,
                              std::to_string(links.dangling) + " nodes name a parent that is no node (first: " +
                                  node_words(n) + ", parent " + std::to_string(n.parent) + "); they are taken as roots"});
  }
  const std::vector<uint32_t> loops = nodes_in_loops(links.parent);
  if (!loops.empty())
    graph.warnings.push_back({Code::et_parent_cycle,
                              std::to_string(loops.size()) + " nodes are on loops of parent links (first: " +
                                  node_words(graph.nodes[loops.front()]) +
                                  "); a parent whose id is not below its child's is taken as none"});
}

}  // namespace sollens
