#pragma once
// Which storages of an Execution Trace are the model's weights and which are its
// state (a KV cache), found from the trace itself, and how many times the weights
// are read: once per pass that uses them. Rules: core/analyses/solar/README.md.
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "analyses/solar/op_cost.h"
#include "store/execution_graph.h"

namespace sollens::solar {

struct SolarNode;

// The graph as the Solar builder sees it: nodes in id order, each node's kind and
// whether it is a counted leaf.
struct NodeView {
  const ExecutionGraph& graph;
  const std::vector<uint32_t>& by_id;
  const std::vector<OpKind>& kind;
  const std::vector<uint8_t>& counted;
};

// Without an optimizer: storages never written by a counted op that are passed as an
// argument the op schema names weight/bias/running_mean/… (composites included, so
// aten::linear names its weight), or as a matmul's weight operand (mat2, batch2, vec,
// other, addmm's bias), or cast/copied into one.
std::set<int64_t> inferred_parameters(const NodeView& v);

// A KV cache: a buffer updated in place by an index op (index_copy_, index_put_,
// scatter_); or by copy_ into a part of it, when attention reads it as key/value with
// more keys than queries; or grown by cat from the cache a previous attention read
// (Hugging Face's DynamicCache), seen through copies of it (repeat_kv).
std::set<int64_t> state_storages(const NodeView& v, const std::set<int64_t>& params);

struct WeightReads {
  double elements_once = 0, bytes_once = 0;  // every weight storage once (its largest read)
  double elements_read = 0, bytes_read = 0;  // Σ over its passes of each pass's largest read
  size_t max_passes = 0;                     // the most passes any weight is read in
};
// A weight read again after other ops ran, or other weights were read, starts a new
// pass for it (the next forward, the backward, the optimizer); reads by one op, or by
// the next op with no other weight read in between, are one pass.
WeightReads weight_reads(const std::vector<SolarNode>& nodes, const ExecutionGraph& graph);

}  // namespace sollens::solar
