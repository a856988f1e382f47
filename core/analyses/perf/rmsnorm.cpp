// The RMSNorm extension ops (TraceLens's inference extensions, sheet RMSNorm_fwd): aiter
// and vLLM fused RMSNorm kernels. Each reads the normalised input x (M, N) and the
// weight (C = N) from the op's own argument positions and reports the Normalization
// params with is_affine True, has_bias and is_training False. Their FLOPs and bytes
// build on aten RMSNorm's (§6.7, affine): base = (n/C)·(2C + 2) + 2n (a float: TraceLens
// divides), n = prod(x), bpe = bytes per element of x:
//   rms_norm, rmsnorm2d_fwd_ck, rmsnorm  base;                 2n·bpe + C·bpe
//   with_add_ck, add_rmsnorm             base + n;             4n·bpe + C·bpe
//   with_dynamicquant_ck                 base + 2n;            n·bpe + C·bpe + n (fp8) + 4M (scales)
//   rmsnorm_fp8_group_quant, rmsnorm_quant
//                                        base + 2n;            n·bpe + C·bpe + n + 4·M·⌈C/g⌉
//   rmsnorm_with_add_fp8_group_quant     base + n + 2n;        3n·bpe + C·bpe + n + 4·M·⌈C/g⌉
//   add_rmsnorm_pad                      base + n;             2n·bpe + C·bpe + M·C_pad·bpe + M·C·bpe
//   fused_rms_mxfp4_quant                base [+ x2 share] [+ n residual] + 2n;
//                                        n·bpe + C·bpe [+ x2: 2·M·N2·bpe + N2·bpe]
//                                        [+ residual 2n·bpe] + n/2 (fp4) + n//32 (scales)
// M = n // C; g = the group size from Concrete Inputs; C_pad = C rounded up to the pad.
#include <algorithm>
#include <string>

#include "analyses/perf/models.h"

