// Group quantization models (tracelens-semantics.md §7, GroupQuant category):
// per_group_quant (aiter dynamic per-token/per-group/per-tensor quant, args (out, input,
// scales)) and vllm::triton_per_token_group_quant_fp8 land on the BinaryElementwise
// sheet; the MXFP4 quantizers (BF16 in, packed FP4 + one E8M0 scale per 32 elements
// out) on their own GroupQuant sheet.
#include "analyses/perf/models.h"
#include "base/python_literal.h"

namespace sollens::perf {

namespace {

PyValue stride_tuple(const EventArgs& g, size_t k) { return at(g.strides, k).as_tuple(); }

// per_group_quant: shapes in1 = input (slot 1), in2 = scales (slot 2), out (slot 0);
// flops = 2.59375 per output element (TraceLens's rocprof-derived count, a float);
// bytes = each tensor at its dtype (an unknown dtype raises).
ModelResult per_group_quant(const ModelInput& in) {
  ModelResult r;
  r.maf_type = "vector";
  r.bwd.status = Status::kNotImplemented;
  const EventArgs& g = in.args;
  const auto out = int_list(at(g.dims, 0)), in1 = int_list(at(g.dims, 1)), in2 = int_list(at(g.dims, 2));
  const bool typed = g.types.is_seq() && g.types.size() > 2, strided = g.strides.is_seq() && g.strides.size() > 2;
  if (!out || !in1 || !in2 || !typed || !strided) return r;
  const PyValue &d_out = g.types[0], &d_in1 = g.types[1], &d_in2 = g.types[2];
  r.param("shape_in1", int_tuple(*in1));
  r.param("shape_in2", int_tuple(*in2));
  r.param("shape_out", int_tuple(*out));
  r.param("dtype_in1_in2_out", PyValue::tuple({d_in1, d_in2, d_out}));
  r.param("stride_input1", stride_tuple(g, 1));
  r.param("stride_input2", stride_tuple(g, 2));
  r.param("stride_output", stride_tuple(g, 0));
  r.precision_dtype = d_in1;
  r.status = Status::kOk;
  const auto b_out = bytes_per_element(d_out), b_in1 = bytes_per_element(d_in1), b_in2 = bytes_per_element(d_in2);
  if (!b_out || !b_in1 || !b_in2) {
    r.fwd.status = Status::kError;  // int · None
    return r;
  }
  r.fwd.status = Status::kOk;
  r.fwd.flops = Count::real(static_cast<double>(prod(*out)) * 2.59375);
  r.fwd.bytes = Count::of(prod(*out) * *b_out + prod(*in1) * *b_in1 + prod(*in2) * *b_in2);
  return r;
}

// triton_per_token_group_quant_fp8(x (M, N), group_size): groups of group_size along
// N (Concrete Inputs[1], default 128); flops = 6·M·N; bytes = M·N·bpe(x) + M·N (FP8
// out) + M·⌈N/group_size⌉·4 (float scales).
ModelResult triton_per_token_group_quant_fp8(const ModelInput& in) {
  ModelResult r;
  r.maf_type = "vector";
  r.bwd.status = Status::kNotImplemented;
  const EventArgs& g = in.args;
  std::vector<int64_t> x;
  if (g.dims.is_seq() && g.dims.size() > 0) {
    const auto s = int_list(g.dims[0]);
    if (!s) return r;
    x = *s;
  }
  const int64_t M = x.size() >= 2 ? x[0] : 1, N = x.size() >= 2 ? x[1] : x.size() == 1 ? x[0] : 1;
  int64_t group_size = 128;
  if (const PyValue& c = at(g.concrete, 1); c.kind == PyValue::Kind::kStr) {
    const auto v = literal_eval(c.s);
    if (v && v->is_int()) group_size = v->i;
  }
  if (group_size == 0) return r;  // ZeroDivisionError
  const int64_t groups = std::max<int64_t>(1, (N + group_size - 1) / group_size);
  const PyValue dtype = g.types.is_seq() && g.types.size() > 0 ? g.types[0] : PyValue::str("");
  r.param("M", PyValue::integer(M));
  r.param("N", PyValue::integer(N));
  r.param("group_size", PyValue::integer(group_size));
  r.param("num_groups", PyValue::integer(groups));
  r.param("shape_x", int_tuple(x));
  r.param("dtype_x", dtype);
  r.precision_dtype = dtype;
  r.status = Status::kOk;
  r.fwd.status = Status::kOk;
  r.fwd.flops = Count::of(6 * M * N);
  if (const auto b = bytes_per_element(dtype)) r.fwd.bytes = Count::of(M * N * *b + M * N * 1 + M * groups * 4);
  return r;
}

// The MXFP4 quantizers: op_shape = the BF16 input's shape (slot `input`), dtype_in_out
// = (its dtype, its dtype); flops = 2·n; bytes = n·bpe_in + n·0.5 (packed FP4) + n // 32
// (E8M0 scales), a float; None with an unknown input dtype.
ModelResult mxfp4_quant(Model m, const ModelInput& in) {
  ModelResult r;
  r.maf_type = "vector";
  r.bwd.status = Status::kNotImplemented;
  const EventArgs& g = in.args;
  const size_t input = m == Model::kFusedFlattenMxfp4Quant || m == Model::kSglangQuantDynamicMxfp4Quant ? 0
                       : m == Model::kAiterDynamicPerGroupScaledQuantFp4                               ? 1
                                                                                                       : 2;
  // Only fused_flatten and fused_dynamic_mx_quant_moe_sort read the input's strides.
  const bool with_stride = m == Model::kFusedFlattenMxfp4Quant || m == Model::kFusedDynamicMxQuantMoeSortHip;
  const auto shape = int_list(at(g.dims, input));
  if (!shape || !g.types.is_seq() || g.types.size() <= input) return r;
  if (with_stride && (!g.strides.is_seq() || g.strides.size() <= input)) return r;
  const PyValue dtype = g.types[input];
  r.param("op_shape", int_tuple(*shape));
  r.param("dtype_in_out", PyValue::tuple({dtype, dtype}));
  r.param("stride_input", with_stride ? stride_tuple(g, input) : PyValue::none());
  r.param("stride_output", PyValue::none());
  r.precision_dtype = dtype;
  r.status = Status::kOk;
  const int64_t n = prod(*shape);
  r.fwd.status = Status::kOk;
  r.fwd.flops = Count::of(2 * n);
  if (const auto b = bytes_per_element(dtype))
    r.fwd.bytes = Count::real(static_cast<double>(n * *b) + static_cast<double>(n) * 0.5 + static_cast<double>(n / 32));
  return r;
}

}  // namespace

ModelResult eval_group_quant(Model m, const ModelInput& in) {
  if (m == Model::kPerGroupQuant) return per_group_quant(in);
  if (m == Model::kVllmTritonPerTokenGroupQuantFp8) return triton_per_token_group_quant_fp8(in);
  return mxfp4_quant(m, in);
}

}  // namespace sollens::perf
