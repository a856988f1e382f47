// Elementwise extension models (tracelens-semantics.md §6.5, §7): LigerSiLUMulFunction
// (the binary model on its two inputs), the gated activations silu/gelu/gelu_tanh_and_mul
// (out = act(x[..., :d]) · x[..., d:], args (out, input)), and
// aiter::mixed_sample_outer_exponential (argmax of logits / exponential noise per token).
#include "analyses/perf/models.h"

namespace sollens::perf {

// LigerSiLUMulFunction(a, b): the binary elementwise model without an output slot.
ModelResult eval_liger_silu_mul(const ModelInput& in) {
  EventArgs two = in.args;
  if (two.dims.is_seq() && two.dims.size() > 2) two.dims.items.resize(2);
  return eval_binary({in.name, two, in.kernel_names});
}

// *_and_mul(out, input): op_shape = out's shape (n elements), dtype_in_out = (input,
// out); flops = 5·n (silu), 8·n (gelu), 10·n (gelu_tanh); bytes = 2·n·bpe_in (the gate
// and up halves) + n·bpe_out, raising when a dtype is unknown.
ModelResult eval_gated_activation(Model m, const ModelInput& in) {
  ModelResult r;
  r.maf_type = "vector";
  r.bwd.status = Status::kNotImplemented;
  const EventArgs& g = in.args;
  const auto shape = int_list(at(g.dims, 0));
  const bool strided = g.strides.is_seq() && g.strides.size() > 1;
  if (!shape || !g.types.is_seq() || g.types.size() < 2 || !strided) return r;
  const PyValue dt_in = g.types[1], dt_out = g.types[0];
  r.param("op_shape", int_tuple(*shape));
  r.param("dtype_in_out", PyValue::tuple({dt_in, dt_out}));
  r.param("stride_input", g.strides[1].as_tuple());
  r.param("stride_output", g.strides[0].as_tuple());
  r.precision_dtype = dt_in;
  r.status = Status::kOk;
  const int64_t n = prod(*shape);
  const int64_t per_element = m == Model::kGeluAndMul ? 8 : m == Model::kGeluTanhAndMul ? 10 : 5;
  const auto bpe_in = bytes_per_element(dt_in), bpe_out = bytes_per_element(dt_out);
  if (!bpe_in || !bpe_out) {
    r.fwd.status = Status::kError;  // None · int
    return r;
  }
  r.fwd.status = Status::kOk;
  r.fwd.flops = Count::of(per_element * n);
  r.fwd.bytes = Count::of(2 * n * *bpe_in + n * *bpe_out);
  return r;
}

// mixed_sample_outer_exponential(out, logits (T, V), exp_noise, …): T and V from the
// logits; flops = 2·T·V; bytes = T·V·bpe(logits) + T·V·bpe(noise) + T·4 (int32 ids).
// Missing dtypes default to bf16 logits and float noise.
ModelResult eval_mixed_sample(const ModelInput& in) {
  ModelResult r;
  r.maf_type = "vector";
  r.bwd.status = Status::kNotImplemented;
  const EventArgs& g = in.args;
  const auto logits = int_list(at(g.dims, 1));
  if (!logits) return r;
  const int64_t T = !logits->empty() ? (*logits)[0] : 1, V = logits->size() >= 2 ? (*logits)[1] : 1;
  const size_t ntypes = g.types.is_seq() ? g.types.size() : 0;
  const PyValue dt_logits = ntypes > 1 ? g.types[1] : PyValue::str("c10::bfloat16");
  const PyValue dt_noise = ntypes > 2 ? g.types[2] : PyValue::str("float");
  r.param("T", PyValue::integer(T));
  r.param("V", PyValue::integer(V));
  r.param("dtype_logits", dt_logits);
  r.param("dtype_noise", dt_noise);
  r.precision_dtype = dt_logits;
  r.status = Status::kOk;
  r.fwd.status = Status::kOk;
  r.fwd.flops = Count::of(2 * T * V);
  const auto b_logits = bytes_per_element(dt_logits), b_noise = bytes_per_element(dt_noise);
  if (b_logits && b_noise) r.fwd.bytes = Count::of(T * V * *b_logits + T * V * *b_noise + T * 4);
  return r;
}

// EvoformerAttention(q, k, v, res_mask, pair_bias): q = (B, N_seq, N_res, Head, Dim);
// attention over N_res for every (B, N_seq) slice, never causal, not flash: the SDPA
// formulas with B·N_seq batches, N_Q = N_KV = N_res, H = Head, d = Dim, bytes at 2 bytes
// per element (corrected: at q's dtype). dtype_A_B is a one-element list.
ModelResult eval_evoformer_attention(const ModelInput& in) {
  ModelResult r;
  r.maf_type = "matrix";
  const EventArgs& g = in.args;
  const auto q = int_list(at(g.dims, 0));
  if (!q || q->size() != 5) return r;  // the 5-way unpacking raises
  const int64_t B = (*q)[0] * (*q)[1], N = (*q)[2], H = (*q)[3], D = (*q)[4];
  const PyValue dtype = at(g.types, 0);
  r.param("B", PyValue::integer(B));
  r.param("N_Q", PyValue::integer(N));
  r.param("H_Q", PyValue::integer(H));
  r.param("N_KV", PyValue::integer(N));
  r.param("H_KV", PyValue::integer(H));
  r.param("d_h_qk", PyValue::integer(D));
  r.param("d_h_v", PyValue::integer(D));
  r.param("causal", PyValue::boolean(false));
  r.param("flash_impl", PyValue::boolean(false));
  r.param("dtype_A_B", PyValue::list({dtype}));
  r.precision_dtype = dtype;
  r.status = Status::kOk;
  // fwd: QKᵀ and PV, 2·B·H·N·N·D each; Q, K, V read and O written.
  // bwd (no recompute): dV, dP, dQ, dK, 2·B·H·N·N·D each (no GQA reduction: H_Q = H_KV);
  // Q, K, V, dO read and dQ, dK, dV written.
  const int64_t one_gemm = 2 * B * H * N * N * D, one_tensor = B * N * H * D;
  const auto bpe = bytes_per_element(dtype);
  auto fill = [&](Metrics& m, int64_t gemms, int64_t tensors) {
    m.status = Status::kOk;
    m.flops = Count::of(gemms * one_gemm);
    m.bytes = Count::of(tensors * one_tensor * 2);
    if (bpe) m.bytes_corrected = Count::of(tensors * one_tensor * *bpe);
    else m.bytes_corrected_is_none = true;
  };
  fill(r.fwd, 2, 4);
  fill(r.bwd, 4, 7);
  return r;
}

}  // namespace sollens::perf
