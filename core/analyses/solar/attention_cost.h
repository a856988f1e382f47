#pragma once
// MACs of fused scaled-dot-product attention, read from the op's named arguments
// (query, key, value, is_causal, custom_mask_type, cu_seqlens) and each backend's
// tensor layout. Rules: core/analyses/solar/README.md ("Attention").
#include <string>
#include <string_view>

#include "store/execution_graph.h"

namespace sollens::solar {

// Every fused SDPA operator PyTorch emits (forward or backward); the math path is
// not one: it decomposes into bmm / softmax leaves.
bool is_attention_forward(std::string_view base_name);
bool is_attention_backward(std::string_view base_name);

// The problem one attention call solves.
struct AttentionShape {
  double batch = 0;        // B, or the number of sequences of a varlen call
  double query_heads = 0;  // H_q (MACs follow it; K/V heads are shared under GQA/MQA)
  double kv_heads = 0;     // H_kv
  double query_len = 0;    // S_q per sequence
  double key_len = 0;      // S_kv per sequence
  double qk_dim = 0;       // d_qk
  double v_dim = 0;        // d_v
  double score_pairs = 0;  // (query, key) pairs per batch·head after the causal mask
  std::string note;        // what was assumed: causal, varlen lengths, GQA
};

// nullopt-like: batch == 0 when the shapes are unusable.
AttentionShape attention_shape(const EtNode& node, const ExecutionGraph& graph);

struct AttentionCost {
  double macs = 0;       // QK^T and PV (backward: their five products)
  double other_ops = 0;  // scale and softmax, one op per score each
  std::string note;
};
// Backward counts its matmuls: the recomputed scores QK^T, dV, dP, dQ and dK, five
// products of the forward's size against its two, so 2.5× the forward MACs.
constexpr double kAttentionBackwardFactor = 2.5;
AttentionCost attention_cost(const EtNode& node, const ExecutionGraph& graph, bool backward);

}  // namespace sollens::solar
