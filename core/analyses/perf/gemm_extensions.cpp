// The GEMM extension models (tracelens-semantics.md §6.2 and §7: TransformerEngine,
// vLLM, hipBLASLt and aiter GEMM ops). Each reads its own arg layout into TraceLens's
// params; FLOPs are the GEMM base count (times B for the batched ops) and bytes the
// base formula at the bytes per element each model picks. Quirks kept: the output and
// bias dtypes some models assume (bf16), FP4 operands at 0.5 bytes per element (so
// their bytes are a Python float), hipBLASLt's FP4 bytes with the E8M0 scales.
#include <cctype>
#include <utility>
#include <vector>

#include "analyses/perf/gemm_params.h"
#include "analyses/perf/models.h"

namespace sollens::perf {

namespace {

const PyValue kBf16 = PyValue::str("c10::bfloat16");

PyValue type_or(const EventArgs& g, size_t k, const PyValue& fallback) {
  const PyValue* t = type_at(g, k);
  return t ? *t : fallback;
}


// tuple(args["Input Strides"][k]) under `try: … except KeyError` (or, with
// `index_error_too`, `except (KeyError, IndexError)`): None when the key is absent;
// nullopt (the event fails) where the index raises and is not caught.
std::optional<PyValue> stride_at(const EventArgs& g, size_t k, bool index_error_too) {
  if (g.strides.is_none()) return PyValue::none();
  if (!g.strides.is_seq() || k >= g.strides.size()) {
    if (index_error_too) return PyValue::none();
    return std::nullopt;
  }
  return g.strides[k].as_tuple();
}

// `x is not None and len(x) > 0` for an Input Dims slot (a bias tensor present).
bool slot_nonempty(const EventArgs& g, size_t slot) {
  const PyValue& v = at(g.dims, slot);
  return v.is_seq() && v.size() > 0;
}

// Params M, N, K, bias first (the models without a B of their own).
void mnk_bias(ModelResult& r, int64_t M, int64_t N, int64_t K, bool bias) {
  r.param("M", PyValue::integer(M));
  r.param("N", PyValue::integer(N));
  r.param("K", PyValue::integer(K));
  r.param("bias", PyValue::boolean(bias));
}

// Params B, M, N, K, bias (the aiter models that set B).
void b_mnk_bias(ModelResult& r, int64_t B, int64_t M, int64_t N, int64_t K, bool bias) {
  r.param("B", PyValue::integer(B));
  mnk_bias(r, M, N, K, bias);
}

// Marks the params parsed, appends B/transpose and sets the forward FLOPs and bytes.
ModelResult finish(ModelResult r, const ModelInput& in, int64_t flops, std::optional<Count> bytes,
                   bool bytes_raise = false) {
  r.status = Status::kOk;
  add_gemm_tail_params(r, in.kernel_names);
  if (bytes_raise) {
    r.fwd.status = Status::kError;  // bytes() raises: TraceLens skips the event
    return r;
  }
  r.fwd.status = Status::kOk;
  r.fwd.flops = Count::of(flops);
  r.fwd.bytes = bytes;
  return r;
}

ModelResult new_result(const PyValue& precision) {
  ModelResult r;
  r.maf_type = "matrix";
  r.bwd.status = Status::kNotImplemented;  // no GEMM bwd rows
  r.precision_dtype = precision;
  return r;
}

// tex_ts::te_gemm_ts: A = slot 0, B = slot 5, out dtype slot 10, bias dtype slot 18;
// transA/transB = Concrete[4]/[9] == "1"; a bias when Concrete[14] is not "".
ModelResult te_gemm_ts(const ModelInput& in) {
  const EventArgs& g = in.args;
  const PyValue &c4 = at(g.concrete, 4), &c9 = at(g.concrete, 9), &c14 = at(g.concrete, 14);
  const bool ta = c4.kind == PyValue::Kind::kStr && c4.s == "1", tb = c9.kind == PyValue::Kind::kStr && c9.s == "1";
  const auto a0 = dim(g, 0, 0), a1 = dim(g, 0, 1), b0 = dim(g, 5, 0), b1 = dim(g, 5, 1);
  const PyValue *t0 = type_at(g, 0), *t5 = type_at(g, 5), *t10 = type_at(g, 10), *t18 = type_at(g, 18);
  if (!a0 || !a1 || !b0 || !b1 || !t0 || !t5 || !t10 || !t18 || !at(g.dims, 10).is_seq() || c14.is_none())
    return ModelResult{};
  const int64_t M = ta ? *a0 : *a1, K = ta ? *a1 : *a0, N = tb ? *b1 : *b0;
  const bool bias = !(c14.kind == PyValue::Kind::kStr && c14.s.empty());
  const auto sa = stride_at(g, 0, false), sb = stride_at(g, 5, false);
  if (!sa || !sb) return ModelResult{};
  ModelResult r = new_result(*t0);
  mnk_bias(r, M, N, K, bias);
  r.param("stride_A", *sa);
  r.param("stride_B", *sb);
  r.param("dtype_A_B", PyValue::tuple({*t0, *t5, *t10, *t18}));
  return finish(std::move(r), in, gemm_flops(M, N, K, bias),
                gemm_bytes(M, N, K, bias, bpe_of(*t0), bpe_of(*t5), bpe_of(*t18), bpe_of(*t10)));
}

// vllm::gemm_with_dynamic_quant: A and B = the first two 2-element shapes of Input Dims
// (else its first two entries); M = A[0], K = A[1], N = B[0]; bpe(A) for every operand.
ModelResult gemm_with_dynamic_quant(const ModelInput& in) {
  const EventArgs& g = in.args;
  const PyValue *A = nullptr, *B = nullptr;
  if (g.dims.is_seq()) {
    for (const PyValue& shape : g.dims.items)
      if (shape.is_seq() && shape.size() == 2) {
        if (!A) A = &shape;
        else if (!B) B = &shape;
      }
    if ((!A || !B) && g.dims.size() >= 2) {
      if (!A && g.dims[0].is_seq()) A = &g.dims[0];
      if (!B && g.dims[1].is_seq()) B = &g.dims[1];
    }
  }
  if (!A || !B || A->size() != 2 || B->size() != 2 || !(*A)[0].is_int() || !(*A)[1].is_int() || !(*B)[0].is_int())
    return ModelResult{};  // ValueError: no 2-D A, B
  const PyValue *t0 = type_at(g, 0), *t1 = type_at(g, 1);
  if (!t0 || !t1) return ModelResult{};
  const int64_t M = (*A)[0].i, K = (*A)[1].i, N = (*B)[0].i;
  const auto sa = stride_at(g, 0, false), sb = stride_at(g, 1, false);
  if (!sa || !sb) return ModelResult{};
  ModelResult r = new_result(*t0);
  mnk_bias(r, M, N, K, false);
  r.param("stride_A", *sa);
  r.param("stride_B", *sb);
  r.param("dtype_A_B", PyValue::tuple({*t0, *t1}));
  const Bpe bpe = bpe_of(*t0);
  return finish(std::move(r), in, gemm_flops(M, N, K, false), gemm_bytes(M, N, K, false, bpe, bpe, bpe, bpe));
}

// TE v2 pseudo GEMMs (_Linear*_mm, _LayerNormLinear*_mm): aten::mm's layout; A and B
// dtypes must match (bytes() raises otherwise); the output is 2 bytes per element.
ModelResult tev2_pseudo_gemm(const ModelInput& in) {
  const EventArgs& g = in.args;
  const auto a0 = dim(g, 0, 0), a1 = dim(g, 0, 1), b1 = dim(g, 1, 1);
  if (!a0 || !a1 || !b1 || !g.types.is_seq()) return ModelResult{};
  const auto sa = stride_at(g, 0, false), sb = stride_at(g, 1, false);
  if (!sa || !sb) return ModelResult{};
  std::vector<PyValue> dtypes;
  for (size_t k = 0; k < 2 && k < g.types.size(); ++k) dtypes.push_back(g.types[k]);
  ModelResult r = new_result(dtypes.empty() ? PyValue::none() : dtypes[0]);
  mnk_bias(r, *a0, *b1, *a1, false);
  r.param("stride_A", *sa);
  r.param("stride_B", *sb);
  r.param("dtype_A_B", PyValue::tuple(dtypes));
  const bool mismatch = dtypes.size() < 2 || repr(dtypes[0]) != repr(dtypes[1]);
  const Bpe bpe = dtypes.empty() ? Bpe() : bpe_of(dtypes[0]);
  return finish(std::move(r), in, gemm_flops(*a0, *b1, *a1, false),
                gemm_bytes(*a0, *b1, *a1, false, bpe, bpe, bpe, 2.0), mismatch);
}

// Python's parse_bool on a Concrete Inputs string ("True"/"1" → True).
bool parse_bool(const PyValue& v) {
  if (v.kind != PyValue::Kind::kStr) return false;
  std::string s;
  for (char c : v.s)
    if (c != ' ') s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s == "true" || s == "1";
}

// The hipBLASLt layout (A, scaleA, B, scaleB, out_dtype, transA, transB, transC, …).
// `packed_k`: FP4, K = 2 × the traced K.
struct HipblasltShape {
  int64_t M, N, K;
};
std::optional<HipblasltShape> hipblaslt_shape(const EventArgs& g, bool packed_k) {
  const PyValue &A0 = at(g.dims, 0), &B0 = at(g.dims, 2);
  if (!A0.is_seq() || !B0.is_seq() || A0.size() < 2 || B0.size() < 2) return std::nullopt;
  const PyValue* A = &A0;
  const PyValue* B = &B0;
  bool ta = parse_bool(at(g.concrete, 5)), tb = parse_bool(at(g.concrete, 6));
  if (parse_bool(at(g.concrete, 7))) {  // transC: C^T = B^T A^T
    std::swap(A, B);
    const bool a = ta;
    ta = !tb;
    tb = !a;
  }
  const PyValue &m = ta ? (*A)[1] : (*A)[0], &k = ta ? (*A)[0] : (*A)[1], &n = tb ? (*B)[0] : (*B)[1];
  if (!m.is_int() || !k.is_int() || !n.is_int()) return std::nullopt;
  return HipblasltShape{m.i, n.i, packed_k ? 2 * k.i : k.i};
}

// Params of the hipBLASLt / aiter FP8/FP4 GEMMs: M, N, K, bias, strides, dtypes, scale dtypes.
void scaled_gemm_params(ModelResult& r, const HipblasltShape& s, const PyValue& sa, const PyValue& sb,
                        const PyValue& ta, const PyValue& tb, const PyValue* scale_a, const PyValue* scale_b) {
  mnk_bias(r, s.M, s.N, s.K, false);
  r.param("stride_A", sa);
  r.param("stride_B", sb);
  r.param("dtype_A_B", PyValue::tuple({ta, tb}));
  r.param("dtype_scaleA", scale_a ? *scale_a : PyValue::none());
  r.param("dtype_scaleB", scale_b ? *scale_b : PyValue::none());
}

// MXFP4 GEMM bytes: packed operands, one E8M0 scale per 32 K-elements (an unknown scale
// dtype counts 1 byte), a 2-byte output. nullopt where TraceLens raises.
std::optional<Count> fp4_gemm_bytes(const HipblasltShape& s, const PyValue& ta, const PyValue& tb,
                                    const PyValue* scale_a, const PyValue* scale_b) {
  const auto a = bytes_per_element(ta), b = bytes_per_element(tb);
  if (!a || !b || !scale_a || !scale_b || scale_a->kind != PyValue::Kind::kStr || scale_b->kind != PyValue::Kind::kStr)
    return std::nullopt;
  const int64_t scales = (s.K + 31) / 32;
  const int64_t sa = bytes_per_element(*scale_a).value_or(1), sb = bytes_per_element(*scale_b).value_or(1);
  return Count::of(s.M * (s.K / 2) * *a + s.N * (s.K / 2) * *b + s.M * scales * sa + s.N * scales * sb + s.M * s.N * 2);
}

// primus_turbo hipblaslt_gemm_fp8 / _fp4: A = slot 0, B = slot 2, trans flags in Concrete
// Inputs[5..7]; fp8 output 2 bytes per element (else bpe(A)).
ModelResult hipblaslt_gemm(Model m, const ModelInput& in) {
  const EventArgs& g = in.args;
  const bool fp4 = m == Model::kHipblasltGemmFp4;
  const auto shape = hipblaslt_shape(g, fp4);
  const PyValue *t0 = type_at(g, 0), *t2 = type_at(g, 2);
  if (!shape || !t0 || !t2) return ModelResult{};
  const PyValue *scale_a = type_at(g, 1), *scale_b = type_at(g, 3);
  ModelResult r = new_result(*t0);
  scaled_gemm_params(r, *shape, *stride_at(g, 0, true), *stride_at(g, 2, true), *t0, *t2, scale_a, scale_b);
  const int64_t flops = gemm_flops(shape->M, shape->N, shape->K, false);
  if (fp4) {
    const auto bytes = fp4_gemm_bytes(*shape, *t0, *t2, scale_a, scale_b);
    return finish(std::move(r), in, flops, bytes, !bytes);
  }
  const Bpe a = bpe_of(*t0), b = bpe_of(*t2);
  if (!a || !b) return finish(std::move(r), in, flops, std::nullopt, true);  // an assert fails
  return finish(std::move(r), in, flops, gemm_bytes(shape->M, shape->N, shape->K, false, a, b, a, *a == 1 ? 2.0 : *a));
}

// aiter::gemm_a4w4 / _gemm_a4w4_asm: A = slot 0 (M, K/2), B = slot 1 (N, K/2), scales in
// slots 2 and 3; the NT layout only; bytes as hipblaslt_gemm_fp4.
ModelResult aiter_gemm_a4w4(const ModelInput& in) {
  const EventArgs& g = in.args;
  const auto a0 = dim(g, 0, 0), a1 = dim(g, 0, 1), b0 = dim(g, 1, 0);
  const PyValue *t0 = type_at(g, 0), *t1 = type_at(g, 1);
  if (!a0 || !a1 || !b0 || !t0 || !t1) return ModelResult{};
  const HipblasltShape s{*a0, *b0, 2 * *a1};
  const PyValue *scale_a = type_at(g, 2), *scale_b = type_at(g, 3);
  ModelResult r = new_result(*t0);
  scaled_gemm_params(r, s, *stride_at(g, 0, true), *stride_at(g, 1, true), *t0, *t1, scale_a, scale_b);
  const auto bytes = fp4_gemm_bytes(s, *t0, *t1, scale_a, scale_b);
  return finish(std::move(r), in, gemm_flops(s.M, s.N, s.K, false), bytes, !bytes);
}

// The aiter/sglang GEMMs whose params are B, M, N, K, bias, dtype_A_B = (A, B, output):
// x = slot 0, w = slot 1 (N first); the output and bias at dtype_A_B[2].
struct AiterGemm {
  int64_t B = 1, M = 0, N = 0, K = 0;
  bool bias = false;
  PyValue dtype_a, dtype_b, dtype_out;
};

ModelResult aiter_gemm_result(const ModelInput& in, const AiterGemm& a, const PyValue& precision, Bpe bpe_a,
                              Bpe bpe_b) {
  ModelResult r = new_result(precision);
  b_mnk_bias(r, a.B, a.M, a.N, a.K, a.bias);
  r.param("dtype_A_B", PyValue::tuple({a.dtype_a, a.dtype_b, a.dtype_out}));
  const Bpe out = bpe_of(a.dtype_out);
  return finish(std::move(r), in, a.B * gemm_flops(a.M, a.N, a.K, a.bias),
                gemm_bytes(a.M, a.N, a.K, a.bias, bpe_a, bpe_b, out, out, a.B));
}

// M = x[0], K = x[1], N = w[0]; nullopt where an index raises.
std::optional<AiterGemm> x_w_gemm(const EventArgs& g) {
  const auto m = dim(g, 0, 0), k = dim(g, 0, 1), n = dim(g, 1, 0);
  const PyValue *t0 = type_at(g, 0), *t1 = type_at(g, 1);
  if (!m || !k || !n || !t0 || !t1) return std::nullopt;
  return AiterGemm{1, *m, *n, *k, false, *t0, *t1, kBf16};
}

// gemm_a8w8_blockscale: output bf16; with the two scale tensors (slots 2, 3) the
// block-scale params, then the inferred output shape and dtype.
ModelResult gemm_a8w8_blockscale(const ModelInput& in) {
  const EventArgs& g = in.args;
  const auto m = dim(g, 0, 0), k = dim(g, 0, 1), n = dim(g, 1, 0);
  if (!m || !k || !n) return ModelResult{};
  const PyValue t0 = type_or(g, 0, PyValue::str("")), t1 = type_or(g, 1, PyValue::str(""));
  ModelResult r = new_result(t0);
  b_mnk_bias(r, 1, *m, *n, *k, false);
  r.param("dtype_A_B", PyValue::tuple({t0, t1, kBf16}));
  if (g.dims.is_seq() && g.dims.size() > 3) {
    const PyValue &x_scale = g.dims[2], &w_scale = g.dims[3];
    auto ceil_div = [](int64_t a, const PyValue& b) {  // -(-a // b), when b is a non-zero int
      return b.is_int() && b.i != 0 ? PyValue::integer(-floor_div(-a, b.i)) : PyValue::none();
    };
    const PyValue no_value;
    r.param("quant_scheme", PyValue::str("a8w8_blockscale"));
    r.param("quant_granularity", PyValue::str("per_block"));
    r.param("block_k", x_scale.is_seq() && x_scale.size() > 0 ? ceil_div(*k, x_scale.items.back()) : no_value);
    r.param("block_n", w_scale.is_seq() && w_scale.size() > 0 ? ceil_div(*n, w_scale[0]) : no_value);
    r.param("scale_dtype", type_or(g, 2, PyValue::str("float32")));
  }
  r.param("output_shape", PyValue::tuple({PyValue::integer(*m), PyValue::integer(*n)}));
  r.param("output_dtype", kBf16);
  const Bpe out = 2.0;
  return finish(std::move(r), in, gemm_flops(*m, *n, *k, false),
                gemm_bytes(*m, *n, *k, false, bpe_of(t0), bpe_of(t1), out, out));
}

// vllm::rocm_unquantized_gemm: x = (M, K), weight = (N, K), bias = slot 2 when non-empty;
// dtype_A_B's third entry is the bias dtype ("" when absent): it sizes output and bias
// with a bias, the weight dtype does without one.
ModelResult rocm_unquantized_gemm(const ModelInput& in) {
  const EventArgs& g = in.args;
  const auto m = dim(g, 0, 0), k = dim(g, 0, 1), n = dim(g, 1, 0);
  const PyValue *t0 = type_at(g, 0), *t1 = type_at(g, 1);
  if (!m || !k || !n || !t0 || !t1) return ModelResult{};
  const bool bias = g.dims.size() > 2 && slot_nonempty(g, 2);
  const PyValue t2 = type_or(g, 2, PyValue::str(""));
  ModelResult r = new_result(*t0);
  mnk_bias(r, *m, *n, *k, bias);
  r.param("dtype_A_B", PyValue::tuple({*t0, *t1, t2}));
  const Bpe out = bias ? bpe_of(t2) : bpe_of(*t1);
  return finish(std::move(r), in, gemm_flops(*m, *n, *k, bias),
                gemm_bytes(*m, *n, *k, bias, bpe_of(*t0), bpe_of(*t1), out, out));
}

// aiter::gemm_a16w16 (bias = slot 2, output at A's dtype), gemm_a16w16_atomic_ (output
// dtype = slot 3, else bf16), _gemm_a16w16_asm (output = slot 2 when its dtype is known,
// else A's).
ModelResult gemm_a16w16(Model m, const ModelInput& in) {
  const EventArgs& g = in.args;
  auto a = x_w_gemm(g);
  if (!a) return ModelResult{};
  if (m == Model::kGemmA16w16) {
    a->bias = g.dims.size() > 2 && slot_nonempty(g, 2);
    a->dtype_out = a->dtype_a;
  } else if (m == Model::kGemmA16w16Atomic) {
    a->dtype_out = type_or(g, 3, kBf16);
  } else {
    const PyValue* t2 = type_at(g, 2);
    a->dtype_out = t2 && bytes_per_element(*t2) ? *t2 : a->dtype_a;
  }
  return aiter_gemm_result(in, *a, a->dtype_a, bpe_of(a->dtype_a), bpe_of(a->dtype_b));
}

// aiter::gemm_afp4wfp4_: both operands packed MXFP4 (K = 2 × the traced K), bf16 output.
ModelResult gemm_afp4wfp4(const ModelInput& in) {
  auto a = x_w_gemm(in.args);
  if (!a) return ModelResult{};
  a->K *= 2;
  return aiter_gemm_result(in, *a, PyValue::str("mxfp4"), 0.5, 0.5);
}

// aiter::batched_gemm_a16wfp4_: x = (B, M, K), w = (B, N, K/2) packed FP4; FLOPs and
// bytes times B.
ModelResult batched_gemm_a16wfp4(const ModelInput& in) {
  const EventArgs& g = in.args;
  const auto b = dim(g, 0, 0), m = dim(g, 0, 1), k = dim(g, 0, 2), n = dim(g, 1, 1);
  const PyValue *t0 = type_at(g, 0), *t1 = type_at(g, 1);
  if (!b || !m || !k || !n || !t0 || !t1) return ModelResult{};
  const AiterGemm a{*b, *m, *n, *k, false, *t0, *t1, kBf16};
  return aiter_gemm_result(in, a, PyValue::str("mxfp4"), bpe_of(*t0), 0.5);
}

// sglang batched_gemm_a8w8: w = (B, N, K); x = (B, M, K) or (M, B, K) (M is the dim of x
// that is not B's leading one); precision from w's dtype.
ModelResult batched_gemm_a8w8(const ModelInput& in) {
  const EventArgs& g = in.args;
  const auto b = dim(g, 1, 0), n = dim(g, 1, 1), x0 = dim(g, 0, 0), x1 = dim(g, 0, 1), k = dim(g, 0, 2);
  const PyValue *t0 = type_at(g, 0), *t1 = type_at(g, 1);
  if (!b || !n || !x0 || !x1 || !k || !t0 || !t1) return ModelResult{};
  const AiterGemm a{*b, *x0 == *b ? *x1 : *x0, *n, *k, false, *t0, *t1, kBf16};
  return aiter_gemm_result(in, a, *t1, bpe_of(*t0), bpe_of(*t1));
}

}  // namespace

ModelResult eval_gemm_extension(Model m, const ModelInput& in) {
  switch (m) {
    case Model::kTeGemmTs: return te_gemm_ts(in);
    case Model::kVllmGemmWithDynamicQuant: return gemm_with_dynamic_quant(in);
    case Model::kTev2PseudoGemm: return tev2_pseudo_gemm(in);
    case Model::kHipblasltGemmFp8:
    case Model::kHipblasltGemmFp4: return hipblaslt_gemm(m, in);
    case Model::kAiterGemmA4w4: return aiter_gemm_a4w4(in);
    case Model::kBatchedGemmA16wfp4: return batched_gemm_a16wfp4(in);
    case Model::kGemmA8w8Blockscale: return gemm_a8w8_blockscale(in);
    case Model::kVllmRocmUnquantizedGemm: return rocm_unquantized_gemm(in);
    case Model::kGemmA16w16:
    case Model::kGemmA16w16Atomic:
    case Model::kGemmA16w16Asm: return gemm_a16w16(m, in);
    case Model::kGemmAfp4wfp4: return gemm_afp4wfp4(in);
    case Model::kBatchedGemmA8w8: return batched_gemm_a8w8(in);
    default: return ModelResult{};
  }
}

}  // namespace sollens::perf
