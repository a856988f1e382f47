#pragma once
// Which pass of a training step an op belongs to, and for a backward op the forward op
// that created it. Backward ops run on the autograd thread, under
// `autograd::engine::evaluate_function: XBackward0`; that event carries the `Sequence
// number` of the forward op that recorded the autograd node (on the forward thread), so
// the backward op belongs to that forward op's nn.Module.
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/row_map.h"
#include "model/trace_tree.h"
#include "store/event_store.h"

namespace sollens {

enum class SolPass : uint8_t { kForward, kBackward, kOptimizer, kOther };
const char* sol_pass_name(SolPass pass);  // "forward", "backward", "optimizer", "other"

struct OpPass {
  SolPass pass = SolPass::kOther;
  int32_t forward_event = -1;  // a backward op's forward op, -1 when unknown
};

class PassLookup {
 public:
  // forward_of_backward: per event, the forward op of an evaluate_function event, or -1
  // (modeled_ops.h forward_events_of_backward).
  PassLookup(const EventStore& store, const TraceTree& tree, const RowMap& forward_of_backward);
  // Optimizer: inside an `Optimizer.step#…` or `Optimizer.zero_grad#…` annotation on the
  // op's thread. Backward: under an autograd evaluate_function. Forward: inside an
  // nn.Module (in_module) or recorded with a Sequence number (autograd was recording it).
  // Other: the rest (input copies, ops under no_grad outside any module).
  OpPass of(uint32_t event, bool in_module) const;

 private:
  struct Span {
    double start, end;
  };
  bool in_optimizer(uint32_t event) const;

  const EventStore& store_;
  const TraceTree& tree_;
  const RowMap& forward_of_backward_;
  std::unordered_map<uint64_t, std::vector<Span>> optimizer_by_thread_;  // sorted by start
};

}  // namespace sollens
