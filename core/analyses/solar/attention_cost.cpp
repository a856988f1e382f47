#include "analyses/solar/attention_cost.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_set>

namespace sollens::solar {
namespace {

using Names = std::unordered_set<std::string_view>;

const Names& forward_ops() {
  static const Names names = {
      "scaled_dot_product_attention", "_scaled_dot_product_flash_attention",
      "_scaled_dot_product_efficient_attention", "_scaled_dot_product_cudnn_attention",
      "_scaled_dot_product_fused_attention_overrideable", "_scaled_dot_product_flash_attention_for_cpu",
      "_flash_attention_forward", "_efficient_attention_forward", "_cudnn_attention_forward",
      "_scaled_dot_product_attention_math"};
  return names;
}

const Names& backward_ops() {
  static const Names names = {
      "_scaled_dot_product_flash_attention_backward",
      "_scaled_dot_product_efficient_attention_backward",
      "_scaled_dot_product_cudnn_attention_backward",
      "_scaled_dot_product_fused_attention_overrideable_backward",
      "_scaled_dot_product_flash_attention_for_cpu_backward", "_flash_attention_backward",
      "_efficient_attention_backward", "_cudnn_attention_backward"};
  return names;
}

std::string_view base_of(std::string_view name) {
  const size_t colons = name.rfind("::");
  if (colons != std::string_view::npos) name.remove_prefix(colons + 2);
  return name.substr(0, name.find('.'));
}

const EtValue* named_input(const EtNode& node, std::string_view name) {
  for (const EtValue& v : node.inputs)
    if (v.name == name) return &v;
  return nullptr;
}

// By schema name; positionally (grad_out first in backward) when the schema names none.
const EtTensor* operand(const EtNode& node, const ExecutionGraph& graph, std::string_view name,
                        size_t position) {
  const EtValue* v = named_input(node, name);
  if (!v && position < node.inputs.size() && node.inputs[position].name.empty())
    v = &node.inputs[position];
  return v && !v->tensors.empty() ? &graph.tensors[v->tensors.front()] : nullptr;
}

// A varlen call's cumulative sequence offsets: n + 1 entries for n sequences.
double sequences_of(const EtNode& node, const ExecutionGraph& graph) {
  for (std::string_view name : {"cum_seq_q", "cu_seqlens_q"}) {
    const EtValue* v = named_input(node, name);
    if (v && !v->tensors.empty() && graph.tensors[v->tensors.front()].numel >= 2)
      return static_cast<double>(graph.tensors[v->tensors.front()].numel - 1);
  }
  return 0;
}

struct Dims {
  double batch = 0, heads = 0, len = 0, dim = 0;
};

double at(const std::vector<int64_t>& s, size_t from_end) {
  return static_cast<double>(s[s.size() - from_end]);
}

// [..., H, S, D]: the _scaled_dot_product_* and _cudnn_attention_* layout.
Dims heads_second(const EtTensor& t) {
  Dims d;
  if (t.shape.size() < 2) return d;
  d.len = at(t.shape, 2);
  d.dim = at(t.shape, 1);
  d.heads = t.shape.size() >= 4 ? at(t.shape, 3) : 1;
  d.batch = d.heads * d.len * d.dim > 0 ? static_cast<double>(t.numel) / (d.heads * d.len * d.dim) : 0;
  return d;
}

// [B, S, H, D], or varlen [total, H, D]: the _flash_attention_* and _efficient_attention_* layout.
Dims sequence_second(const EtTensor& t) {
  Dims d;
  if (t.shape.size() == 4) return {at(t.shape, 4), at(t.shape, 2), at(t.shape, 3), at(t.shape, 1)};
  if (t.shape.size() == 3) return {1, at(t.shape, 2), at(t.shape, 3), at(t.shape, 1)};
  return d;
}

bool sequence_second_layout(std::string_view base) {
  return base.starts_with("_flash_attention") || base.starts_with("_efficient_attention");
}

// Query row i sees keys j <= i + offset: offset 0 aligns the mask top-left (PyTorch's
// is_causal), S_kv - S_q bottom-right (custom_mask_type 2).
double causal_pairs(double query_len, double key_len, double offset) {
  const auto rows = static_cast<int64_t>(std::llround(query_len));
  const auto keys = static_cast<int64_t>(std::llround(key_len));
  const auto shift = static_cast<int64_t>(std::llround(offset));
  double pairs = 0;
  for (int64_t i = 0; i < rows; ++i) pairs += static_cast<double>(std::clamp<int64_t>(i + 1 + shift, 0, keys));
  return pairs;
}

// 0: no causal mask; 1: top-left; 2: bottom-right.
int causal_alignment(const EtNode& node) {
  if (const EtValue* v = named_input(node, "is_causal"); v && v->text == "true") return 1;
  if (const EtValue* v = named_input(node, "custom_mask_type"); v && (v->text == "1" || v->text == "2"))
    return v->text == "1" ? 1 : 2;
  return 0;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

void append(std::string& note, const std::string& part) {
  if (!note.empty()) note += "; ";
  note += part;
}

}  // namespace

bool is_attention_forward(std::string_view base) { return forward_ops().count(base) > 0; }
bool is_attention_backward(std::string_view base) { return backward_ops().count(base) > 0; }

AttentionShape attention_shape(const EtNode& node, const ExecutionGraph& graph) {
  AttentionShape a;
  const std::string_view base = base_of(node.name);
  const size_t first = is_attention_backward(base) ? 1 : 0;
  const EtTensor* q = operand(node, graph, "query", first);
  const EtTensor* k = operand(node, graph, "key", first + 1);
  const EtTensor* v = operand(node, graph, "value", first + 2);
  if (!q || !k || !v || v->shape.empty()) return a;
  const double sequences = sequences_of(node, graph);
  const bool varlen = sequences > 0 && q->shape.size() <= 4;
  const bool by_sequence = sequence_second_layout(base) || (varlen && q->shape.size() == 3);
  const Dims dq = by_sequence ? sequence_second(*q) : heads_second(*q);
  const Dims dk = by_sequence ? sequence_second(*k) : heads_second(*k);
  if (dq.batch <= 0 || dq.len <= 0 || dq.dim <= 0 || dk.len <= 0) return a;
  a.batch = dq.batch;
  a.query_heads = dq.heads;
  a.kv_heads = dk.heads;
  a.query_len = dq.len;
  a.key_len = dk.len;
  a.qk_dim = dq.dim;
  a.v_dim = static_cast<double>(v->shape.back());
  if (varlen) {
    // The ET keeps shapes, not values: the sequences' lengths are unknown, so they are
    // taken as equal, which gives the fewest pairs for these totals.
    a.query_len = dq.batch * dq.len / sequences;
    a.key_len = dk.batch * dk.len / sequences;
    a.batch = sequences;
    append(a.note, "varlen: " + number(sequences) +
                       " sequences, lengths unknown (equal lengths assumed)");
  }
  if (a.kv_heads > 0 && a.kv_heads < a.query_heads)
    append(a.note, "GQA: " + number(a.query_heads) + " query heads share " + number(a.kv_heads) +
                       " KV heads");
  const double all_pairs = a.query_len * a.key_len;
  const int alignment = causal_alignment(node);
  a.score_pairs = all_pairs;
  if (alignment != 0) {
    a.score_pairs = causal_pairs(a.query_len, a.key_len, alignment == 2 ? a.key_len - a.query_len : 0);
    append(a.note, std::string("causal (") + (alignment == 2 ? "bottom-right" : "top-left") +
                       "): " + number(a.score_pairs) + " of " + number(all_pairs) + " score pairs");
  }
  return a;
}

AttentionCost attention_cost(const EtNode& node, const ExecutionGraph& graph, bool backward) {
  AttentionCost c;
  const AttentionShape a = attention_shape(node, graph);
  if (a.batch <= 0) return c;
  const double scale = backward ? kAttentionBackwardFactor : 1.0;
  const double scores = a.batch * a.query_heads * a.score_pairs;
  c.macs = scale * scores * (a.qk_dim + a.v_dim);
  c.other_ops = scale * 2 * scores;
  c.note = a.note;
  if (backward) append(c.note, "backward: 2.5x forward MACs (QK^T recomputed, dV, dP, dQ, dK)");
  return c;
}

}  // namespace sollens::solar
