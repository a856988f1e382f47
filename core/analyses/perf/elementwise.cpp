// Elementwise models (tracelens-semantics.md §6.5): aten_unary_elementwise and
// aten_binary_elementwise (NumPy broadcasting; a scalar operand is shape () of type
// Scalar). No backward (NotImplementedError). Both read args["Input Strides"] directly,
// so events of traces recorded without strides are skipped (DLRM worker0 has no
// elementwise sheet upstream).
// The resampling unary ops add input_shape and output_shape to the unary params:
// aten::replication_pad{1,2,3}d (pads from Concrete Inputs[1], innermost dim first) and
// aten::upsample_nearest{1,2,3}d (output = input[:2] + the sizes in Concrete Inputs[1]);
// op_shape is the output, flops = one per output element, bytes = (in + out elements)·bpe.
#include <algorithm>

#include "base/python_literal.h"

#include "analyses/perf/models.h"

namespace sollens::perf {

namespace {

// What UnaryElementwise (and the quantizers that subclass it) record for every op: its
// params in TraceLens's order, the precision dtype, and flops = prod(op_shape), one per
// element. Returns that element count for the caller's bytes.
int64_t record_unary(ModelResult& r, const std::vector<int64_t>& shape, const PyValue& dt_in,
                     const PyValue& dt_out, PyValue stride_input, PyValue stride_output) {
  r.param("op_shape", int_tuple(shape));
  r.param("dtype_in_out", PyValue::tuple({dt_in, dt_out}));
  r.param("stride_input", std::move(stride_input));
  r.param("stride_output", std::move(stride_output));
  r.precision_dtype = dt_in;
  r.status = Status::kOk;
  const int64_t n = prod(shape);
  r.fwd.status = Status::kOk;
  r.fwd.flops = Count::of(n);
  return n;
}

}  // namespace

ModelResult eval_unary(const ModelInput& in) {
  ModelResult r;
  r.maf_type = "vector";
  r.bwd.status = Status::kNotImplemented;
  const EventArgs& g = in.args;
  auto shape = int_list(at(g.dims, 0));
  // args["Input Strides"] is indexed directly: a trace without strides raises (KeyError).
  if (!shape || g.strides.is_none()) return r;
  const PyValue dt_in = at(g.types, 0);
  const bool has_out = g.dims.size() > 1 && at(g.dims, 1).truthy();
  const PyValue dt_out = has_out ? at(g.types, 1) : PyValue::none();
  const int64_t n = record_unary(r, *shape, dt_in, dt_out, at(g.strides, 0).as_tuple(),
                                 has_out ? at(g.strides, 1).as_tuple() : PyValue::none());
  const auto bpe_in = bytes_per_element(dt_in);
  const auto bpe_out = has_out ? bytes_per_element(dt_out) : bpe_in;
  if (bpe_in && bpe_out) r.fwd.bytes = Count::of(n * *bpe_in + n * *bpe_out);
  return r;
}

ModelResult eval_binary(const ModelInput& in) {
  ModelResult r;
  r.maf_type = "vector";
  r.bwd.status = Status::kNotImplemented;
  const EventArgs& g = in.args;
  auto s1 = int_list(at(g.dims, 0)), s2 = int_list(at(g.dims, 1));
  if (!s1 || !s2 || g.strides.is_none()) return r;  // KeyError without Input Strides
  const bool has_out = at(g.dims, 2).truthy();
  const PyValue d1 = at(g.types, 0), d2 = at(g.types, 1), d3 = has_out ? at(g.types, 2) : PyValue::none();
  r.param("shape_in1", int_tuple(*s1));
  r.param("shape_in2", int_tuple(*s2));
  r.param("dtype_in1_in2_out", PyValue::tuple({d1, d2, d3}));
  r.param("stride_input1", at(g.strides, 0).as_tuple());
  r.param("stride_input2", at(g.strides, 1).as_tuple());
  r.param("stride_output", has_out ? at(g.strides, 2).as_tuple() : PyValue::none());
  r.precision_dtype = d1;
  r.status = Status::kOk;
  // NumPy broadcast, right-aligned.
  const size_t n = std::max(s1->size(), s2->size());
  std::vector<int64_t> out(n);
  for (size_t k = 0; k < n; ++k) {
    const int64_t a = k < n - s1->size() ? 1 : (*s1)[k - (n - s1->size())];
    const int64_t b = k < n - s2->size() ? 1 : (*s2)[k - (n - s2->size())];
    if (a != b && a != 1 && b != 1) {
      r.fwd.status = Status::kError;  // ValueError: not broadcastable
      return r;
    }
    out[k] = a == 1 ? b : a;
  }
  r.fwd.status = Status::kOk;
  r.fwd.flops = Count::of(prod(out));
  const auto b1 = bytes_per_element(d1), b2 = bytes_per_element(d2);
  if (b1 && b2) {
    std::optional<int64_t> bo;
    if (has_out) bo = bytes_per_element(d3);
    else bo = !s1->empty() && !s2->empty() ? std::max(*b1, *b2) : *b1;
    if (bo) r.fwd.bytes = Count::of(prod(*s1) * *b1 + prod(*s2) * *b2 + prod(out) * *bo);
  }
  return r;
}

}  // namespace sollens::perf

