// primus::fused_ln_modulate and its backward (tracelens-semantics.md §6.7): LayerNorm
// fused with the DiT scale/shift modulation, x = (T, B, H), N = T·B·H, one fp32 mean
// and rstd per (t, b) row. TraceLens's class is a Normalization, so the params are the
// Normalization sheet's; their values are ours (the class source is not stored for us):
// op_shape = x, dtype from x, num_channels = H, no affine weight or bias (the
// modulation replaces them), training (mean and rstd are written).
#include "analyses/perf/models.h"

namespace sollens::perf {

ModelResult eval_fused_ln_modulate(Model m, const ModelInput& in) {
  ModelResult r;
  r.maf_type = "vector";
  const EventArgs& g = in.args;
  auto x = int_list(at(g.dims, 0));
  if (!x || x->size() != 3) return r;
  const int64_t T = (*x)[0], B = (*x)[1], H = (*x)[2], N = T * B * H;
  const PyValue dt = at(g.types, 0);
  const PyValue& stride = at(g.strides, 0);
  r.param("op_shape", int_tuple(*x));
  r.param("dtype_in_out", PyValue::tuple({dt, PyValue::none()}));
  r.param("stride_input", stride.is_seq() ? stride.as_tuple() : PyValue::none());
  r.param("stride_output", PyValue::none());
  r.param("num_channels", PyValue::integer(H));
  r.param("has_bias", PyValue::boolean(false));
  r.param("is_affine", PyValue::boolean(false));
  r.param("is_training", PyValue::boolean(true));
  r.precision_dtype = dt;
  r.status = Status::kOk;
  r.bwd.status = Status::kNotImplemented;
  r.fwd.status = Status::kOk;
  const auto bpe = bytes_per_element(dt);
  constexpr int64_t kStatBytes = 4;  // fp32 mean / rstd
  if (m == Model::kFusedLnModulate) {
    // read x, write y, read scale and shift (B, H), write mean and rstd (T·B each).
    r.fwd.flops = Count::of(12 * N);
    if (bpe) r.fwd.bytes = Count::of(2 * N * *bpe + 2 * B * H * *bpe + 2 * T * B * kStatBytes);
  } else {
    // read grad_out and x_norm, read mean and rstd, write grad_x, write the scale and
    // shift grads (B, H), read the modulation grad (B, H).
    r.fwd.flops = Count::of(15 * N);
    if (bpe)
      r.fwd.bytes = Count::of(2 * N * *bpe + 2 * B * T * kStatBytes + N * *bpe + 2 * B * H * *bpe + B * H * *bpe);
  }
  return r;
}

}  // namespace sollens::perf
