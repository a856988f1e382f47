// mHC (manifold-constrained hyper-connection) models (tracelens-semantics.md §7): M
// tokens, n residual streams of C channels, K = n·C, hc3 = n² + 2n projection rows,
// split_k partials; activations at the op's input dtype (default bf16), mixes,
// projection weights and partial sums in fp32 (4 bytes).
// aiter::topk_softplus (a MoE_aux op) shares the base: M tokens, E experts.
#include "analyses/perf/models.h"

namespace sollens::perf {

namespace {


PyValue dtype_or_bf16(const EventArgs& g, size_t slot) {
  return g.types.is_seq() && g.types.size() > slot ? g.types[slot] : PyValue::str("c10::BFloat16");
}

struct Mhc {
  int64_t M = 0, n = 0, C = 0, hc3 = 0, K = 0, split_k = 0;
};

void base_params(ModelResult& r, const Mhc& x, std::string_view maf, const PyValue& dtype) {
  r.maf_type = maf;
  r.bwd.status = Status::kNotImplemented;
  r.param("M", PyValue::integer(x.M));
  r.param("n", PyValue::integer(x.n));
  r.param("C", PyValue::integer(x.C));
  r.precision_dtype = dtype;
  r.status = Status::kOk;
}

void set_counts(ModelResult& r, int64_t flops, const std::optional<int64_t>& bpe, int64_t bytes_at_bpe) {
  r.fwd.status = Status::kOk;
  r.fwd.flops = Count::of(flops);
  if (bpe) r.fwd.bytes = Count::of(bytes_at_bpe);
}

// mhc_post(out (M, n, C), x (M, C), residual, post_layer_mix (M, n, 1), comb_res_mix (M, n, n)):
// flops = 2·M·n·C·(n + 1); bytes = x + residual + out at bpe, the mixes at 4.
ModelResult mhc_post(const EventArgs& g) {
  const auto M = dim(g, 1, 0), C = dim(g, 1, 1), n = dim(g, 0, 1);
  if (!M || !C || !n) return ModelResult{};
  const Mhc x{*M, *n, *C};
  const PyValue dtype = dtype_or_bf16(g, 1);
  ModelResult r;
  base_params(r, x, "vector", dtype);
  r.param("hc3", PyValue::none());
  r.param("dtype_in", dtype);
  const auto bpe = bytes_per_element(dtype);
  const int64_t b = bpe.value_or(0);
  set_counts(r, 2 * x.M * x.n * x.C * (x.n + 1), bpe,
             x.M * x.C * b + x.M * x.n * x.C * b + x.M * x.n * 4 + x.M * x.n * x.n * 4 + x.M * x.n * x.C * b);
  return r;
}

// mhc_pre_gemm_sqrsum(out (split_k, M, hc3), sqrsum, x (M, n, C), fn (hc3, K)):
// flops = 2·M·hc3·K; bytes = x at bpe + fn, the partials and square sums at 4.
ModelResult mhc_pre_gemm_sqrsum(const EventArgs& g) {
  const auto M = dim(g, 2, 0), n = dim(g, 2, 1), C = dim(g, 2, 2), hc3 = dim(g, 3, 0), K = dim(g, 3, 1),
             sk = dim(g, 0, 0);
  if (!M || !n || !C || !hc3 || !K || !sk) return ModelResult{};
  const Mhc x{*M, *n, *C, *hc3, *K, *sk};
  const PyValue dtype = dtype_or_bf16(g, 2);
  ModelResult r;
  base_params(r, x, "matrix", dtype);
  r.param("hc3", PyValue::integer(x.hc3));
  r.param("K", PyValue::integer(x.K));
  r.param("split_k", PyValue::integer(x.split_k));
  r.param("dtype_in", dtype);
  const auto bpe = bytes_per_element(dtype);
  set_counts(r, 2 * x.M * x.hc3 * x.K, bpe,
             x.M * x.n * x.C * bpe.value_or(0) + x.hc3 * x.K * 4 + x.split_k * x.M * x.hc3 * 4 + x.split_k * x.M * 4);
  return r;
}

// mhc_pre_big_fuse_rmsnorm(post_mix (M, n, 1), comb_mix, out (M, C), gemm_out_mul
// (split_k, M, hc3), …, hc_base (hc3), residual, norm_weight, …): flops = 2·M·C·n + 5·M·C;
// bytes = residual, weight and layer input at bpe + partials and mixes at 4.
ModelResult mhc_pre_big_fuse_rmsnorm(const EventArgs& g) {
  const auto M = dim(g, 2, 0), C = dim(g, 2, 1), n = dim(g, 0, 1), hc3 = dim(g, 6, 0), sk = dim(g, 3, 0);
  if (!M || !C || !n || !hc3 || !sk) return ModelResult{};
  const Mhc x{*M, *n, *C, *hc3, 0, *sk};
  const PyValue dtype = dtype_or_bf16(g, 7);
  ModelResult r;
  base_params(r, x, "vector", dtype);
  r.param("hc3", PyValue::integer(x.hc3));
  r.param("split_k", PyValue::integer(x.split_k));
  r.param("dtype_in", dtype);
  const auto bpe = bytes_per_element(dtype);
  const int64_t b = bpe.value_or(0);
  set_counts(r, 2 * x.M * x.C * x.n + 5 * x.M * x.C, bpe,
             x.M * x.n * x.C * b + x.split_k * x.M * x.hc3 * 4 + x.C * b + x.M * x.C * b + x.M * x.n * 4 +
                 x.M * x.n * x.n * 4);
  return r;
}

// mhc_fused_post_pre_gemm_sqrsum(gemm_out_mul (split_k, M, hc3), gemm_out_sqrsum,
// next_residual (M, n, C), layer_input (M, C), residual_in, post_layer_mix, comb_res_mix,
// fn (hc3, K), …): the post step then the pre projection: flops = 2·M·n·C·(n + 1) +
// 2·M·hc3·K; bytes = layer input + residual in + next residual written and read back at
// bpe, mixes, fn, partials and square sums at 4.
ModelResult mhc_fused_post_pre_gemm_sqrsum(const EventArgs& g) {
  const auto M = dim(g, 3, 0), C = dim(g, 3, 1), n = dim(g, 2, 1), hc3 = dim(g, 7, 0), K = dim(g, 7, 1),
             sk = dim(g, 0, 0);
  if (!M || !C || !n || !hc3 || !K || !sk) return ModelResult{};
  const Mhc x{*M, *n, *C, *hc3, *K, *sk};
  const PyValue dtype = dtype_or_bf16(g, 3);
  ModelResult r;
  base_params(r, x, "matrix", dtype);
  r.param("hc3", PyValue::integer(x.hc3));
  r.param("K", PyValue::integer(x.K));
  r.param("split_k", PyValue::integer(x.split_k));
  r.param("dtype_in", dtype);
  const auto bpe = bytes_per_element(dtype);
  const int64_t b = bpe.value_or(0), mnc = x.M * x.n * x.C * b;
  set_counts(r, 2 * x.M * x.n * x.C * (x.n + 1) + 2 * x.M * x.hc3 * x.K, bpe,
             x.M * x.C * b + 3 * mnc + x.M * x.n * 4 + x.M * x.n * x.n * 4 + x.hc3 * x.K * 4 +
                 x.split_k * x.M * x.hc3 * 4 + x.split_k * x.M * 4);
  return r;
}

// topk_softplus(topk_weights (M, topk), topk_indices, gating_output (M, E), …): params M,
// n = 1, C = E, E, topk; flops = 6·M·E; bytes = gating at bpe + bias (E·4) + weights
// and indices (M·topk·4 each).
ModelResult topk_softplus(const EventArgs& g) {
  const auto M = dim(g, 2, 0), E = dim(g, 2, 1), topk = dim(g, 0, 1);
  if (!M || !E || !topk) return ModelResult{};
  const Mhc x{*M, 1, *E};
  const PyValue dtype = dtype_or_bf16(g, 2);
  ModelResult r;
  base_params(r, x, "vector", dtype);
  r.param("E", PyValue::integer(*E));
  r.param("topk", PyValue::integer(*topk));
  r.param("dtype_in", dtype);
  const auto bpe = bytes_per_element(dtype);
  set_counts(r, 6 * x.M * *E, bpe, x.M * *E * bpe.value_or(0) + *E * 4 + x.M * *topk * 4 * 2);
  return r;
}

}  // namespace

ModelResult eval_mhc(Model m, const ModelInput& in) {
  switch (m) {
    case Model::kMhcPost: return mhc_post(in.args);
    case Model::kMhcPreGemmSqrsum: return mhc_pre_gemm_sqrsum(in.args);
    case Model::kMhcPreBigFuseRmsnorm: return mhc_pre_big_fuse_rmsnorm(in.args);
    case Model::kMhcFusedPostPreGemmSqrsum: return mhc_fused_post_pre_gemm_sqrsum(in.args);
    case Model::kTopkSoftplus: return topk_softplus(in.args);
    default: return ModelResult{};
  }
}

}  // namespace sollens::perf
