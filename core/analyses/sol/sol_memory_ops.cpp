#include "analyses/sol/sol_memory_ops.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <vector>

#include "analyses/perf/perf_model.h"
#include "analyses/roofline/roofline.h"
#include "analyses/sol/sol_memory_args.h"

namespace sollens {

namespace {

using perf::at;
using namespace sol_memory;

constexpr int64_t kIndexBytes = 8;  // int64 indices (max pooling's, unless recorded)
constexpr int64_t kMaskBytes = 1;   // dropout's bool mask
constexpr int64_t kBoolBytes = 1;   // a comparison's output

constexpr std::string_view kComparisons[] = {"aten::eq", "aten::ne", "aten::lt", "aten::le", "aten::gt", "aten::ge"};

bool is_comparison(std::string_view name) {
  return std::find(std::begin(kComparisons), std::end(kComparisons), name) != std::end(kComparisons);
}

// Elementwise math whose output has the dtype of input `typed` (where's self, after the
// condition), or `out_bytes` per element when given (a comparison's bool).
MemoryWork elementwise_as(const perf::EventArgs& a, size_t typed, std::optional<int64_t> out_bytes, std::string rule) {
  const auto typed_input = tensor_at(a, typed);
  if (!typed_input) return failed("input shape or dtype not recorded");
  double read = 0, out = 0;
  for (size_t k = 0; k < a.dims.size(); ++k)
    if (const auto t = tensor_at(a, k)) {
      read += t->bytes();
      out = std::max(out, t->n);
    }
  const double written = out * static_cast<double>(out_bytes.value_or(typed_input->b));
  return work(read, written, out, at(a.types, typed), std::move(rule));
}

// Elementwise math: reads every recorded input tensor, writes one output of the largest
// input's size at the first input's dtype; one FLOP per output element.
MemoryWork elementwise(const perf::EventArgs& a, std::string rule) {
  return elementwise_as(a, 0, std::nullopt, std::move(rule));
}

MemoryWork index_select(const perf::EventArgs& a) {
  // index_select(self, dim, index): self's slices along dim picked by index.
  const auto shape = int_list(at(a.dims, 0));
  const auto self = tensor_at(a, 0), index = tensor_at(a, 2);
  const auto dim = int_value(at(a.concrete, 1));
  if (!shape || !self || !index || !dim) return failed("index_select: shapes or dim not recorded");
  const int64_t rank = static_cast<int64_t>(shape->size());
  const int64_t d = *dim < 0 ? *dim + rank : *dim;
  const double along = rank == 0 ? 1 : d >= 0 && d < rank ? static_cast<double>((*shape)[static_cast<size_t>(d)]) : 0;
  if (along <= 0) return failed("index_select: dim out of range");
  const double values = self->n / along * index->n * static_cast<double>(self->b);
  return work(index->bytes() + values, values, 0, at(a.types, 0),
              "reads the index and the slices it picks, writes them");
}

MemoryWork log_softmax(const perf::EventArgs& a) {
  // _log_softmax / _softmax(self, dim, half_to_float): half_to_float writes fp32.
  const auto self = tensor_at(a, 0);
  if (!self) return failed("input shape or dtype not recorded");
  const PyValue& h = at(a.concrete, 2);
  const bool to_float = h.kind == PyValue::Kind::kStr && (h.s == "True" || h.s == "true");
  const double written = self->n * static_cast<double>(to_float ? 4 : self->b);
  return work(self->bytes(), written, self->n, at(a.types, 0), "reads self, writes the output (fp32 if half_to_float)");
}

MemoryWork write_only(const perf::EventArgs& a, std::string rule) {
  const auto self = tensor_at(a, 0);
  if (!self) return failed("input shape or dtype not recorded");
  return work(0, self->bytes(), 0, at(a.types, 0), std::move(rule));
}

// ScalarType codes of PyTorch's c10/core/ScalarType.h → bytes per element.
std::optional<int64_t> scalar_type_bytes(int64_t code) {
  switch (code) {
    case 0: case 1: case 11: return 1;  // uint8, int8, bool
    case 2: case 5: case 15: return 2;  // int16, half, bfloat16
    case 3: case 6: return 4;           // int32, float
    case 4: case 7: return 8;           // int64, double
    default: return std::nullopt;
  }
}

// The overloads by argument count (native_functions.yaml): how many of the leading
// arguments are start / end / step, and where the out tensor or the dtype code is.
struct ArangeForm {
  size_t bounds;  // 1: end; 2: start, end; 3: start, end, step
  int out;        // index of the out tensor, or -1
  int dtype;      // index of the dtype's ScalarType code, or -1
};
std::optional<ArangeForm> arange_form(size_t args) {
  switch (args) {
    case 2: return ArangeForm{1, 1, -1};   // arange.out(end, out)
    case 4: return ArangeForm{3, 3, -1};   // arange.start_out(start, end, step, out)
    case 5: return ArangeForm{1, -1, 1};   // arange(end, dtype, layout, device, pin_memory)
    case 6: return ArangeForm{2, -1, 2};   // arange.start(start, end, dtype, ...)
    case 7: return ArangeForm{3, -1, 3};   // arange.start_step(start, end, step, dtype, ...)
    default: return std::nullopt;
  }
}

MemoryWork arange(const perf::EventArgs& a) {
  const auto form = arange_form(a.types.size());
  if (!form) return failed("arange: overload not known");
  std::vector<double> bounds;
  bool integral = true;
  for (size_t k = 0; k < form->bounds; ++k) {
    const auto v = concrete_number(at(a.concrete, k));
    if (!v) return failed("arange: start, end and step not recorded in Concrete Inputs");
    integral = integral && int_value(at(a.concrete, k)).has_value();
    bounds.push_back(*v);
  }
  const double start = bounds.size() >= 2 ? bounds[0] : 0;
  const double end = bounds.size() >= 2 ? bounds[1] : bounds[0];
  const double step = bounds.size() == 3 ? bounds[2] : 1;
  if (step == 0) return failed("arange: step 0");
  const double n = std::max(0.0, std::ceil((end - start) / step));
  // The out tensor's dtype, else the dtype argument's ScalarType code, else PyTorch's
  // inference: int64 for integer arguments, the default float otherwise.
  const PyValue dtype = form->out >= 0 ? at(a.types, static_cast<size_t>(form->out)) : PyValue();
  std::optional<int64_t> b = perf::bytes_per_element(dtype);
  if (!b && form->dtype >= 0)
    if (const auto code = int_value(at(a.concrete, static_cast<size_t>(form->dtype)))) b = scalar_type_bytes(*code);
  if (!b) b = integral ? 8 : 4;
  return work(0, n * static_cast<double>(*b), 0, dtype, "writes its output, size from Concrete Inputs");
}

MemoryWork cat(const perf::EventArgs& a, std::span<const std::string_view> kernels) {
  const auto lists = list_elements(a);
  if (!lists) return failed("cat: input shapes not recorded");
  const auto b = list_element_size(kernels);
  if (!b) return failed("cat: element size not found (tensor list dtype not recorded)");
  const double bytes = (*lists)[0] * static_cast<double>(*b);
  return work(bytes, bytes, 0, PyValue(), "reads every input, writes their sum");
}

MemoryWork gather(const perf::EventArgs& a) {
  // gather(self, dim, index, sparse_grad[, out]).
  const auto self = tensor_at(a, 0), index = tensor_at(a, 2);
  if (!self || !index) return failed("gather: self or index shape not recorded");
  const double values = index->n * static_cast<double>(self->b);
  return work(index->bytes() + values, values, 0, at(a.types, 0),
              "reads the index and one element per index entry, writes that many");
}

MemoryWork nll_loss_forward(const perf::EventArgs& a) {
  // nll_loss_forward(self [N, C] or [C], target [N] or [], weight, reduction, ignore_index).
  const auto self = tensor_at(a, 0), target = tensor_at(a, 1);
  if (!self || !target) return failed("nll_loss: self or target shape not recorded");
  const double rows = target->n, b = static_cast<double>(self->b);
  const double weights = tensor_at(a, 2) ? rows * b : 0;
  const bool none = int_value(at(a.concrete, 3)).value_or(1) == 0;
  const double written = ((none ? rows : 1) + 1) * b;  // output and total_weight
  return work(target->bytes() + rows * b + weights, written, 0, at(a.types, 0),
              "reads the target and one element per row (N, not N*C), writes the output and total_weight");
}

MemoryWork nll_loss_backward(const perf::EventArgs& a) {
  // nll_loss_backward(grad_output, self, target, weight, reduction, ignore_index, total_weight).
  const auto self = tensor_at(a, 1), target = tensor_at(a, 2);
  if (!self || !target) return failed("nll_loss_backward: self or target shape not recorded");
  const double rows = target->n, b = static_cast<double>(self->b);
  const double grad = tensor_at(a, 0) ? tensor_at(a, 0)->bytes() : b;
  return work(target->bytes() + grad + b, rows * b, 0, at(a.types, 1),
              "reads the target and grad_output, writes one grad_input element per row "
              "(its zero fill is the zero_ op it calls)");
}

MemoryWork embedding_dense_backward(const perf::EventArgs& a) {
  // embedding_dense_backward(grad_output [..., D], indices [...], num_weights, padding_idx, scale_grad_by_freq).
  const auto grad = tensor_at(a, 0), indices = tensor_at(a, 1);
  const auto num_weights = int_value(at(a.concrete, 2));
  if (!grad || !indices || !num_weights || indices->n <= 0)
    return failed("embedding_dense_backward: shapes or num_weights not recorded");
  const double width = grad->n / indices->n;
  const double rows = std::min(indices->n, static_cast<double>(*num_weights));
  return work(grad->bytes() + indices->bytes(), rows * width * static_cast<double>(grad->b), 0, at(a.types, 0),
              "reads grad_output and indices, writes one weight row per index, at most num_weights "
              "(its zero fill is the zeros op it calls)");
}

// Output length of one pooled dimension (PyTorch's pooling_output_shape).
int64_t pooled(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode) {
  const int64_t span = in + 2 * p - d * (k - 1) - 1 + (ceil_mode ? s - 1 : 0);
  int64_t out = span / s + 1;
  if (ceil_mode && (out - 1) * s >= in + p) --out;
  return out;
}

int64_t pick(const std::vector<int64_t>& v, size_t i, int64_t fallback) {
  if (v.empty()) return fallback;
  return v.size() > i ? v[i] : v[0];
}

std::optional<double> pooled_elements(const perf::EventArgs& a, size_t self_at, size_t kernel_at) {
  const auto shape = int_list(at(a.dims, self_at));
  if (!shape || shape->size() < 3) return std::nullopt;
  const auto k = concrete_ints(at(a.concrete, kernel_at));
  if (k.empty()) return std::nullopt;
  const auto s = concrete_ints(at(a.concrete, kernel_at + 1));
  const auto p = concrete_ints(at(a.concrete, kernel_at + 2));
  const auto d = concrete_ints(at(a.concrete, kernel_at + 3));
  const PyValue& c = at(a.concrete, kernel_at + 4);
  const bool ceil_mode = c.kind == PyValue::Kind::kStr && (c.s == "True" || c.s == "true");
  double n = 1;
  for (size_t i = 0; i + 2 < shape->size(); ++i) n *= static_cast<double>((*shape)[i]);
  for (size_t i = 0; i < 2; ++i) {
    const int64_t ki = pick(k, i, 1);
    const int64_t out = pooled((*shape)[shape->size() - 2 + i], ki, pick(s, i, ki), pick(p, i, 0), pick(d, i, 1),
                               ceil_mode);
    n *= static_cast<double>(std::max<int64_t>(out, 0));
  }
  return n;
}

MemoryWork max_pool2d(const perf::EventArgs& a) {
  // max_pool2d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode).
  const auto self = tensor_at(a, 0);
  const auto out = pooled_elements(a, 0, 1);
  if (!self || !out) return failed("max_pool2d: shape or kernel size not recorded");
  return work(self->bytes(), *out * static_cast<double>(self->b + kIndexBytes), 0, at(a.types, 0),
              "reads self, writes the output and its int64 indices (pooling output size)");
}

MemoryWork max_pool2d_backward(const perf::EventArgs& a) {
  // max_pool2d_with_indices_backward(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices).
  const auto grad = tensor_at(a, 0), self = tensor_at(a, 1);
  if (!grad || !self) return failed("max_pool2d_backward: shapes not recorded");
  const double indices = tensor_at(a, 7) ? tensor_at(a, 7)->bytes() : grad->n * kIndexBytes;
  return work(grad->bytes() + indices, self->n * static_cast<double>(grad->b), 0, at(a.types, 0),
              "reads grad_output and indices, writes grad_input of self's size");
}

MemoryWork dispatch(std::string_view name, const perf::EventArgs& a, std::span<const std::string_view> kernels) {
  if (name == "aten::_log_softmax" || name == "aten::_softmax") return log_softmax(a);
  if (name == "aten::_log_softmax_backward_data" || name == "aten::_softmax_backward_data")
    return elementwise(a, "reads grad_output and output, writes grad_input");
  if (name == "aten::native_dropout") {
    MemoryWork w = elementwise(a, "reads input, writes the output and a 1-byte mask");
    if (w.ok) w.bytes += w.flops * kMaskBytes;
    return w;
  }
  if (name == "aten::where")
    return elementwise_as(a, 1, std::nullopt, "reads condition, self and other, writes the largest at self's dtype");
  if (is_comparison(name))
    return elementwise_as(a, 0, kBoolBytes, "reads its inputs, writes a bool of the largest input's size");
  if (name == "aten::masked_fill_") return elementwise(a, "reads self and mask, writes self");
  if (name == "aten::index_select") return index_select(a);
  if (name == "aten::native_dropout_backward") return elementwise(a, "reads grad_output and mask, writes grad_input");
  if (name == "aten::fill_" || name == "aten::zero_") return write_only(a, "writes self only");
  if (name == "aten::arange") return arange(a);
  if (name == "aten::cat") return cat(a, kernels);
  if (name == "aten::gather") return gather(a);
  if (name == "aten::nll_loss_forward") return nll_loss_forward(a);
  if (name == "aten::nll_loss_backward") return nll_loss_backward(a);
  if (name == "aten::embedding_dense_backward") return embedding_dense_backward(a);
  if (name == "aten::max_pool2d_with_indices") return max_pool2d(a);
  if (name == "aten::max_pool2d_with_indices_backward") return max_pool2d_backward(a);
  if (is_foreach_list_op(name)) return foreach_work(name, a, kernels);
  return elementwise(a, "elementwise: reads its inputs, writes an output of the largest input's size");
}

constexpr std::string_view kNames[] = {
    "aten::tanh", "aten::tanh_backward", "aten::sin", "aten::cos", "aten::sub", "aten::clamp", "aten::where",
    "aten::masked_fill_", "aten::index_select",
    "aten::_log_softmax", "aten::_log_softmax_backward_data", "aten::_softmax", "aten::_softmax_backward_data",
    "aten::native_dropout", "aten::native_dropout_backward", "aten::fill_", "aten::zero_", "aten::arange",
    "aten::cat", "aten::gather", "aten::nll_loss_forward", "aten::nll_loss_backward",
    "aten::embedding_dense_backward", "aten::max_pool2d_with_indices", "aten::max_pool2d_with_indices_backward",
};

// max(flops / peak, bytes / bandwidth); bytes alone where the dtype has no vector peak.
RooflineEstimate memory_roofline(double flops, double bytes, std::string_view spec, const DeviceSpec& device,
                                 double factor) {
  if (flops > 0 && !compute_ceiling(device, spec)) flops = 0;
  return roofline_estimate(flops, bytes, spec, device, factor);
}

}  // namespace

bool is_sol_memory_op(std::string_view name) {
  return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames) || is_comparison(name) ||
         is_foreach_list_op(name);
}

