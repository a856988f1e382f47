// Custom collective models (tracelens-semantics.md §7, CustomCollective): the on-GPU
// HBM traffic of custom all-reduce / reduce-scatter / all-gather kernels (the
// inter-GPU transfer is not counted) and, for the fused all-reduce + residual add +
// RMSNorm, that math. No maf type, so no Compute Spec; an unknown dtype raises.
#include "analyses/perf/models.h"

namespace sollens::perf {

namespace {

struct Slots {
  size_t op, out;  // Input Dims slots of the input shard and of the output (npos: none)
  size_t dtype;    // Input type slot
  bool stride;     // stride_input = tuple(strides[op])
  bool out_first;  // out_shape is the first param (sglang's all-gather)
};
constexpr size_t kNone = static_cast<size_t>(-1);

Slots slots_of(Model m) {
  switch (m) {
    case Model::kAiterReduceScatter:
    case Model::kAiterAllGatherReg: return {1, 2, 1, true, false};
    case Model::kSglKernelRegAllGatherIntoTensor: return {1, 0, 0, false, true};
    default: return {1, kNone, 1, true, false};  // the all-reduces
  }
}

void finish(ModelResult& r, int64_t flops, const std::optional<int64_t>& bpe, int64_t elements_moved) {
  r.status = Status::kOk;
  if (!bpe) {
    r.fwd.status = Status::kError;  // int · None
    return;
  }
  r.fwd.status = Status::kOk;
  r.fwd.flops = Count::of(flops);
  r.fwd.bytes = Count::of(elements_moved * *bpe);
}

// fused_allreduce_rmsnorm (inp = slot 2, weight = slot 6) and its Python wrapper
// fused_allreduce_rmsnorm_ (inp = slot 0, weight = slot 2): n elements, C channels.
// flops = n (residual add) + (n // C)·(2·C + 2) + 2·n (RMSNorm, affine);
// bytes = (2·n read + C weight + 2·n written)·bpe.
ModelResult fused_allreduce_rmsnorm(Model m, const EventArgs& g) {
  const size_t inp = m == Model::kAiterFusedAllreduceRmsnormWrapper ? 0 : 2, w = inp == 0 ? 2 : 6;
  const auto shape = int_list(at(g.dims, inp));
  const PyValue& weight = at(g.dims, w);
  if (!shape || !weight.is_seq() || weight.size() == 0 || !weight[0].is_int() || weight[0].i == 0) return {};
  if (!g.types.is_seq() || g.types.size() <= inp || !g.strides.is_seq() || g.strides.size() <= inp) return {};
  const int64_t n = prod(*shape), C = weight[0].i;
  ModelResult r;
  r.bwd.status = Status::kNotImplemented;
  r.param("op_shape", int_tuple(*shape));
  r.param("dtype_in", g.types[inp]);
  r.param("stride_input", g.strides[inp].as_tuple());
  r.param("num_channels", PyValue::integer(C));
  finish(r, n + (n / C) * (2 * C + 2) + 2 * n, bytes_per_element(g.types[inp]), 4 * n + C);
  return r;
}

// The pure collectives: flops 0; bytes = (input + output elements)·bpe, the output
// the same size as the input for the all-reduces.
ModelResult pure_collective(Model m, const EventArgs& g) {
  const Slots s = slots_of(m);
  const auto shape = int_list(at(g.dims, s.op));
  const auto out = s.out == kNone ? shape : int_list(at(g.dims, s.out));
  if (!shape || !out || !g.types.is_seq() || g.types.size() <= s.dtype) return {};
  if (s.stride && (!g.strides.is_seq() || g.strides.size() <= s.op)) return {};
  ModelResult r;
  r.bwd.status = Status::kNotImplemented;
  if (s.out_first) r.param("out_shape", int_tuple(*out));
  r.param("op_shape", int_tuple(*shape));
  if (s.out != kNone && !s.out_first) r.param("out_shape", int_tuple(*out));
  r.param("dtype_in", g.types[s.dtype]);
  if (s.stride) r.param("stride_input", g.strides[s.op].as_tuple());
  finish(r, 0, bytes_per_element(g.types[s.dtype]), prod(*shape) + prod(*out));
  return r;
}

}  // namespace

ModelResult eval_custom_collective(Model m, const ModelInput& in) {
  if (m == Model::kAiterFusedAllreduceRmsnorm || m == Model::kAiterFusedAllreduceRmsnormWrapper)
    return fused_allreduce_rmsnorm(m, in.args);
  return pure_collective(m, in.args);
}

}  // namespace sollens::perf
