#pragma once
// Speed of light of the memory-bound ops that have no perf model: elementwise math
// (tanh, sin, cos, sub, clamp, dropout, softmax, log-softmax and their backwards),
// where, comparisons, masked_fill_, fills, arange, cat, gather, index_select, the
// gather-style losses, the dense embedding backward, max pooling and the `_foreach_*`
// ops of optimizers. TraceLens's perf models and sheets must not change, so this model
// lives here and is read only by the SOL ops. Each op's bytes are what it must read
// and write, from its recorded shapes (README "SOL-only memory models"); FLOPs are one
// per output element for elementwise math and none for data movement.
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analyses/perf/event_args.h"
#include "analyses/perf/modeled_ops.h"
#include "analyses/sol/sol_ops.h"
#include "store/event_store.h"

namespace sollens {

struct MemoryWork {
  bool ok = false;
  std::string why_not;  // when !ok
  double flops = 0;
  double bytes = 0;
  std::string compute_spec;  // "vector_<dtype>" of the data it moves ("" for integers)
  std::string rule;          // the rule in words, for the op's note
};

// True for the op names this model reads.
bool is_sol_memory_op(std::string_view name);

// The work of one op from its recorded args; the kernels' names give the element size
// of tensor lists, whose dtype Kineto does not record ("TensorList").
MemoryWork memory_work(std::string_view name, const perf::EventArgs& args,
                       std::span<const std::string_view> kernel_names);

// The tensors an optimizer's `_foreach_*` ops update, for traces whose profiler left
// the tensor lists out (it does for long lists): the gradients the backward accumulated
// (`torch::autograd::AccumulateGrad` inputs) after the previous `Optimizer.step#…`
// annotation and before the one holding the op. Read once, on first use.
struct ParamTensor {
  double elements = 0;
  int64_t bytes_per_element = 0;
};
class OptimizerParams {
 public:
  OptimizerParams(const EventStore& store, const ModeledOps& modeled);
  ~OptimizerParams();
  // Empty when `event` is in no Optimizer.step annotation or no gradient was accumulated.
  std::vector<ParamTensor> of(uint32_t event);
  // The x of the GPU event's launch grid, 0 when not recorded.
  int64_t grid_x(uint32_t gpu_event);

 private:
  struct Index;
  Index& index();  // built on first use
  const EventStore& store_;
  const ModeledOps& modeled_;
  std::unique_ptr<Index> index_;
};

// A `_foreach_*` op's work when its lists were not recorded: each list taken as the
// parameters, accepted only when they fill exactly the blocks of its multi_tensor_apply
// kernels (one block per 65,536-element chunk of each tensor: `blocks`, Σ grid x).
MemoryWork foreach_work_from_params(std::string_view name, const perf::EventArgs& args,
                                    const std::vector<ParamTensor>& params, int64_t blocks,
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
