// MoE models (tracelens-semantics.md §7): the fused aiter MoE kernels (MoE_fused), the
// up/down stages of the unfused aiter/CK pipelines and SGLang's Triton grouped GEMM
// (MoE_unfused), and the routing/sort helpers (MoE_aux). M tokens, K = hidden_dim,
// N = inter_dim, E experts, topk experts per token. Weights are counted for
// E_active = E·(1 − ((E − topk)/E)^M) experts (uniform routing), so bytes are floats.
// Bytes per element come from TraceLens's MoE dtype table (exact names, with per-model
// defaults), not name2bpe.
#include <cctype>
#include <cmath>
#include <string>

#include "analyses/perf/models.h"
#include "base/python_literal.h"

namespace sollens::perf {

namespace {

// TraceLens's DTYPE_TO_BYTES for the MoE models: exact (case-sensitive) names.
double moe_bpe(const PyValue& dtype, double fallback) {
  if (dtype.kind != PyValue::Kind::kStr) return fallback;
  static const std::pair<std::string_view, double> kTable[] = {
      {"Float8_e4m3fn", 1},        {"Float8_e4m3fnuz", 1},      {"Float8_e5m2", 1},        {"Float8_e5m2fnuz", 1},
      {"FP8", 1},                  {"FP4", 0.5},                {"BFloat16", 2},           {"Float16", 2},
      {"Half", 2},                 {"Float32", 4},              {"Float", 4},              {"c10::BFloat16", 2},
      {"c10::Float8_e4m3fn", 1},   {"c10::Float8_e4m3fnuz", 1}, {"c10::Float4_e2m1fn_x2", 0.5},
      {"c10::Half", 2},            {"c10::Float", 4}};
  for (const auto& [name, bpe] : kTable)
    if (dtype.s == name) return bpe;
  return fallback;
}

double active_experts(int64_t E, int64_t topk, int64_t M) {
  return static_cast<double>(E) * (1 - std::pow(static_cast<double>(E - topk) / static_cast<double>(E), static_cast<double>(M)));
}

// A shape of exactly `n` ints (Python's tuple unpacking), else nullopt.
std::optional<std::vector<int64_t>> shape_of(const EventArgs& g, size_t slot, size_t n) {
  auto s = int_list(at(g.dims, slot));
  if (!s || s->size() != n) return std::nullopt;
  return s;
}

struct Moe {
  int64_t M = 0, K = 0, N = 0, E = 0, topk = 0;
  bool gated = false;
  PyValue input_dtype, weight_dtype, output_dtype;
  bool has_output_dtype = false;
  bool has_weight_dtype = true;
};

void moe_params(ModelResult& r, const Moe& x, bool with_gated) {
  r.param("num_tokens", PyValue::integer(x.M));
  r.param("hidden_dim", PyValue::integer(x.K));
  r.param("inter_dim", PyValue::integer(x.N));
  r.param("num_experts", PyValue::integer(x.E));
  r.param("topk", PyValue::integer(x.topk));
  if (with_gated) r.param("gated", PyValue::boolean(x.gated));
  r.param("input_dtype", x.input_dtype);
  if (x.has_weight_dtype) r.param("weight_dtype", x.weight_dtype);
  if (x.has_output_dtype) r.param("output_dtype", x.output_dtype);
}

ModelResult moe_result(const Moe& x, bool with_gated, const PyValue& precision, int64_t flops, double bytes) {
  ModelResult r;
  r.maf_type = "matrix";
  r.bwd.status = Status::kNotImplemented;
  moe_params(r, x, with_gated);
  r.precision_dtype = precision;
  r.status = Status::kOk;
  r.fwd.status = Status::kOk;
  r.fwd.flops = Count::of(flops);
  r.fwd.bytes = Count::real(bytes);
  return r;
}

// Fused: flops = 2·M·K·N·topk·(2 if gated) + 2·M·K·N·topk + M·K·(2·topk − 1);
// bytes = M·K·in + E_active·N·K·w·(2 if gated) + E_active·N·K·w + M·K·out.
ModelResult fused(const Moe& x, double in, double w, double out, const PyValue& precision) {
  const int64_t g = x.gated ? 2 : 1;
  const int64_t flops = 2 * x.M * x.K * x.N * x.topk * g + 2 * x.M * x.K * x.N * x.topk + x.M * x.K * (2 * x.topk - 1);
  const double ea = active_experts(x.E, x.topk, x.M), NK = static_cast<double>(x.N * x.K);
  const double bytes = static_cast<double>(x.M * x.K) * in + ea * NK * w * g + ea * NK * w + static_cast<double>(x.M * x.K) * out;
  return moe_result(x, true, precision, flops, bytes);
}

// Up stage: flops = 2·M·K·N·topk·(2 if gated); bytes = M·K·in + E_active·g·K·N·w + M·N·topk·out.
ModelResult up(const Moe& x, double in, double w, double out, const PyValue& precision) {
  const int64_t g = x.gated ? 2 : 1;
  const double ea = active_experts(x.E, x.topk, x.M);
  const double bytes = static_cast<double>(x.M * x.K) * in + ea * static_cast<double>(g * x.K * x.N) * w +
                       static_cast<double>(x.M * x.N * x.topk) * out;
  return moe_result(x, true, precision, 2 * x.M * x.K * x.N * x.topk * g, bytes);
}

// Down stage: flops = 2·M·N·K·topk; bytes = M·N·topk·in + E_active·N·K·w + M·K·out.
ModelResult down(const Moe& x, double in, double w, double out, const PyValue& precision, bool with_gated = false) {
  const double ea = active_experts(x.E, x.topk, x.M);
  const double bytes = static_cast<double>(x.M * x.N * x.topk) * in + ea * static_cast<double>(x.N * x.K) * w +
                       static_cast<double>(x.M * x.K) * out;
  return moe_result(x, with_gated, precision, 2 * x.M * x.N * x.K * x.topk, bytes);
}

// fmoe_fp8_blockscale_g1u1 / fmoe_g1u1 (out (M, K), input, w1 (E, N·(g+1), K'), w2 (E, K, N'),
// …; topk = Concrete[8]): N scaled by K // K' (packed INT4 weights); dtypes out, input, weight.
ModelResult fused_blockscale(const EventArgs& g) {
  const auto out = int_list(at(g.dims, 0));
  const auto w1 = shape_of(g, 2, 3), w2 = shape_of(g, 3, 3);
  const PyValue& c8 = at(g.concrete, 8);
  const auto topk = c8.kind == PyValue::Kind::kStr && !c8.s.empty() ? literal_eval(c8.s) : std::nullopt;
  const PyValue *t0 = type_at(g, 0), *t1 = type_at(g, 1), *t2 = type_at(g, 2);
  if (!out || out->empty() || !w1 || !w2 || !topk || !topk->is_int() || !t0 || !t1 || !t2 || (*w1)[2] == 0) return {};
  Moe x;
  x.M = (*out)[0], x.K = (*w2)[1], x.N = (*w2)[2] * ((*w2)[1] / (*w1)[2]), x.E = (*w1)[0], x.topk = topk->i;
  x.gated = (*w1)[1] == 2 * x.N;
  x.input_dtype = *t1, x.weight_dtype = *t2, x.output_dtype = *t0, x.has_output_dtype = true;
  // Precision: fp8 for an 'fp8' or 'bf16' input dtype, else the input dtype's.
  const bool fp8 = t1->kind == PyValue::Kind::kStr && (t1->s == "fp8" || t1->s == "bf16");
  return fused(x, moe_bpe(*t1, 1), moe_bpe(*t2, 1), moe_bpe(*t0, 2), fp8 ? PyValue::str("fp8") : *t1);
}

// moe_cktile2stages_gemm1_ck(x (M, K), w1 (E, N·(g+1), K'), y (M, topk, N), …): dtypes x, w, y.
ModelResult cktile_up(const EventArgs& g) {
  const auto in = shape_of(g, 0, 2), w1 = shape_of(g, 1, 3), y = shape_of(g, 2, 3);
  const PyValue *t0 = type_at(g, 0), *t1 = type_at(g, 1), *t2 = type_at(g, 2);
  if (!in || !w1 || !y || !t0 || !t1 || !t2) return {};
  Moe x;
  x.M = (*in)[0], x.K = (*in)[1], x.E = (*w1)[0], x.topk = (*y)[1], x.N = (*y)[2];
  x.gated = (*w1)[1] == 2 * x.N;
  x.input_dtype = *t0, x.weight_dtype = *t1, x.output_dtype = *t2, x.has_output_dtype = true;
  return up(x, moe_bpe(*t0, 2), moe_bpe(*t1, 1), moe_bpe(*t2, 2), *t0);
}

// moe_cktile2stages_gemm2_ck(x (M, topk, N), w2 (E, K, N'), y (M, K), …): dtypes x, w, y.
ModelResult cktile_down(const EventArgs& g) {
  const auto in = shape_of(g, 0, 3), w = shape_of(g, 1, 3);
  const PyValue *t0 = type_at(g, 0), *t1 = type_at(g, 1), *t2 = type_at(g, 2);
  if (!in || !w || !t0 || !t1 || !t2) return {};
  Moe x;
  x.M = (*in)[0], x.topk = (*in)[1], x.N = (*in)[2], x.E = (*w)[0], x.K = (*w)[1];
  x.input_dtype = *t0, x.weight_dtype = *t1, x.output_dtype = *t2, x.has_output_dtype = true;
  return down(x, moe_bpe(*t0, 2), moe_bpe(*t1, 1), moe_bpe(*t2, 2), *t0);
}

// ck_moe_stage1(x (M, K'), w1 (E, N·(g+1), K'), w2 (E, K, N'), …, out (M, topk, N) at slot 6):
// N scaled by K // K'; output at the input's bytes per element.
ModelResult ck_stage1(const EventArgs& g) {
  const auto in = int_list(at(g.dims, 0)), w1 = int_list(at(g.dims, 1)), out = int_list(at(g.dims, 6));
  const auto w2 = shape_of(g, 2, 3);
  const PyValue *t0 = type_at(g, 0), *t1 = type_at(g, 1);
  if (!in || in->empty() || !w1 || w1->size() < 2 || !w2 || !out || out->size() < 2 || !t0 || !t1 || w1->back() == 0)
    return {};
  Moe x;
  x.M = (*in)[0], x.E = (*w2)[0], x.K = (*w2)[1], x.N = (*w2)[2] * ((*w2)[1] / w1->back()), x.topk = (*out)[1];
  x.gated = (*w1)[1] == 2 * x.N;
  x.input_dtype = *t0, x.weight_dtype = *t1;
  const double in_bpe = moe_bpe(*t0, 2);
  return up(x, in_bpe, moe_bpe(*t1, 1), in_bpe, *t0);
}

// ck_moe_stage2(x (M, topk, N'), w1 (E, N, K'), w2 (E, K, N'), …): N scaled by K // K';
// weight dtype from slot 2; output at the input's bytes per element.
ModelResult ck_stage2(const EventArgs& g) {
  const auto in = shape_of(g, 0, 3), w2 = shape_of(g, 2, 3);
  const auto w1 = int_list(at(g.dims, 1));
  const PyValue *t0 = type_at(g, 0), *t2 = type_at(g, 2);
  if (!in || !w2 || !w1 || !t0 || !t2) return {};
  Moe x;
  x.M = (*in)[0], x.topk = (*in)[1], x.E = (*w2)[0], x.K = (*w2)[1];
  if (!w1->empty() && w1->back() == 0) return {};
  x.N = (*in)[2] * (w1->empty() ? 1 : x.K / w1->back());
  x.input_dtype = *t0, x.weight_dtype = *t2;
  const double in_bpe = moe_bpe(*t0, 2);
  return down(x, in_bpe, moe_bpe(*t2, 1), in_bpe, *t0);
}

// SGLang invoke_fused_moe_kernel(A, B (E, N, K), C, …, topk_ids (tokens, topk) at slot 8):
// one grouped GEMM over m_work = tokens·topk rows: flops = 2·m_work·N·K; bytes =
// m_work·K·in + E_active·N·K·w + m_work·N·out (output dtype slot 3, else the input's).
ModelResult triton_invoke_grouped_gemm(const EventArgs& g) {
  if (!g.dims.is_seq() || g.dims.size() < 9) return {};
  const auto b = shape_of(g, 1, 3), ids = shape_of(g, 8, 2);
  if (!b || !ids) return {};
  const int64_t E = (*b)[0], N = (*b)[1], K = (*b)[2], tokens = (*ids)[0], topk = (*ids)[1], m_work = tokens * topk;
  const PyValue* t0 = type_at(g, 0);
  const PyValue* t1 = type_at(g, 1);
  const PyValue* t3 = type_at(g, 3);
  const PyValue in_dt = t0 ? *t0 : PyValue::none(), w_dt = t1 ? *t1 : PyValue::none();
  const PyValue out_dt = t3 && t3->truthy() ? *t3 : in_dt;
  ModelResult r;
  r.maf_type = "matrix";
  r.bwd.status = Status::kNotImplemented;
  r.param("m_work", PyValue::integer(m_work));
  r.param("num_tokens", PyValue::integer(tokens));
  r.param("topk", PyValue::integer(topk));
  r.param("N", PyValue::integer(N));
  r.param("K", PyValue::integer(K));
  r.param("num_experts", PyValue::integer(E));
  r.param("input_dtype", in_dt);
  r.param("weight_dtype", w_dt);
  r.param("output_dtype", out_dt);
  r.precision_dtype = w_dt;
  r.status = Status::kOk;
  r.fwd.status = Status::kOk;
  r.fwd.flops = Count::of(2 * m_work * N * K);
  const double ea = E > 0 ? active_experts(E, topk, tokens) : 0;
  r.fwd.bytes = Count::real(static_cast<double>(m_work * K) * moe_bpe(in_dt, 2) +
                            ea * static_cast<double>(N * K) * moe_bpe(w_dt, 1) +
                            static_cast<double>(m_work * N) * moe_bpe(out_dt, 2));
  return r;
}

// biased_grouped_topk_hip, moe_sorting_fwd, mxfp4_moe_sort_hip: every all-int non-empty
// shape is an operand (with its dtype, None past the type list); flops = the largest
// operand's elements; bytes = the operands of known dtype (None when that is 0).
ModelResult operand_sum(const EventArgs& g) {
  ModelResult r;
  r.maf_type = "vector";
  r.bwd.status = Status::kNotImplemented;
  std::vector<PyValue> operands;
  int64_t largest = 0, bytes = 0;
  PyValue largest_dtype;
  if (g.dims.is_seq())
    for (size_t i = 0; i < g.dims.size(); ++i) {
      const auto shape = int_list(g.dims[i]);
      if (!shape || shape->empty()) continue;
      const PyValue* t = type_at(g, i);
      const PyValue dtype = t ? *t : PyValue::none();
      const int64_t n = prod(*shape);
      if (operands.empty() || n > largest) largest = n, largest_dtype = dtype;
      if (const auto b = bytes_per_element(dtype)) bytes += n * *b;
      operands.push_back(PyValue::tuple({int_tuple(*shape), dtype}));
    }
  r.param("operands", PyValue::list(std::move(operands)));
  r.precision_dtype = largest_dtype;
  r.status = Status::kOk;
  r.fwd.status = Status::kOk;
  r.fwd.flops = Count::of(largest);
  if (bytes > 0) r.fwd.bytes = Count::of(bytes);
  return r;
}

// fused_append_shared_experts(ids (M, topk), weights (M, topk)): flops = ids' elements;
// bytes = 2·(ids·bpe + weights·bpe), an unknown dtype counting 4.
ModelResult fused_append_shared_experts(const EventArgs& g) {
  const auto ids = int_list(at(g.dims, 0));
  if (!ids) return {};
  const PyValue& w = at(g.dims, 1);
  const auto wts = w.truthy() ? int_list(w) : ids;
  if (!wts) return {};
  const size_t nt = g.types.is_seq() ? g.types.size() : 0;
  const PyValue d_ids = nt > 0 ? g.types[0] : PyValue::str("int"), d_wts = nt > 1 ? g.types[1] : PyValue::str("float");
  ModelResult r;
  r.maf_type = "vector";
  r.bwd.status = Status::kNotImplemented;
  r.param("shape_in1", int_tuple(*ids));
  r.param("shape_in2", int_tuple(*wts));
  r.param("dtype_in1_in2_out", PyValue::tuple({d_ids, d_wts, d_wts}));
  r.param("stride_input1", PyValue::none());
  r.param("stride_input2", PyValue::none());
  r.param("stride_output", PyValue::none());
  r.precision_dtype = d_wts;
  r.status = Status::kOk;
  // BinaryElementwise's constructor broadcasts the two shapes (ValueError otherwise).
  const size_t n = std::max(ids->size(), wts->size());
  for (size_t k = 0; k < n; ++k) {
    const int64_t a = k < n - ids->size() ? 1 : (*ids)[k - (n - ids->size())];
    const int64_t b = k < n - wts->size() ? 1 : (*wts)[k - (n - wts->size())];
    if (a != b && a != 1 && b != 1) return ModelResult{};
  }
  r.fwd.status = Status::kOk;
  r.fwd.flops = Count::of(prod(*ids));
  r.fwd.bytes = Count::of(2 * (prod(*ids) * bytes_per_element(d_ids).value_or(4) + prod(*wts) * bytes_per_element(d_wts).value_or(4)));
  return r;
}

// The pseudo ops TraceLens's --enable_pseudo_ops pass puts between an MoE op and one of
// its kernels (sollens builds none: they are modeled where a trace has them). They carry
// the parent op's args, plus "MoE topk" and "MoE GEMM gated" for the Triton and
// GPTQ/AWQ stages.

// The parent aiter fused MoE op's layout: x (M, K), w1 (E, N·(g+1), K'), w2 (E, K, N'),
// topk_weights (M, topk); N scaled by K // K' (packed INT4/FP4 weights); dtypes x, w1.
std::optional<Moe> aiter_fused_layout(const EventArgs& g) {
  const auto in = int_list(at(g.dims, 0)), topk = int_list(at(g.dims, 3));
  const auto w1 = shape_of(g, 1, 3), w2 = shape_of(g, 2, 3);
  const PyValue *t0 = type_at(g, 0), *t1 = type_at(g, 1);
  if (!in || in->empty() || !topk || topk->size() < 2 || !w1 || !w2 || !t0 || !t1 || (*w1)[2] == 0) return std::nullopt;
  Moe x;
  x.M = (*in)[0], x.K = (*w2)[1], x.N = (*w2)[2] * ((*w2)[1] / (*w1)[2]), x.E = (*w1)[0], x.topk = (*topk)[1];
  x.gated = (*w1)[1] == 2 * x.N;
  x.input_dtype = *t0, x.weight_dtype = *t1;
  return x;
}

// An MoE result whose E_active divides by E = 0 (ZeroDivisionError in bytes()).
ModelResult checked(ModelResult r, const Moe& x) {
  if (x.E == 0) r.fwd.status = Status::kError;
  return r;
}

// pseudo_op::moe_aiter_fused_1stage: the fused model on the parent's layout; output at
// the input's bytes per element (input 2, weight 1 where the dtype is not in the table).
ModelResult aiter_fused_1stage(const EventArgs& g) {
  const auto x = aiter_fused_layout(g);
  if (!x) return {};
  const double in = moe_bpe(x->input_dtype, 2);
  return checked(fused(*x, in, moe_bpe(x->weight_dtype, 1), in, x->input_dtype), *x);
}

// pseudo_op::moe_flydsl_stage1 / stage2: the up / down stage on the parent's layout (both
// list gated); precision from the weight dtype (FP4 MFMA).
ModelResult flydsl_stage(const EventArgs& g, bool up_stage) {
  const auto x = aiter_fused_layout(g);
  if (!x) return {};
  const double in = moe_bpe(x->input_dtype, 2), w = moe_bpe(x->weight_dtype, 1);
  return checked(up_stage ? up(*x, in, w, in, x->weight_dtype) : down(*x, in, w, in, x->weight_dtype, true), *x);
}

// pseudo_op::moe_triton_unfused_up / down (vLLM GPT-OSS matmul_ogs kernels): x (M, K) and
// the router logits (M, E); inter_dim = K (not in the trace); topk and gated from the
// pseudo op's args; the weight dtype from its kernel's name (FP4 for mxfp4/fp4, FP8 for
// fp8/e4m3, else None, which the bytes reject as they do an input dtype outside the table).
ModelResult triton_unfused_stage(const ModelInput& op, bool up_stage) {
  const EventArgs& g = op.args;
  const auto in = int_list(at(g.dims, 0)), router = int_list(at(g.dims, 1));
  if (!g.dims.is_seq() || g.dims.size() < 2 || !in || in->size() < 2 || !router || router->size() < 2) return {};
  if (!g.moe_topk.is_int() || g.moe_gemm_gated.kind != PyValue::Kind::kBool || op.kernel_names.empty()) return {};
  if (!g.types.is_seq() || g.types.size() < 2) return {};
  Moe x;
  x.M = (*in)[0], x.K = x.N = (*in)[1], x.E = (*router)[1], x.topk = g.moe_topk.i, x.gated = g.moe_gemm_gated.b;
  x.input_dtype = g.types[0];
  std::string kernel(op.kernel_names.front());
  for (char& c : kernel) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (kernel.find("fp4") != std::string::npos) x.weight_dtype = PyValue::str("FP4");
  else if (kernel.find("fp8") != std::string::npos || kernel.find("e4m3") != std::string::npos)
    x.weight_dtype = PyValue::str("FP8");
  const double in_bpe = moe_bpe(x.input_dtype, -1), w_bpe = moe_bpe(x.weight_dtype, -1);
  ModelResult r = up_stage ? up(x, in_bpe, w_bpe, in_bpe, x.weight_dtype)
                           : down(x, in_bpe, w_bpe, in_bpe, x.weight_dtype, true);
  if (in_bpe < 0 || w_bpe < 0) r.fwd.status = Status::kError;  // ValueError: unknown dtype
  return checked(std::move(r), x);
}

// pseudo_op::moe_gptq_awq_up / down (vLLM outplace_fused_experts, INT4 weights at 0.5
// bytes per element): x (M, K); up: w1 (E, N_rows, K/2), N = N_rows / 2 when gated
// ("MoE GEMM gated", default True); down: w2 (E, K, N/2). No weight dtype param.
ModelResult gptq_awq_stage(const EventArgs& g, bool up_stage) {
  constexpr double kInt4Bpe = 0.5;
  const auto in = int_list(at(g.dims, 0)), w = int_list(at(g.dims, up_stage ? 1 : 2));
  if (!in || in->size() < 2 || !w || w->size() < (up_stage ? 2u : 3u) || !g.moe_topk.is_int()) return {};
  Moe x;
  x.M = (*in)[0], x.K = (*in)[1], x.E = (*w)[0], x.topk = g.moe_topk.i;
  x.has_weight_dtype = false;
  if (g.types.is_seq() && g.types.size() == 0) return {};  // IndexError
  x.input_dtype = g.types.is_seq() ? g.types[0] : PyValue::str("BFloat16");
  const double in_bpe = moe_bpe(x.input_dtype, 2);
  if (up_stage) {
    x.gated = g.moe_gemm_gated.is_none() ? true : g.moe_gemm_gated.truthy();
    x.N = x.gated ? (*w)[1] / 2 : (*w)[1];
    return checked(up(x, in_bpe, kInt4Bpe, in_bpe, x.input_dtype), x);
  }
  x.N = (*w)[2] * 2;
  return checked(down(x, in_bpe, kInt4Bpe, in_bpe, x.input_dtype), x);
}

}  // namespace

ModelResult eval_moe(Model m, const ModelInput& in) {
  const EventArgs& g = in.args;
  switch (m) {
    case Model::kMoeAiterFusedBlockscale: return fused_blockscale(g);
    case Model::kMoeAiterUnfusedUp: return cktile_up(g);
    case Model::kMoeAiterUnfusedDown: return cktile_down(g);
    case Model::kMoeAiterCkStage1: return ck_stage1(g);
    case Model::kMoeAiterCkStage2: return ck_stage2(g);
    case Model::kMoeTritonInvokeGroupedGemm: return triton_invoke_grouped_gemm(g);
    case Model::kBiasedGroupedTopk:
    case Model::kMoeSortScatterGather: return operand_sum(g);
    case Model::kSglangFusedAppendSharedExperts: return fused_append_shared_experts(g);
    case Model::kMoeAiterFused1Stage: return aiter_fused_1stage(g);
    case Model::kMoeFlydslStage1: return flydsl_stage(g, true);
    case Model::kMoeFlydslStage2: return flydsl_stage(g, false);
    case Model::kMoeTritonUnfusedUp: return triton_unfused_stage(in, true);
    case Model::kMoeTritonUnfusedDown: return triton_unfused_stage(in, false);
    case Model::kMoeGptqAwqUp: return gptq_awq_stage(g, true);
    case Model::kMoeGptqAwqDown: return gptq_awq_stage(g, false);
    default: return ModelResult{};
  }
}

}  // namespace sollens::perf
