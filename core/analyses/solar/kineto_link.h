#pragma once
// Links Execution Trace nodes to the Kineto events of the same run, and reads each
// linked node's measured GPU time. Three ways, the first that works:
//   1. rf_id == the cpu_op's args "Record function id" (chakra's trace_link);
//   2. rf_id == "External id", when most names agree (as HTA does);
//   3. per thread, ET nodes in id order aligned with the thread's cpu_op and
//      user_annotation events in start order (ts, then longest first), by name.
// Only when the Kineto trace has host events of the ET's process (pid): two runs of one
// model have the same op names, and aligning them would link what never ran together.
#include <cstdint>
#include <string>
#include <vector>

#include "model/trace_tree.h"
#include "store/event_store.h"
#include "store/execution_graph.h"

namespace sollens::solar {

struct EtKinetoLink {
  std::string method;  // "record_function_id" | "external_id" | "thread_alignment" | "none"
  std::vector<int64_t> event_of_node;  // per ET node: the Kineto row, or -1
  size_t linked_nodes = 0;
  std::string note;  // why nothing was linked, when nothing was
};

EtKinetoLink link_execution_trace(const ExecutionGraph& graph, const EventStore& store);

// Busy GPU time (µs) under a Kineto event: the union of its subtree's GPU events.
double measured_gpu_us(const EventStore& store, const TraceTree& tree, uint32_t event);
// Busy GPU time (µs) of the union of the subtrees of `events`.
double measured_gpu_us(const EventStore& store, const TraceTree& tree,
                       const std::vector<uint32_t>& events);

}  // namespace sollens::solar
