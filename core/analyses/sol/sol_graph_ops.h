#pragma once
// Kernels replayed by a CUDA / HIP graph launch as SOL ops: each counts for the op that
// launched it when the graph was captured (analyses/graphs/graph_replay_map.h), so it
// is estimated from that op's perf model and args where the op was recorded (the
// capture trace, or this trace). One op per graph launch and captured op, so that each
// replay's kernels meet one estimate each.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "analyses/perf/modeled_ops.h"
#include "analyses/sol/sol_ops.h"
#include "model/trace_tree.h"
#include "store/event_store.h"

namespace sollens {

// The trace in which the graphs were captured, its tree (python frames give the
// captured ops their layer types) and its modeled ops.
struct CaptureTrace {
  const EventStore* store = nullptr;
  const TraceTree* tree = nullptr;
  const ModeledOps* modeled = nullptr;
};

// Where a replayed op was recorded, for its layer type.
struct ReplayedOpSource {
  const EventStore* store = nullptr;
  const TraceTree* tree = nullptr;
  const ModeledOps* modeled = nullptr;
  uint32_t op = 0;  // the captured (or eager) op in that store
};

struct GraphReplayOps {
  std::vector<SolOp> ops;               // estimated; `event` is the graph launch (its phase)
  std::vector<ReplayedOpSource> sources;  // per op
  std::vector<uint8_t> claimed;         // per replay-store row: a kernel counted by one of `ops`
  std::vector<std::string> notes;       // how each replay was mapped, what stayed unmapped

  bool claims_all(std::span<const uint32_t> kernels) const;
};

// `modeled`: the replay trace's own modeled ops (for sources in this trace).
GraphReplayOps graph_replay_ops(const EventStore& store, const TraceTree& tree, const ModeledOps& modeled,
                                const DeviceSpec* device, const SolOptions& options);

// Layer type, instance and pass of the replayed ops (the first ops.size() of `out`) from
// where the captured op was recorded: the nn.Module frames above it, where its tree has
// them (a capture trace recorded with stack frames names the layers a replay trace
// without them cannot), and its pass there (sol_pass.h). The phase stays the replay's.
void set_replayed_op_context(const GraphReplayOps& replayed, SolOps& out);

}  // namespace sollens
