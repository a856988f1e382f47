#pragma once
// Speed of light of the memory-bound ops that have no perf model: elementwise math
// (tanh, sin, cos, sub, clamp, dropout, softmax, log-softmax and their backwards),
// where, comparisons, masked_fill_, fills, arange, cat, gather, index_select, the
// gather-style losses, the dense embedding backward, max pooling and the `_foreach_*`
// ops of optimizers. TraceLens's perf models and sheets must not change, so this model
// lives here and is read only by the SOL ops. Each op's bytes are what it must read
// and write, from its recorded shapes (README "SOL-only memory models"); FLOPs are one
// per output element for elementwise math and none for data movement.
#include <span>
#include <string>
#include <string_view>

#include "analyses/perf/event_args.h"
#include "analyses/perf/modeled_ops.h"
#include "analyses/sol/sol_foreach_ops.h"
#include "analyses/sol/sol_memory_args.h"
#include "analyses/sol/sol_ops.h"
#include "store/event_store.h"

namespace sollens {

// True for the op names this model reads.
bool is_sol_memory_op(std::string_view name);

// The work of one op from its recorded args; the kernels' names give the element size
// of tensor lists, whose dtype Kineto does not record ("TensorList").
MemoryWork memory_work(std::string_view name, const perf::EventArgs& args,
                       std::span<const std::string_view> kernel_names);

// The estimate of `op` (its event, kernels and function set) from memory_work, or for a
// `_foreach_*` op without recorded lists from `params`; the note says "SOL-only memory
// model" and the rule.
void estimate_memory_op(const EventStore& store, SolOp& op, const ModeledOps& modeled, OptimizerParams& params,
                        const DeviceSpec* device, const SolOptions& options);

// An elementwise op (maf "vector") whose dtype has no vector peak, integers above all,
// is bound by its bytes on the vector units: its estimate from the bytes alone. False
// when the op is not such an op (its estimate is left as it is).
bool estimate_without_dtype_peak(SolOp& op, std::string_view maf_type, const DeviceSpec& device, double factor);

}  // namespace sollens
