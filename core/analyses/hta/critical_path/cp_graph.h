#pragma once
// HTA's critical-path graph (CPGraph): a start and an end node per CPU operator,
// runtime call and GPU event of the clipped trace; edges for operator nesting and
// sequence on each CPU thread, kernel launches, kernel → kernel on a stream, and
// GPU → CPU syncs from CUDA sync events, added in HTA's order (the order decides ties
// between equally long paths). With inferred waits, also an edge from the GPU event each
// blocking call waited for to the call's end.
#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "analyses/hta/critical_path/critical_path.h"
#include "analyses/hta/critical_path/cp_queue.h"
#include "analyses/hta/critical_path/cp_view.h"

namespace sollens::hta::cp {

// Fields ordered widest first so that a node takes 16 bytes and an edge 32 (a large
// trace's graph has hundreds of thousands of each).
struct CpNode {
  double ts = 0;
  uint32_t event = 0;
  bool is_start = false;
};

struct CpEdge {
  uint32_t from = 0;  // node ids
  uint32_t to = 0;
  double weight = 0;               // HTA's weight (may be negative)
  int64_t attributed = kNoEvent;   // store row (HTA's edge_to_event_map), kNoEvent when none
  CpEdgeType type = CpEdgeType::kOperatorKernel;
  bool has_attribution = false;
  bool inferred = false;
};

// A GPU event and the blocking runtime call that waited for it.
using GpuWait = std::pair<uint32_t, uint32_t>;  // (gpu row, call row)

// One CPU thread's events nested as a call stack: its rows (file order), each one's
// parent (an index into rows; rows.size() = the root) and children in start order.
struct CallStack {
  std::vector<uint32_t> rows;
  std::vector<uint32_t> parent;
  std::vector<uint32_t> child_begin;  // children of i: children[child_begin[i] .. child_begin[i + 1]), root last
  std::vector<uint32_t> children;
};

// What every graph of one view shares however it is built (HTA's and the inferred one):
// the CPU threads' call stacks and the launch queues, found by the first graph.
struct CpGraphCache {
  const CpView* view = nullptr;  // the view they were found for
  std::vector<CallStack> stacks;  // the CPU threads, in pandas' group order
  std::unique_ptr<QueueLengths> queue;
};

class CpGraph {
 public:
  // inferred: add `inferred_waits` and weigh blocking calls as HTA does only where they
  // have a GPU → CPU edge. cache: shared with other graphs of the same view (null: none).
  CpGraph(const CpView& view, bool inferred, const std::vector<GpuWait>& inferred_waits,
          CpGraphCache* cache = nullptr);

  const std::vector<CpNode>& nodes() const { return nodes_; }
  const std::vector<CpEdge>& edges() const { return edges_; }
  // Nodes in the order the graph first saw them (networkx's node order).
  const std::vector<uint32_t>& node_order() const { return node_order_; }
  // Outgoing / incoming edge ids of a node, in insertion order.
  std::pair<const uint32_t*, const uint32_t*> out_edges(uint32_t node) const {
    return {out_list_.data() + out_begin_[node], out_list_.data() + out_begin_[node + 1]};
  }
  std::pair<const uint32_t*, const uint32_t*> in_edges(uint32_t node) const {
    return {in_list_.data() + in_begin_[node], in_list_.data() + in_begin_[node + 1]};
  }
  int32_t start_node(uint32_t row) const;  // −1 when the event has no node
  int32_t end_node(uint32_t row) const;

 private:
  void create_nodes();
  void add_runtime_lock_edges();
  bool shares_runtime_lock(uint32_t first_node, uint32_t second_node) const;
  std::string_view thread_with(std::string_view word) const;
  std::vector<CallStack> call_stacks() const;
  void add_call_stack_edges(const CallStack& stack);
  void add_cpu_edges(CpGraphCache& cache);
  void add_kernel_edges(CpGraphCache& cache);
  void add_inferred_edges(const std::vector<GpuWait>& waits);
  uint32_t add_edge(uint32_t from, uint32_t to, CpEdgeType type, bool zero_weight = false);
  void attribute(uint32_t edge, int64_t src_parent);
  bool zero_weight_call(uint32_t row) const;
  void index_edges();

  const CpView& view_;
  std::vector<CpNode> nodes_;
  std::vector<CpEdge> edges_;
  std::vector<int32_t> node_of_row_;  // store row → index of its start node (end = +1), −1 none
  std::vector<uint8_t> in_graph_;
  std::vector<uint32_t> node_order_;
  // Each node's outgoing edges as a list (networkx keeps one edge per (u, v)): the
  // node's first edge, and each edge's next from the same node.
  std::vector<uint32_t> first_out_, next_out_;
  std::vector<uint32_t> out_begin_, out_list_, in_begin_, in_list_;
  std::vector<uint8_t> lock_call_;    // store row → holds the CUDA runtime lock
  std::vector<uint8_t> synced_call_;  // inferred mode: calls with a GPU → CPU edge
  bool inferred_mode_ = false;
};

}  // namespace sollens::hta::cp