namespace sollens::perf {

// primus_turbo quantizers (UnaryElementwise subclasses, §6.5): op_shape = Input Dims[0],
// the output dtype fixed by the op (FP8 e4m3fnuz, or packed FP4 for the dual MXFP4
// quantizer); strides optional here (read under try/except upstream).
// quantize_fp8_tensorwise: flops = n, bytes = n·bpe_in + n·1.
// quantize_mxfp4_dual (M, N): flops = M·N, bytes = M·N·bpe_in + 2·⌈M·N/2⌉ (rowwise and
// colwise FP4) + M·⌈N/32⌉ + N·⌈M/32⌉ (their E8M0 scales).
ModelResult eval_quantize(Model m, const ModelInput& in) {
  ModelResult r;
  r.maf_type = "vector";
  r.bwd.status = Status::kNotImplemented;
  const EventArgs& g = in.args;
  auto shape = int_list(at(g.dims, 0));
  if (!shape) return r;
  const bool mxfp4 = m == Model::kQuantizeMxfp4Dual;
  if (mxfp4 && shape->size() != 2) return r;  // M, N = op_shape raises otherwise
  const PyValue dt_in = at(g.types, 0);
  const int64_t n = record_unary(r, *shape, dt_in,
                                 PyValue::str(mxfp4 ? "c10::Float4_e2m1fn_x2" : "c10::Float8_e4m3fnuz"),
                                 at(g.strides, 0).is_seq() ? at(g.strides, 0).as_tuple() : PyValue::none(),
                                 PyValue::none());
  const auto bpe_in = bytes_per_element(dt_in);
  if (!bpe_in) return r;
  if (!mxfp4) {
    r.fwd.bytes = Count::of(n * *bpe_in + n * 1);
  } else {
    const int64_t M = (*shape)[0], N = (*shape)[1];
    r.fwd.bytes = Count::of(M * N * *bpe_in + (M * N + 1) / 2 + (N * M + 1) / 2 + M * ((N + 31) / 32) + N * ((M + 31) / 32));
  }
  return r;
}

ModelResult eval_resample(Model m, const ModelInput& in) {
  ModelResult r;
  r.maf_type = "vector";
  r.bwd.status = Status::kNotImplemented;
  const EventArgs& g = in.args;
  const auto input = int_list(at(g.dims, 0));
  const PyValue& sizes_text = at(g.concrete, 1);
  if (!input || sizes_text.kind != PyValue::Kind::kStr) return r;
  const auto sizes_value = literal_eval(sizes_text.s);
  const auto sizes = sizes_value ? int_list(*sizes_value) : std::nullopt;
  if (!sizes) return r;
  std::vector<int64_t> output = *input;
  if (m == Model::kUpsampleNearest) {
    if (input->size() < 2) return r;
    output.assign(input->begin(), input->begin() + 2);
    output.insert(output.end(), sizes->begin(), sizes->end());
  } else {
    for (size_t i = 0; i < sizes->size() / 2; ++i) {
      if (i >= output.size()) return r;  // IndexError
      output[output.size() - 1 - i] += (*sizes)[2 * i] + (*sizes)[2 * i + 1];
    }
  }
  const PyValue dt = at(g.types, 0);
  const int64_t n = record_unary(r, output, dt, dt, at(g.strides, 0).as_tuple(), PyValue::none());
  r.param("input_shape", int_tuple(*input));
  r.param("output_shape", int_tuple(output));
  if (const auto bpe = bytes_per_element(dt)) r.fwd.bytes = Count::of(prod(*input) * *bpe + n * *bpe);
  return r;
}

}  // namespace sollens::perf
