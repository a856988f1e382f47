#include "analyses/solar/op_cost.h"

#include <algorithm>
#include <array>
#include <unordered_set>
#include <utility>

#include "analyses/solar/attention_cost.h"

namespace sollens::solar {
namespace {

using Names = std::unordered_set<std::string_view>;

const Names& allocation_ops() {
  static const Names names = {"empty", "empty_like", "empty_strided", "new_empty",
                              "new_empty_strided", "resize_", "result_type", "set_",
                              "record_stream", "lift_fresh", "_local_scalar_dense", "item",
                              "is_nonzero", "size", "stride", "dim", "numel", "is_same_size"};
  return names;
}

// Ops that only re-label memory: their output is their input seen another way.
const Names& view_ops() {
  static const Names names = {
      "view", "_unsafe_view", "reshape", "_reshape_alias", "as_strided", "t", "transpose",
      "permute", "expand", "expand_as", "squeeze", "unsqueeze", "flatten", "unflatten", "unfold",
      "narrow", "slice", "select", "detach", "detach_", "alias", "__getitem__", "split",
      "split_with_sizes", "chunk", "unbind", "view_as", "numpy_T", "movedim", "diagonal",
      "tensor_split", "lift", "_conj", "real", "imag", "view_as_real", "view_as_complex"};
  return names;
}

// Solar's _ZERO_COMPUTE_OPS that move data (its views are in view_ops above).
const Names& data_movement_ops() {
  static const Names names = {
      "embedding_bag", "contiguous", "cat", "concat", "stack", "repeat", "repeat_interleave",
      "tile", "roll", "flip", "pad", "constant_pad_nd", "clone", "copy_", "to", "_to_copy",
      "type", "type_as", "float", "half", "bfloat16", "int", "__setitem__",
      "_copy_from", "_copy_from_and_resize"};
  return names;
}

const Names& scatter_ops() {
  static const Names names = {"scatter", "scatter_", "index_copy", "index_copy_", "index_put",
                              "index_put_", "_index_put_impl_"};
  return names;
}

const Names& matmul_ops() {
  static const Names names = {"mm", "addmm", "bmm", "baddbmm", "matmul", "linear", "mv",
                              "addmv", "dot", "vdot", "_addmm_activation"};
  return names;
}

const Names& convolution_ops() {
  static const Names names = {
      "convolution", "_convolution", "conv1d", "conv2d", "conv3d", "cudnn_convolution",
      "miopen_convolution", "mkldnn_convolution", "_convolution_mode", "conv_transpose1d",
      "conv_transpose2d", "conv_transpose3d", "cudnn_convolution_transpose",
      "miopen_convolution_transpose", "_slow_conv2d_forward", "slow_conv3d_forward",
      "thnn_conv2d", "_nnpack_spatial_convolution", "cudnn_convolution_relu",
      "cudnn_convolution_add_relu"};
  return names;
}

// Ops that read one element of a large input per index (per row for the losses),
// not all of it; Solar counts every input element.
const Names& gather_ops() {
  static const Names names = {"nll_loss_forward", "nll_loss2d_forward", "gather", "take_along_dim",
                              "index_select", "take"};
  return names;
}

// Ops that only write: their tensor input (fill_'s self) is not read.
const Names& fill_ops() {
  static const Names names = {"fill_", "zero_", "zeros", "ones", "full", "zeros_like",
                              "ones_like", "full_like", "new_zeros", "new_ones", "new_full",
                              "fill", "uniform_", "normal_"};
  return names;
}

const Names& reduction_ops() {
  static const Names names = {"sum", "mean", "amax", "amin", "max", "min", "prod", "norm",
                              "linalg_vector_norm", "var", "std", "var_mean", "std_mean",
                              "argmax", "argmin", "logsumexp", "all", "any", "count_nonzero",
                              "nansum", "_foreach_norm"};
  return names;
}

const EtTensor* first_tensor(const std::vector<EtValue>& values, size_t index,
                             const ExecutionGraph& graph) {
  if (index >= values.size() || values[index].tensors.empty()) return nullptr;
  return &graph.tensors[values[index].tensors.front()];
}

double product(const std::vector<int64_t>& dims, size_t from = 0) {
  double p = 1;
  for (size_t i = from; i < dims.size(); ++i) p *= static_cast<double>(dims[i]);
  return p;
}

double largest_numel(const std::vector<EtValue>& values, const ExecutionGraph& graph) {
  double n = 0;
  for (const EtValue& v : values)
    for (uint32_t t : v.tensors) n = std::max(n, static_cast<double>(graph.tensors[t].numel));
  return n;
}

// The first input is the accumulator in add-then-multiply forms (addmm's bias).
size_t first_matrix_operand(std::string_view base) {
  return base == "addmm" || base == "baddbmm" || base == "addmv" || base == "_addmm_activation"
             ? 1
             : 0;
}

// MACs of a matrix product: every output element is a dot product over K, the last
// dimension of the first matrix operand.
OpCost matmul_cost(const EtNode& node, const ExecutionGraph& graph) {
  OpCost cost;
  const std::string_view base = op_base_name(node.name);
  const EtTensor* a = first_tensor(node.inputs, first_matrix_operand(base), graph);
  const EtTensor* out = first_tensor(node.outputs, 0, graph);
  if (!a || !out || a->shape.empty()) return cost;
  cost.macs = static_cast<double>(out->numel) * static_cast<double>(a->shape.back());
  cost.mac_dtype = a->dtype;
  // A bias (addmm's self, linear's bias) adds one op per output element, as Solar's
  // separate bias_add layer does.
  const bool has_bias = first_matrix_operand(base) == 1 ||
                        (base == "linear" && first_tensor(node.inputs, 2, graph) != nullptr);
  if (has_bias) cost.other_ops = static_cast<double>(out->numel);
  return cost;
}

bool bool_argument(const EtNode& node, size_t index) {
  return index < node.inputs.size() && node.inputs[index].text == "true";
}

bool is_transposed_convolution(const EtNode& node) {
  const std::string_view base = op_base_name(node.name);
  if (base.find("transpose") != std::string_view::npos) return true;
  return (base == "convolution" || base == "_convolution") && bool_argument(node, 6);
}

// Forward convolution: each output element sums C/groups · kernel products (weight
// [O, C/groups, k...]); transposed, each input element spreads over O/groups · kernel.
OpCost convolution_cost(const EtNode& node, const ExecutionGraph& graph) {
  OpCost cost;
  const EtTensor* input = first_tensor(node.inputs, 0, graph);
  const EtTensor* weight = first_tensor(node.inputs, 1, graph);
  const EtTensor* out = first_tensor(node.outputs, 0, graph);
  if (!input || !weight || !out || weight->shape.size() < 2) return cost;
  const double per_element = product(weight->shape, 1);
  const double elements = static_cast<double>(is_transposed_convolution(node) ? input->numel
                                                                               : out->numel);
  cost.macs = elements * per_element;
  cost.mac_dtype = input->dtype;
  const std::string_view base = op_base_name(node.name);
  const bool has_bias_argument = base == "convolution" || base == "_convolution" ||
                                 base.starts_with("conv") || base == "_convolution_mode";
  if (has_bias_argument && first_tensor(node.inputs, 2, graph))
    cost.other_ops = static_cast<double>(out->numel);
  return cost;
}

// convolution_backward(grad_output, input, weight, ...) → (grad_input, grad_weight,
// grad_bias): each of the first two costs the forward's MACs; the bias gradient is a
// reduction over grad_output.
OpCost convolution_backward_cost(const EtNode& node, const ExecutionGraph& graph) {
  OpCost cost;
  const EtTensor* grad_output = first_tensor(node.inputs, 0, graph);
  const EtTensor* input = first_tensor(node.inputs, 1, graph);
  const EtTensor* weight = first_tensor(node.inputs, 2, graph);
  if (!grad_output || !input || !weight || weight->shape.size() < 2) return cost;
  const bool transposed = bool_argument(node, 7);
  const double forward_macs =
      static_cast<double>(transposed ? input->numel : grad_output->numel) *
      product(weight->shape, 1);
  for (size_t i = 0; i < 2; ++i)
    if (first_tensor(node.outputs, i, graph)) cost.macs += forward_macs;
  if (first_tensor(node.outputs, 2, graph)) cost.other_ops = static_cast<double>(grad_output->numel);
  cost.mac_dtype = grad_output->dtype;
  return cost;
}

OpCost attention_op_cost(const EtNode& node, const ExecutionGraph& graph, bool backward) {
  OpCost cost;
  AttentionCost a = attention_cost(node, graph, backward);
  cost.macs = a.macs;
  cost.other_ops = a.other_ops;
  cost.note = std::move(a.note);
  const EtTensor* q = first_tensor(node.inputs, backward ? 1 : 0, graph);
  for (const EtValue& v : node.inputs)
    if (v.name == "query" && !v.tensors.empty()) q = &graph.tensors[v.tensors.front()];
  if (q) cost.mac_dtype = q->dtype;
  return cost;
}

double list_elements(const EtValue& value, const ExecutionGraph& graph) {
  double n = 0;
  for (uint32_t t : value.tensors) n += static_cast<double>(graph.tensors[t].numel);
  return n;
}

bool outputs_alias_inputs(const EtNode& node, const ExecutionGraph& graph) {
  bool any_output = false;
  for (const EtValue& out : node.outputs)
    for (uint32_t o : out.tensors) {
      any_output = true;
      bool aliased = false;
      for (const EtValue& in : node.inputs)
        for (uint32_t i : in.tensors)
          if (graph.tensors[i].storage == graph.tensors[o].storage) aliased = true;
      if (!aliased) return false;
    }
  return any_output;
}

}  // namespace

std::string_view op_kind_name(OpKind kind) {
  static constexpr std::array<std::string_view, 15> names = {
      "allocation", "view",        "communication",       "data_movement", "scatter",
      "embedding",  "matmul",      "convolution",         "convolution_backward",
      "attention",  "attention_backward", "reduction",    "gather", "fill", "elementwise"};
  return names[static_cast<size_t>(kind)];
}

std::string_view op_base_name(std::string_view name) {
  const size_t colons = name.rfind("::");
  if (colons != std::string_view::npos) name.remove_prefix(colons + 2);
  const size_t dot = name.find('.');
  if (dot != std::string_view::npos) name = name.substr(0, dot);
  return name;
}

bool is_in_place(std::string_view base) {
  return base.size() > 1 && base.back() == '_' && !base.ends_with("__");
}

OpKind classify_op(const EtNode& node, const ExecutionGraph& graph) {
  const std::string_view name = node.name;
  if (name.starts_with("c10d::") || name.starts_with("nccl:") || name == "record_param_comms" ||
      name.starts_with("_c10d_functional::") || name.starts_with("c10d_functional::"))
    return OpKind::kCommunication;
  const std::string_view base = op_base_name(name);
  if (allocation_ops().count(base)) return OpKind::kAllocation;
  if (view_ops().count(base)) return OpKind::kView;
  if (!is_in_place(base) && outputs_alias_inputs(node, graph)) return OpKind::kView;
  if (base == "embedding") return OpKind::kEmbedding;
  if (scatter_ops().count(base)) return OpKind::kScatter;
  if (data_movement_ops().count(base)) return OpKind::kDataMovement;
  if (matmul_ops().count(base)) return OpKind::kMatmul;
  if (convolution_ops().count(base)) return OpKind::kConvolution;
  if (base == "convolution_backward" || base == "cudnn_convolution_backward")
    return OpKind::kConvolutionBackward;
  if (is_attention_forward(base)) return OpKind::kAttention;
  if (is_attention_backward(base)) return OpKind::kAttentionBackward;
  if (reduction_ops().count(base)) return OpKind::kReduction;
  if (gather_ops().count(base)) return OpKind::kGather;
  if (fill_ops().count(base)) return OpKind::kFill;
  return OpKind::kElementwise;
}

OpCost op_cost(const EtNode& node, OpKind kind, const ExecutionGraph& graph) {
  OpCost cost;
  switch (kind) {
    case OpKind::kMatmul: return matmul_cost(node, graph);
    case OpKind::kConvolution: return convolution_cost(node, graph);
    case OpKind::kConvolutionBackward: return convolution_backward_cost(node, graph);
    case OpKind::kAttention: return attention_op_cost(node, graph, false);
    case OpKind::kAttentionBackward: return attention_op_cost(node, graph, true);
    case OpKind::kReduction:
      if (!node.inputs.empty()) cost.other_ops = list_elements(node.inputs[0], graph);
      return cost;
    case OpKind::kGather:
    case OpKind::kFill:
    case OpKind::kElementwise:
      // Solar's fallback (gathers and fills differ only in their bytes); _foreach_ ops: one op per element of the first list.
      if (op_base_name(node.name).starts_with("_foreach_") && !node.inputs.empty())
        cost.other_ops = list_elements(node.inputs[0], graph);
      else
        cost.other_ops = node.outputs.empty() || largest_numel(node.outputs, graph) == 0
                             ? largest_numel(node.inputs, graph)
                             : largest_numel(node.outputs, graph);
      return cost;
    default: return cost;
  }
}

}  // namespace sollens::solar