namespace sollens::perf {

namespace {

// Where an op keeps x and its weight in Input Dims (and, for the quantizers, the
// Concrete Inputs slot of its group size or pad).
struct RmsLayout {
  size_t input, weight;
  size_t concrete_int = 0;
};

RmsLayout layout_of(Model m) {
  switch (m) {
    case Model::kAiterRmsnorm: return {1, 2};
    case Model::kAiterRmsNormAdd: return {1, 4};
    case Model::kAiterRmsNormDynamicQuant: return {1, 3};
    case Model::kAiterRmsNormQuant: return {1, 3, 5};
    case Model::kVllmRmsNormFp8GroupQuant: return {0, 1, 3};
    case Model::kVllmRmsNormAddFp8GroupQuant: return {0, 2, 4};
    case Model::kRmsNormAddPad: return {0, 1, 4};
    default: return {0, 1};  // aiter::rms_norm, fused_rms_mxfp4_quant
  }
}

// int(Concrete Inputs[k]); nullopt where Python's int() would raise.
std::optional<int64_t> concrete_int(const PyValue& concrete, size_t k) {
  const PyValue& v = at(concrete, k);
  if (v.kind != PyValue::Kind::kStr || v.s.empty()) return std::nullopt;
  size_t used = 0;
  try {
    const long long x = std::stoll(v.s, &used);
    if (used != v.s.size()) return std::nullopt;
    return x;
  } catch (...) {
    return std::nullopt;
  }
}

// A rank-2 shape at Input Dims[k] (an optional tensor that is present).
std::optional<std::vector<int64_t>> rank2(const PyValue& dims, size_t k) {
  auto s = int_list(at(dims, k));
  if (!s || s->size() != 2) return std::nullopt;
  return s;
}

double ceil_div(int64_t a, int64_t b) { return static_cast<double>((a + b - 1) / b); }

}  // namespace

ModelResult eval_rmsnorm_ext(Model m, const ModelInput& in) {
  ModelResult r;
  r.maf_type = "vector";
  r.bwd.status = Status::kNotImplemented;
  const EventArgs& g = in.args;
  const RmsLayout lay = layout_of(m);
  const auto shape = int_list(at(g.dims, lay.input));
  const auto weight = int_list(at(g.dims, lay.weight));
  if (!shape || !weight || weight->empty()) return r;
  std::optional<int64_t> knob;
  if (lay.concrete_int) {
    knob = concrete_int(g.concrete, lay.concrete_int);
    // rmsnorm_quant falls back to one group per row; the others need the value.
    if (!knob && m != Model::kAiterRmsNormQuant) return r;
  }
  const PyValue dt = at(g.types, lay.input);
  r.param("op_shape", int_tuple(*shape));
  r.param("dtype_in_out", PyValue::tuple({dt, PyValue::none()}));
  r.param("stride_input", at(g.strides, lay.input).as_tuple());
  r.param("stride_output", PyValue::none());
  r.param("num_channels", PyValue::integer(weight->front()));
  r.param("has_bias", PyValue::boolean(false));
  r.param("is_affine", PyValue::boolean(true));
  r.param("is_training", PyValue::boolean(false));
  r.precision_dtype = dt;
  r.status = Status::kOk;

  const int64_t n = prod(*shape), C = weight->front();
  if (C == 0) {
    r.fwd.status = Status::kError;  // ZeroDivisionError
    return r;
  }
  const auto bpe_opt = bytes_per_element(dt);
  const double base = static_cast<double>(n) / static_cast<double>(C) * static_cast<double>(2 * C + 2) +
                      static_cast<double>(2 * n);
  Metrics& f = r.fwd;
  f.status = Status::kOk;
  if (m == Model::kAiterRmsNorm || m == Model::kAiterRmsnorm) {
    f.flops = Count::real(base);
    if (bpe_opt) f.bytes = Count::of(2 * n * *bpe_opt + C * *bpe_opt);
    return r;
  }
  if (!bpe_opt) {
    f.status = Status::kError;  // TypeError: arithmetic on None
    return r;
  }
  const int64_t bpe = *bpe_opt, rows = n / C;
  const int64_t group = knob && *knob > 0 ? *knob : C;
  switch (m) {
    case Model::kAiterRmsNormAdd:
      f.flops = Count::real(base + static_cast<double>(n));
      f.bytes = Count::of(4 * n * bpe + C * bpe);
      break;
    case Model::kAiterRmsNormDynamicQuant:
      f.flops = Count::real(base + static_cast<double>(2 * n));
      f.bytes = Count::of(n * bpe + C * bpe + n + rows * 4);
      break;
    case Model::kAiterRmsNormQuant:
    case Model::kVllmRmsNormFp8GroupQuant:
      f.flops = Count::real(base + static_cast<double>(2 * n));
      f.bytes = Count::of(n * bpe + C * bpe + n + rows * static_cast<int64_t>(ceil_div(C, group)) * 4);
      break;
    case Model::kVllmRmsNormAddFp8GroupQuant:
      f.flops = Count::real(base + static_cast<double>(n) + static_cast<double>(2 * n));
      f.bytes = Count::of(3 * n * bpe + C * bpe + n + rows * static_cast<int64_t>(ceil_div(C, group)) * 4);
      break;
    case Model::kRmsNormAddPad: {
      const int64_t padded = *knob > 0 ? (C + *knob - 1) / *knob * *knob : C;
      f.flops = Count::real(static_cast<double>(n) + base);
      f.bytes = Count::of(2 * n * bpe + C * bpe + rows * padded * bpe + rows * C * bpe);
      break;
    }
    case Model::kFusedRmsMxfp4Quant: {
      const auto x2 = rank2(g.dims, 3);
      const bool residual = rank2(g.dims, 6).has_value();
      double flops = base;
      double bytes = static_cast<double>(n * bpe + C * bpe);
      if (x2) {
        const int64_t n2 = (*x2)[1], x2_elems = rows * n2;
        flops += static_cast<double>(static_cast<int64_t>(base * static_cast<double>(x2_elems) /
                                                          static_cast<double>(std::max<int64_t>(n, 1))));
        bytes += static_cast<double>(2 * x2_elems * bpe + n2 * bpe);
      }
      if (residual) {
        flops += static_cast<double>(rows * C);
        bytes += static_cast<double>(2 * n * bpe);
      }
      flops += static_cast<double>(2 * n);
      bytes += static_cast<double>(n) * 0.5 + static_cast<double>(n / 32);
      f.flops = Count::real(flops);
      f.bytes = Count::real(bytes);
      break;
    }
    default: f.status = Status::kError;
  }
  return r;
}

}  // namespace sollens::perf