MemoryWork memory_work(std::string_view name, const perf::EventArgs& args,
                       std::span<const std::string_view> kernel_names) {
  if (!is_sol_memory_op(name)) return failed("not a memory-bound op of this model");
  return dispatch(name, args, kernel_names);
}

void estimate_memory_op(const EventStore& s, SolOp& op, const ModeledOps& modeled, OptimizerParams& params,
                        const DeviceSpec* device, const SolOptions& options) {
  std::vector<std::string_view> kernels;
  for (uint32_t k : op.kernels) kernels.push_back(s.name_of(k));
  // A copy: reading the optimizer's gradients below interns more args into the cache.
  const perf::EventArgs args = modeled.args[modeled.args.intern(op.event)].args;
  MemoryWork w = memory_work(op.function, args, kernels);
  if (lists_not_recorded(w)) {
    int64_t blocks = 0;
    for (uint32_t k : op.kernels) blocks += params.grid_x(k);
    w = foreach_work_from_params(op.function, args, params.of(op.event), blocks, kernels);
  }
  op.note = "SOL-only memory model";
  if (!w.ok) {
    op.no_estimate = "SOL-only memory model: " + w.why_not;
    return;
  }
  op.note += ": " + w.rule;
  op.compute_spec = w.compute_spec;
  op.flops = w.flops;
  op.bytes = w.bytes;
  if (!device) {
    op.no_estimate = "no GPU with known peaks";
    return;
  }
  op.roofline = memory_roofline(op.flops, op.bytes, op.compute_spec, *device, options.efficiency_factor);
  op.estimated = op.roofline.ok;
  if (!op.estimated) op.no_estimate = op.roofline.why_not;
}

bool estimate_without_dtype_peak(SolOp& op, std::string_view maf_type, const DeviceSpec& device, double factor) {
  if (maf_type != "vector" || op.flops <= 0 || compute_ceiling(device, op.compute_spec)) return false;
  op.roofline = roofline_estimate(0, op.bytes, op.compute_spec, device, factor);
  op.estimated = op.roofline.ok;
  op.no_estimate = op.estimated ? "" : op.roofline.why_not;
  if (op.estimated)
    op.note = "no vector peak for its dtype" + (op.compute_spec.empty() ? std::string() : " (" + op.compute_spec + ")") +
              ": bound by its bytes on the vector units";
  return true;
}

}  // namespace sollens
