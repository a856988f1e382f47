#pragma once
// What one Execution Trace operator costs under Solar's rules: its kind (does it
// compute, move data, or only re-label memory) and its MACs (tensor-core work) and
// other ops (one per element on CUDA cores). Rules: core/analyses/solar/README.md.
#include <cstdint>
#include <string>
#include <string_view>

#include "store/execution_graph.h"

namespace sollens::solar {

enum class OpKind : uint8_t {
  kAllocation,     // empty, resize_, result_type: no data, never counted
  kView,           // view, t, as_strided, a no-op to(): an alias of its input, transparent
  kCommunication,  // c10d / nccl collectives: outside the compute graph
  kDataMovement,   // Solar's zero-compute list (cat, copy_, clone, embedding, ...): traffic only
  kScatter,        // scatter / index_copy / index_put: writes the source, reads nothing
  kEmbedding,      // embedding: reads min(Σ in, Σ out), writes nothing
  kMatmul,         // mm, addmm, bmm, baddbmm, matmul, linear, mv, dot
  kConvolution,    // every forward convolution
  kConvolutionBackward,
  kAttention,      // fused scaled-dot-product attention (every backend's op)
  kAttentionBackward,
  kReduction,      // other ops = input elements
  kGather,         // nll_loss, gather, index_select: Solar's elementwise, reads one element per index
  kFill,           // fill_, zero_, zeros, full: Solar's elementwise, only writes
  kElementwise,    // other ops = output elements (Solar's fallback for unknown ops too)
};
std::string_view op_kind_name(OpKind kind);

// "aten::addmm" → "addmm"; "c10d::allreduce_" → "allreduce_".
std::string_view op_base_name(std::string_view name);
bool is_in_place(std::string_view base_name);

// The kind of an operator node (one with an op_schema).
OpKind classify_op(const EtNode& node, const ExecutionGraph& graph);

struct OpCost {
  double macs = 0;
  double other_ops = 0;
  // The element type of the tensor-core work (the first matrix operand), e.g. "float".
  std::string_view mac_dtype;
  std::string note;  // what the count assumed (causal mask, varlen lengths, GQA)
};
OpCost op_cost(const EtNode& node, OpKind kind, const ExecutionGraph& graph);

}  // namespace sollens::solar
