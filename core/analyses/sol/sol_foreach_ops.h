#pragma once
// The `_foreach_*` ops of optimizers as memory-bound work (sol_memory_ops.h): in place
// they read every list and write the first, out of place they write a new list. Their
// tensor lists come from `Input Dims`, or, where the profiler left long lists out, from
// the parameters whose gradients the step's backward accumulated, accepted only when
// they fill the op's multi_tensor_apply blocks exactly (README "Unrecorded tensor lists").
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "analyses/perf/event_args.h"
#include "analyses/perf/modeled_ops.h"
#include "analyses/sol/sol_memory_args.h"
#include "store/event_store.h"

namespace sollens {

// `_foreach_*` ops that update lists elementwise (not the reductions _foreach_norm, _max),
// and the fused optimizers `_fused_adam_`, `_fused_adamw_`, `_fused_sgd_`.
bool is_foreach_list_op(std::string_view name);
// Their work from the recorded lists; the element size from the kernels' names.
MemoryWork foreach_work(std::string_view name, const perf::EventArgs& args,
                        std::span<const std::string_view> kernel_names);
// True when foreach_work failed only because the lists were not recorded.
bool lists_not_recorded(const MemoryWork& w);

// The tensors an optimizer's `_foreach_*` ops update, for traces whose profiler left
// the tensor lists out: the gradients the backward accumulated
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

}  // namespace sollens
