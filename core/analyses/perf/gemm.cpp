// GEMM models (tracelens-semantics.md §6.2): aten::mm, addmm, _scaled_mm, bmm, baddbmm.
// Quirks kept: bpe(A) stands for A, B, bias and output; bias bytes are N elements;
// `B` and `transpose` follow the model's own params (gemm_params.h). Backward raises
// NotImplementedError for every registered GEMM class, so no GEMM bwd rows exist.
// Corrected bytes (CORRECTIONS.md): each operand at its own dtype, the whole bias
// tensor, and for aten::_scaled_mm the bias slot, the scales and out_dtype.
#include "analyses/perf/gemm_params.h"
#include "analyses/perf/models.h"
#include "base/python_literal.h"

namespace sollens::perf {

namespace {

// Bytes per element of a c10::ScalarType code as Kineto records an optional dtype
// argument in Concrete Inputs ("15" = BFloat16); nullopt when absent or unknown.
std::optional<int64_t> scalar_type_bytes(const PyValue& code) {
  if (code.kind != PyValue::Kind::kStr || code.s.empty()) return std::nullopt;
  const auto v = literal_eval(code.s);
  if (!v || v->kind != PyValue::Kind::kInt) return std::nullopt;
  switch (v->i) {
    case 0: case 1: case 23: case 24: case 25: case 26: return 1;  // uint8, int8, float8 variants
    case 2: case 5: case 15: return 2;                             // int16, half, bfloat16
    case 3: case 6: return 4;                                       // int32, float
    case 4: case 7: return 8;                                       // int64, double
    default: return std::nullopt;
  }
}

int64_t elements(const PyValue& shape) {
  auto v = int_list(shape);
  return v ? prod(*v) : 0;
}

// The corrected bytes, or nullopt when a dtype is unknown.
std::optional<int64_t> corrected_gemm_bytes(Model m, std::string_view op, const EventArgs& g, int64_t batch, int64_t M,
                                            int64_t N, int64_t K, bool& bias_out) {
  const bool with_c = m == Model::kAddmm || m == Model::kBaddbmm;
  const size_t ia = with_c ? 1 : 0, ib = ia + 1;
  const auto bpe_a = bytes_per_element(at(g.types, ia)), bpe_b = bytes_per_element(at(g.types, ib));
  if (!bpe_a || !bpe_b) return std::nullopt;
  std::optional<int64_t> bpe_out = bpe_a;  // mm/bmm/addmm/baddbmm: inputs share one dtype, and so does the result
  int64_t extra = 0;
  bias_out = with_c;
  if (with_c) {
    const auto bpe_c = bytes_per_element(at(g.types, 0));
    if (!bpe_c) return std::nullopt;
    extra += elements(at(g.dims, 0)) * *bpe_c;  // the whole C tensor, (N,) or (M, N)
  }
  if (m == Model::kScaledMm) {
    if (op != "aten::_scaled_mm") return std::nullopt;
    // _scaled_mm(self, mat2, scale_a, scale_b, bias, scale_result, out_dtype, use_fast_accum)
    for (size_t k : {size_t{2}, size_t{3}, size_t{5}})
      if (auto b = bytes_per_element(at(g.types, k)); b && elements(at(g.dims, k)) > 0) extra += elements(at(g.dims, k)) * *b;
    bias_out = at(g.dims, 4).is_seq() && at(g.dims, 4).size() > 0;
    if (bias_out) {
      const auto bpe_bias = bytes_per_element(at(g.types, 4));
      if (!bpe_bias) return std::nullopt;
      extra += N * *bpe_bias;
    }
    bpe_out = scalar_type_bytes(at(g.concrete, 6));
    if (!bpe_out) bpe_out = *bpe_a == 1 ? 2 : *bpe_a;  // out_dtype None: the input dtype (fp8: TraceLens's 2)
  }
  return batch * (M * K * *bpe_a + K * N * *bpe_b + M * N * *bpe_out) + extra;
}

struct Shapes {
  std::vector<int64_t> a, b;
};

}  // namespace

ModelResult eval_gemm(Model m, const ModelInput& in) {
  ModelResult r;
  r.maf_type = "matrix";
  r.bwd.status = Status::kNotImplemented;
  const EventArgs& g = in.args;
  const bool batched = m == Model::kBmm || m == Model::kBaddbmm;
  const bool with_c = m == Model::kAddmm || m == Model::kBaddbmm;
  const size_t ia = with_c ? 1 : 0, ib = ia + 1;
  auto A = int_list(at(g.dims, ia)), Bm = int_list(at(g.dims, ib));
  if (!A || !Bm) return r;
  int64_t batch = 1, M, K, N;
  if (batched) {
    if (A->size() != 3 || Bm->size() != 3) return r;
    batch = (*A)[0], M = (*A)[1], K = (*A)[2], N = (*Bm)[2];
  } else {
    if (A->size() < 2 || Bm->size() < 2) return r;
    M = (*A)[0], K = (*A)[1], N = (*Bm)[1];
  }
  const bool bias = m == Model::kScaledMm ? g.dims.size() == 3 : with_c;
  const PyValue dtA = at(g.types, ia), dtB = at(g.types, ib);
  if (batched) r.param("B", PyValue::integer(batch));
  r.param("M", PyValue::integer(M));
  r.param("N", PyValue::integer(N));
  r.param("K", PyValue::integer(K));
  r.param("bias", PyValue::boolean(bias));
  r.param("stride_A", at(g.strides, ia).as_tuple());
  r.param("stride_B", at(g.strides, ib).as_tuple());
  r.param("dtype_A_B", PyValue::tuple({dtA, dtB}));
  add_gemm_tail_params(r, in.kernel_names);
  r.precision_dtype = dtA;
  r.status = Status::kOk;

  const int64_t flops = 2 * M * N * K + (bias ? M * N : 0);
  r.fwd.status = Status::kOk;
  r.fwd.flops = Count::of(flops * batch);
  const auto bpe = bytes_per_element(dtA);
  std::optional<int64_t> bpe_out = bpe;
  if (m == Model::kScaledMm) {
    if (!bpe) bpe_out.reset();
    else if (*bpe == 1) bpe_out = 2;
    else if (*bpe != 2 && *bpe != 4) bpe_out.reset();
  }
  if (bpe && bpe_out) {
    const int64_t bytes = M * K * *bpe + K * N * *bpe + M * N * *bpe_out + (bias ? N * *bpe : 0);
    r.fwd.bytes = Count::of(bytes * batch);
  }
  bool bias_fixed = bias;
  const auto fixed = corrected_gemm_bytes(m, in.name, g, batch, M, N, K, bias_fixed);
  if (bias_fixed != bias) r.fwd.flops_corrected = Count::of((2 * M * N * K + (bias_fixed ? M * N : 0)) * batch);
  if (fixed && r.fwd.bytes && *fixed != r.fwd.bytes->i) r.fwd.bytes_corrected = Count::of(*fixed);
  else if (fixed && !r.fwd.bytes) r.fwd.bytes_corrected = Count::of(*fixed);
  return r;
}

}  // namespace sollens::perf
