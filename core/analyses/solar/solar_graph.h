#pragma once
// The Execution Trace as Solar's dataflow graph: the leaf operators that do work
// (composites and their children never both), each input linked to the latest
// earlier producer of the same tensor (views followed back to their base), each
// tensor classified as weight, intermediate or model I/O, and each node's Solar
// element traffic split by those classes.
#include <cstdint>
#include <string>
#include <vector>

#include "analyses/solar/op_cost.h"
#include "store/execution_graph.h"

namespace sollens::solar {

enum class Segment : uint8_t { kForward, kBackward, kOptimizer };
std::string_view segment_name(Segment s);

// One tensor read or written by a node, with Solar's element count for it.
struct Access {
  uint32_t tensor = 0;    // index into ExecutionGraph::tensors
  double elements = 0;    // after Solar's per-op overrides (embedding, scatter)
  double bytes = 0;       // elements × the tensor's own itemsize
  // Our corrections (a fill's reads, copy_'s destination, a gather's source): equal to
  // elements / bytes for every other access.
  double corrected_elements = 0, corrected_bytes = 0;
  bool weight = false;    // reads: a parameter
  bool state = false;     // a KV cache: persistent, so always external
  int32_t producer = -1;  // reads: the SolarNode that produced it, or -1
  bool consumed = false;  // writes: read later by another counted node
};

struct SolarNode {
  uint32_t node = 0;  // index into ExecutionGraph::nodes
  OpKind kind = OpKind::kElementwise;
  Segment segment = Segment::kForward;
  std::vector<uint32_t> annotations;  // user-annotation nodes above it (graph node indices)
  OpCost cost;
  std::vector<Access> reads, writes;

  // Element (and byte) totals of this node, by class.
  double unfused_elements = 0, unfused_bytes = 0;            // Σ reads + Σ writes
  double weight_elements = 0, weight_bytes = 0;              // reads of parameters
  double intermediate_elements = 0, intermediate_bytes = 0;  // produced and consumed inside
  double model_io_elements = 0, model_io_bytes = 0;          // the rest (weights, state included)
  double state_elements = 0, state_bytes = 0;                // reads and writes of state
  // Our corrections to Solar's per-op bytes: a gather reads one element per index of
  // its source, a fill reads nothing, copy_ does not read its destination. Equal to
  // unfused_bytes for every other op.
  double corrected_unfused_bytes = 0;
};

enum class ParameterSource : uint8_t { kNone, kOptimizer, kInferred };

struct SolarGraph {
  std::vector<SolarNode> nodes;  // counted leaf ops, in start (id) order
  // Solar HEAD's fused total: every external input once (by tensor, largest size
  // seen) plus every model output.
  double unique_external_elements = 0, unique_external_bytes = 0;
  size_t op_nodes = 0;             // nodes with an op_schema
  size_t view_nodes = 0;           // transparent aliases
  size_t allocation_nodes = 0;
  size_t communication_nodes = 0;
  size_t composite_nodes = 0;      // ops whose work is counted at a descendant
  size_t parameters = 0;           // distinct parameter storages
  bool parameters_from_optimizer = false;
  ParameterSource parameter_source = ParameterSource::kNone;
  size_t state_storages = 0;       // KV caches and other buffers updated in place
  // Each weight storage once (its largest read) and × the passes that read it.
  double weight_elements_once = 0, weight_bytes_once = 0;
  double weight_elements_read = 0, weight_bytes_read = 0;
  size_t weight_passes = 0;        // the most passes any weight is read in
  size_t intermediate_tensors = 0;  // writes consumed by a later counted node
  size_t uncosted_compute_nodes = 0;  // matmul/conv/attention nodes without usable shapes
};

SolarGraph build_solar_graph(const ExecutionGraph& graph);

// A user annotation: a scope-7 node that is not the profiler's own root.
bool is_user_annotation(const EtNode& node);

}  // namespace sollens::solar
