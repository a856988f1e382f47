// Normalization models (tracelens-semantics.md §6.7): BatchNorm, LayerNorm, GroupNorm,
// InstanceNorm, RMSNorm and their backward models. Quirks kept: `x is not None` flags
// (an empty list is not None) and bool("False") == True, so is_affine, has_bias and
// is_training are almost always True; GroupNormBwd channels are a float. The forward
// models also count with the flags read right (CORRECTIONS.md): FLOPs/bytes corrected.
#include "analyses/perf/models.h"
#include "base/python_literal.h"

namespace sollens::perf {

namespace {

std::optional<int64_t> prod_of_literal(const PyValue& text) {
  if (text.kind != PyValue::Kind::kStr) return std::nullopt;
  auto v = literal_eval(text.s);
  if (!v) return std::nullopt;
  if (v->kind == PyValue::Kind::kInt) return v->i;
  auto l = int_list(*v);
  if (!l) return std::nullopt;
  return prod(*l);
}

std::optional<std::vector<bool>> bool_list(const PyValue& text) {
  if (text.kind != PyValue::Kind::kStr) return std::nullopt;
  auto v = literal_eval(text.s);
  if (!v || !v->is_seq()) return std::nullopt;
  std::vector<bool> out;
  for (const auto& x : v->items) out.push_back(x.truthy());
  return out;
}

PyValue bools_value(const std::vector<bool>& v) {
  std::vector<PyValue> items;
  for (bool b : v) items.push_back(PyValue::boolean(b));
  return PyValue::list(std::move(items));
}

bool present(const PyValue& dims, size_t k) { return dims.is_seq() && k < dims.size() && !dims[k].is_none(); }

// A tensor argument Kineto recorded: a non-empty shape (an absent optional tensor is []).
bool recorded(const PyValue& dims, size_t k) { return present(dims, k) && dims[k].is_seq() && dims[k].size() > 0; }

// A bool argument as Kineto writes it in Concrete Inputs ("True" / "False").
bool concrete_bool(const PyValue& v) { return v.kind == PyValue::Kind::kStr && (v.s == "True" || v.s == "true" || v.s == "1"); }

struct NormFlags {
  bool affine, has_bias, training;
};

// The flags of a forward norm read from the arguments' real positions and values:
// batch/instance norm (input, weight, bias, running_mean, running_var, training, ...);
// layer_norm (input, normalized_shape, weight, bias, ...); group_norm (input, num_groups,
// weight, bias, ...); native_group_norm (input, weight, bias, N, C, HxW, group, eps);
// _fused_rms_norm (input, normalized_shape, weight, eps). nullopt: not corrected.
std::optional<NormFlags> corrected_flags(Model m, std::string_view op, const EventArgs& g, const NormFlags& tl) {
  switch (m) {
    case Model::kBatchNorm:
    case Model::kInstanceNorm:
      return NormFlags{recorded(g.dims, 1), recorded(g.dims, 2), concrete_bool(at(g.concrete, 5))};
    case Model::kLayerNorm: return NormFlags{recorded(g.dims, 2), recorded(g.dims, 3), tl.training};
    case Model::kGroupNorm:
      if (op == "aten::group_norm") return NormFlags{recorded(g.dims, 2), recorded(g.dims, 3), tl.training};
      if (op.starts_with("aten::")) return NormFlags{recorded(g.dims, 1), recorded(g.dims, 2), tl.training};
      return std::nullopt;
    case Model::kRmsNorm: return NormFlags{recorded(g.dims, 2), false, false};
    default: return std::nullopt;
  }
}

}  // namespace

ModelResult eval_norm(Model m, const ModelInput& in) {
  ModelResult r;
  r.maf_type = "vector";
  r.bwd.status = Status::kNotImplemented;
  const EventArgs& g = in.args;
  const PyValue& c = g.concrete;
  if (m == Model::kInstanceNormBwd) {
    r.status = Status::kNotImplemented;
    return r;
  }
  const bool bwd = m == Model::kBatchNormBwd || m == Model::kLayerNormBwd || m == Model::kGroupNormBwd ||
                   m == Model::kRmsNormBwd;
  const size_t slot = bwd ? 1 : 0;
  auto shape = int_list(at(g.dims, slot));
  if (!shape || shape->size() < 2) return r;
  const int64_t N = prod(*shape);
  Count C = Count::of((*shape)[1]);
  bool affine = present(g.dims, 2), has_bias = true, training = true;
  std::optional<std::vector<bool>> mask;
  switch (m) {
    case Model::kBatchNorm:
    case Model::kInstanceNorm: training = at(c, 5).truthy(); break;
    case Model::kLayerNorm: {
      auto p = prod_of_literal(at(c, 1));
      if (!p) return r;
      C = Count::of(*p);
      has_bias = present(g.dims, 3);
      break;
    }
    case Model::kGroupNorm: break;
    case Model::kRmsNorm: {
      auto p = prod_of_literal(at(c, 1));
      if (!p) return r;
      C = Count::of(*p);
      has_bias = false;
      training = false;
      break;
    }
    case Model::kBatchNormBwd:
      training = at(c, 7).truthy();
      mask = std::vector<bool>{present(g.dims, 0)};
      break;
    case Model::kBatchNormBwdCudnn:
      training = false;
      mask = std::vector<bool>{true};
      break;
    case Model::kLayerNormBwd: {
      auto p = prod_of_literal(at(c, 2));
      mask = bool_list(at(c, 7));
      if (!p || !mask || mask->size() < 3) return r;
      C = Count::of(*p);
      affine = (*mask)[1];
      has_bias = (*mask)[2];
      break;
    }
    case Model::kGroupNormBwd: {
      const PyValue& gs = at(c, 8);
      if (gs.kind != PyValue::Kind::kStr) return r;
      auto groups = literal_eval(gs.s);
      mask = bool_list(at(c, 9));
      if (!groups || groups->kind != PyValue::Kind::kInt || groups->i == 0 || !mask || mask->empty()) return r;
      C = Count::real(static_cast<double>((*shape)[1]) / static_cast<double>(groups->i));
      affine = present(g.dims, 5);
      break;
    }
    case Model::kRmsNormBwd: {
      auto p = prod_of_literal(at(c, 2));
      mask = bool_list(at(c, 5));
      if (!p || !mask || mask->size() < 2) return r;
      C = Count::of(*p);
      affine = present(g.dims, 4);
      has_bias = false;
      training = false;
      break;
    }
    default: return r;
  }
  const PyValue dt = at(g.types, slot);
  r.param("op_shape", int_tuple(*shape));
  r.param("dtype_in_out", PyValue::tuple({dt, PyValue::none()}));
  r.param("stride_input", at(g.strides, slot).as_tuple());
  r.param("stride_output", PyValue::none());
  r.param("num_channels", C.is_float ? PyValue::real(C.d) : PyValue::integer(C.i));
  r.param("has_bias", PyValue::boolean(has_bias));
  r.param("is_affine", PyValue::boolean(affine));
  r.param("is_training", PyValue::boolean(training));
  if (mask) r.param("output_mask", bools_value(*mask));
  r.precision_dtype = dt;
  r.status = Status::kOk;

  const auto bpe = bytes_per_element(dt);
  Metrics& f = r.fwd;
  const bool divides_by_channels = m == Model::kRmsNorm || m == Model::kRmsNormBwd || bwd || m == Model::kBatchNormBwdCudnn;
  if (divides_by_channels && C.value() == 0) {
    f.status = Status::kError;  // N / C: ZeroDivisionError
    return r;
  }
  f.status = Status::kOk;
  if (m == Model::kRmsNorm) {
    const double ratio = static_cast<double>(N) / C.value();
    f.flops = Count::real(ratio * static_cast<double>(2 * C.i + 2) + static_cast<double>(N * (affine ? 2 : 1)));
    if (bpe) f.bytes = Count::of(N * *bpe + N * *bpe + (affine ? C.i * *bpe : 0));
  } else if (m == Model::kRmsNormBwd) {
    const bool m0 = (*mask)[0], m1 = (*mask)[1];
    const double ratio = static_cast<double>(N) / C.value();
    f.flops = Count::of((affine ? N : 0) + N + (m0 ? 6 * N : 0) + (m1 && affine ? N : 0) +
                        (m1 && affine && ratio > 1 ? N : 0));
    if (bpe) f.bytes = Count::of(N * *bpe + 2 * N * *bpe + (affine ? 2 * C.i * *bpe : 0));
  } else if (bwd || m == Model::kBatchNormBwdCudnn) {
    const bool m0 = (*mask)[0];
    const double ratio = static_cast<double>(N) / C.value();
    const double inner = (training ? 0 : 3) + 4 * ratio + (m0 && training ? 5 * ratio : 0) + (!m0 ? 2 * ratio : 0);
    f.flops = Count::real(C.value() * inner);
    if (bpe) {
      const double b = static_cast<double>(*bpe);
      const double bytes = static_cast<double>(N) * b + static_cast<double>(N) * b * (m0 && training ? 2 : 1) +
                           (training ? C.value() * b : 0) + (affine ? C.value() * b : 0) +
                           (affine && training ? C.value() * b * (has_bias ? 2 : 1) : 0);
      f.bytes = C.is_float ? Count::real(bytes) : Count::of(static_cast<int64_t>(bytes));
    }
  } else {
    f.flops = Count::of(3 * C.i + (training ? 3 * N : 0) + 3 * C.i + 2 * N);
    const int64_t nW = 2 + (affine ? 1 : 0) + (affine && has_bias ? 1 : 0) + (training ? 2 : 0);
    if (bpe) f.bytes = Count::of(N * *bpe + N * *bpe + nW * C.i * *bpe);
  }
  if (bwd || m == Model::kBatchNormBwdCudnn || m == Model::kRmsNormBwd) return r;
  const auto fixed = corrected_flags(m, in.name, g, {affine, has_bias, training});
  if (!fixed) return r;
  Count flops;
  std::optional<Count> bytes;
  if (m == Model::kRmsNorm) {
    const double ratio = static_cast<double>(N) / C.value();
    flops = Count::real(ratio * static_cast<double>(2 * C.i + 2) + static_cast<double>(N * (fixed->affine ? 2 : 1)));
    if (bpe) bytes = Count::of(2 * N * *bpe + (fixed->affine ? C.i * *bpe : 0));
  } else {
    flops = Count::of(6 * C.i + (fixed->training ? 3 * N : 0) + 2 * N);
    const int64_t nW = 2 + (fixed->affine ? 1 : 0) + (fixed->affine && fixed->has_bias ? 1 : 0) + (fixed->training ? 2 : 0);
    if (bpe) bytes = Count::of(2 * N * *bpe + nW * C.i * *bpe);
  }
  if (!(flops == f.flops)) f.flops_corrected = flops;
  if (bytes && f.bytes && !(*bytes == *f.bytes)) f.bytes_corrected = bytes;
  return r;
}

}  // namespace sollens::perf
