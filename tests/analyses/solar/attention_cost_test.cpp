// Attention MACs per SDPA backend, each worked out by hand: QK^T and PV are
// B·H_q·pairs·(d_qk + d_v) MACs, pairs = S_q·S_kv, or the causal mask's count
// (top-left: row i sees keys 0..i; bottom-right: keys 0..i + S_kv − S_q); backward ×2.5.
#include <catch2/catch.hpp>

#include "analyses/solar/attention_cost.h"
#include "analyses/solar/sol_model.h"
#include "analyses/solar/solar_graph.h"
#include "support/et_builder.h"

using namespace sollens;
using namespace sollens::solar;
using namespace sollens::test;

namespace {

// Schemas as PyTorch 2.11's native_functions.yaml declares them.
const char* kCudnnForward =
    "aten::_cudnn_attention_forward(Tensor query, Tensor key, Tensor value, Tensor? attn_bias, "
    "Tensor? cum_seq_q, Tensor? cum_seq_k, SymInt max_q, SymInt max_k, bool compute_log_sumexp, "
    "float dropout_p=0., bool is_causal=False, bool return_debug_mask=False, *, float? scale=None) "
    "-> (Tensor output, Tensor logsumexp)";
const char* kCudnnBackward =
    "aten::_cudnn_attention_backward(Tensor grad_out, Tensor query, Tensor key, Tensor value, "
    "Tensor out, Tensor logsumexp, Tensor philox_seed, Tensor philox_offset, Tensor attn_bias, "
    "Tensor cum_seq_q, Tensor cum_seq_k, SymInt max_q, SymInt max_k, float dropout_p, bool "
    "is_causal, *, float? scale=None) -> (Tensor, Tensor, Tensor)";
const char* kFlashForward =
    "aten::_flash_attention_forward(Tensor query, Tensor key, Tensor value, Tensor? cum_seq_q, "
    "Tensor? cum_seq_k, SymInt max_q, SymInt max_k, float dropout_p, bool is_causal, bool "
    "return_debug_mask, *, float? scale=None) -> (Tensor output, Tensor softmax_logsumexp)";
const char* kEfficientForward =
    "aten::_efficient_attention_forward(Tensor query, Tensor key, Tensor value, Tensor? bias, "
    "Tensor? cu_seqlens_q, Tensor? cu_seqlens_k, SymInt? max_seqlen_q, SymInt? max_seqlen_k, "
    "float dropout_p, int custom_mask_type, bool compute_log_sumexp=False, *, float? scale=None) "
    "-> (Tensor output, Tensor logsumexp)";
const char* kEfficientBackward =
    "aten::_efficient_attention_backward(Tensor grad_out_, Tensor query, Tensor key, Tensor "
    "value, Tensor? bias, Tensor out, Tensor? cu_seqlens_q, Tensor? cu_seqlens_k, SymInt "
    "max_seqlen_q, SymInt max_seqlen_k, Tensor logsumexp, float dropout_p, Tensor philox_seed, "
    "Tensor philox_offset, int custom_mask_type, bool bias_requires_grad) -> (Tensor, Tensor, "
    "Tensor, Tensor)";
const char* kSdpaFlash =
    "aten::_scaled_dot_product_flash_attention(Tensor query, Tensor key, Tensor value, float "
    "dropout_p=0.0, bool is_causal=False, bool return_debug_mask=False, *, float? scale=None) -> "
    "(Tensor output, Tensor logsumexp)";
const char* kSdpa =
    "aten::scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? "
    "attn_mask=None, float dropout_p=0., bool is_causal=False, *, float? scale=None, bool "
    "enable_gqa=False) -> Tensor";
const char* kSdpaCudnn =
    "aten::_scaled_dot_product_cudnn_attention(Tensor query, Tensor key, Tensor value, Tensor? "
    "attn_bias, bool compute_log_sumexp, float dropout_p=0., bool is_causal=False, bool "
    "return_debug_mask=False, *, float? scale=None) -> (Tensor output, Tensor logsumexp)";
const char* kEmpty = "aten::empty.memory_format(SymInt[] size, *, ScalarType? dtype=None) -> Tensor";

EtArg bf16(int64_t id, std::vector<int64_t> shape) {
  return et_tensor(id, id + 1, std::move(shape), "c10::BFloat16", 2);
}
EtArg seqlens(int64_t id, int64_t entries) { return et_tensor(id, id + 1, {entries}, "int", 4); }
EtArg dbl(double v) { return {std::to_string(v), "[]", "Double"}; }

struct One {
  std::unique_ptr<ExecutionGraph> graph;
  AttentionCost cost;
};

One cost_of(const EtNodeSpec& spec, bool backward) {
  Result<std::unique_ptr<ExecutionGraph>> r = load_et(et_chakra({spec}));
  INFO(r.message());
  REQUIRE(r.ok());
  One o;
  o.graph = std::move(r.value());
  o.cost = attention_cost(o.graph->nodes.at(0), *o.graph, backward);
  return o;
}

// cuDNN forward: q, k, v [B, H, S, D]; attn_bias, cum_seq_q, cum_seq_k none.
EtNodeSpec cudnn_forward(std::vector<int64_t> q, std::vector<int64_t> kv, bool causal) {
  return {2, 1, "aten::_cudnn_attention_forward", kCudnnForward,
          {bf16(10, q), bf16(20, kv), bf16(30, kv), et_none(), et_none(), et_none(),
           et_int(q[2]), et_int(kv[2]), et_bool(true), dbl(0), et_bool(causal), et_bool(false)},
          {bf16(40, q)}};
}

}  // namespace

TEST_CASE("Attention: every SDPA op PyTorch emits is attention; the math path is not") {
  for (const char* name :
       {"scaled_dot_product_attention", "_scaled_dot_product_flash_attention",
        "_scaled_dot_product_efficient_attention", "_scaled_dot_product_cudnn_attention",
        "_scaled_dot_product_fused_attention_overrideable", "_flash_attention_forward",
        "_efficient_attention_forward", "_cudnn_attention_forward"})
    CHECK(is_attention_forward(name));
  for (const char* name :
       {"_scaled_dot_product_flash_attention_backward",
        "_scaled_dot_product_efficient_attention_backward",
        "_scaled_dot_product_cudnn_attention_backward",
        "_scaled_dot_product_fused_attention_overrideable_backward", "_flash_attention_backward",
        "_efficient_attention_backward", "_cudnn_attention_backward"})
    CHECK(is_attention_backward(name));
  CHECK_FALSE(is_attention_forward("bmm"));
  CHECK_FALSE(is_attention_forward("_softmax"));
}

TEST_CASE("Attention: cuDNN forward [B,H,S,D], full and causal") {
  // B=2, H=4, S=8, D=16: 2·4·(8·8)·(16+16) = 16384 MACs.
  const One full = cost_of(cudnn_forward({2, 4, 8, 16}, {2, 4, 8, 16}, false), false);
  CHECK(full.cost.macs == 16384);
  CHECK(full.cost.other_ops == 2 * 2 * 4 * 64);  // scale + softmax per score
  // Causal, top-left: rows see 1..8 keys, 36 pairs: 2·4·36·32 = 9216 (= 16384·9/16).
  const One causal = cost_of(cudnn_forward({2, 4, 8, 16}, {2, 4, 8, 16}, true), false);
  CHECK(causal.cost.macs == 9216);
  CHECK_THAT(causal.cost.note, Catch::Contains("causal (top-left): 36 of 64"));
}

TEST_CASE("Attention: cuDNN backward is 2.5x its forward") {
  // Same problem as the causal forward: 2.5 · 9216 = 23040.
  const One b = cost_of({2, 1, "aten::_cudnn_attention_backward", kCudnnBackward,
                         {bf16(50, {2, 4, 8, 16}), bf16(10, {2, 4, 8, 16}), bf16(20, {2, 4, 8, 16}),
                          bf16(30, {2, 4, 8, 16}), bf16(40, {2, 4, 8, 16}),
                          et_tensor(60, 61, {2, 4, 8, 1}), et_tensor(62, 63, {1}, "long int", 8),
                          et_tensor(64, 65, {1}, "long int", 8), et_none(), et_none(), et_none(),
                          et_int(8), et_int(8), dbl(0), et_bool(true)},
                         {bf16(70, {2, 4, 8, 16}), bf16(72, {2, 4, 8, 16}), bf16(74, {2, 4, 8, 16})}},
                        true);
  CHECK(b.cost.macs == 23040);
  CHECK_THAT(b.cost.note, Catch::Contains("backward: 2.5x"));
}

TEST_CASE("Attention: flash takes [B,S,H,D]; GQA follows the query heads") {
  // q [2, 8, 4, 16] is B=2, S=8, H=4, D=16: the cuDNN causal problem above, 9216 MACs.
  const auto flash = [](std::vector<int64_t> kv) {
    return EtNodeSpec{2, 1, "aten::_flash_attention_forward", kFlashForward,
                      {bf16(10, {2, 8, 4, 16}), bf16(20, kv), bf16(30, kv), et_none(), et_none(),
                       et_int(8), et_int(8), dbl(0), et_bool(true), et_bool(false)},
                      {bf16(40, {2, 8, 4, 16})}};
  };
  CHECK(cost_of(flash({2, 8, 4, 16}), false).cost.macs == 9216);
  // K/V with 2 heads shared by the 4 query heads: still 2·4·36·32 = 9216.
  const One gqa = cost_of(flash({2, 8, 2, 16}), false);
  CHECK(gqa.cost.macs == 9216);
  CHECK_THAT(gqa.cost.note, Catch::Contains("GQA: 4 query heads share 2 KV heads"));
}

TEST_CASE("Attention: flash varlen [total, H, D] with cum_seq_q") {
  // 3 sequences, 24 tokens, H=4, D=16; cum_seq_q has 4 entries. Lengths unknown:
  // taken equal, 8 each. Full: 3·4·64·32 = 24576; causal: 3·4·36·32 = 13824.
  const auto varlen = [](bool causal) {
    return EtNodeSpec{2, 1, "aten::_flash_attention_forward", kFlashForward,
                      {bf16(10, {24, 4, 16}), bf16(20, {24, 4, 16}), bf16(30, {24, 4, 16}),
                       seqlens(50, 4), seqlens(52, 4), et_int(8), et_int(8), dbl(0),
                       et_bool(causal), et_bool(false)},
                      {bf16(40, {24, 4, 16})}};
  };
  const One full = cost_of(varlen(false), false);
  CHECK(full.cost.macs == 24576);
  CHECK_THAT(full.cost.note, Catch::Contains("varlen: 3 sequences"));
  CHECK(cost_of(varlen(true), false).cost.macs == 13824);
}

TEST_CASE("Attention: memory-efficient [B,S,H,D] with custom_mask_type") {
  // q [1, 16, 2, 8]: S_q=16, H=2, d=8; k, v [1, 24, 2, 8]: S_kv=24.
  const auto efficient = [](int64_t mask) {
    return EtNodeSpec{2, 1, "aten::_efficient_attention_forward", kEfficientForward,
                      {bf16(10, {1, 16, 2, 8}), bf16(20, {1, 24, 2, 8}), bf16(30, {1, 24, 2, 8}),
                       et_none(), et_none(), et_none(), et_none(), et_none(), dbl(0), et_int(mask),
                       et_bool(false)},
                      {bf16(40, {1, 16, 2, 8})}};
  };
  // No mask: 1·2·(16·24)·(8+8) = 12288.
  CHECK(cost_of(efficient(0), false).cost.macs == 12288);
  // Top-left (1): row i sees i+1 keys, 1+…+16 = 136 pairs: 2·136·16 = 4352.
  CHECK(cost_of(efficient(1), false).cost.macs == 4352);
  // Bottom-right (2): row i sees i+9 keys, 9+…+24 = 264 pairs: 2·264·16 = 8448.
  const One br = cost_of(efficient(2), false);
  CHECK(br.cost.macs == 8448);
  CHECK_THAT(br.cost.note, Catch::Contains("bottom-right"));
}

TEST_CASE("Attention: memory-efficient backward and varlen cu_seqlens") {
  // [1, 32, 2, 8] with cu_seqlens_q of 3 entries: 2 sequences of 16 tokens, causal
  // top-left: 2·2·136·16 = 8704 forward, 2.5× = 21760 backward.
  const One b = cost_of({2, 1, "aten::_efficient_attention_backward", kEfficientBackward,
                         {bf16(50, {1, 32, 2, 8}), bf16(10, {1, 32, 2, 8}), bf16(20, {1, 32, 2, 8}),
                          bf16(30, {1, 32, 2, 8}), et_none(), bf16(40, {1, 32, 2, 8}),
                          seqlens(60, 3), seqlens(62, 3), et_int(16), et_int(16),
                          et_tensor(64, 65, {1, 2, 32}), dbl(0), et_tensor(66, 67, {1}, "long int", 8),
                          et_tensor(68, 69, {1}, "long int", 8), et_int(1), et_bool(false)},
                         {bf16(70, {1, 32, 2, 8})}},
                        true);
  CHECK(b.cost.macs == 21760);
}

TEST_CASE("Attention: d_v may differ from d_qk") {
  // _scaled_dot_product_flash_attention [B,H,S,D]: q, k [1, 2, 4, 8], v [1, 2, 4, 16]:
  // 1·2·16·(8+16) = 768.
  const One o = cost_of({2, 1, "aten::_scaled_dot_product_flash_attention", kSdpaFlash,
                         {bf16(10, {1, 2, 4, 8}), bf16(20, {1, 2, 4, 8}), bf16(30, {1, 2, 4, 16}),
                          dbl(0), et_bool(false), et_bool(false)},
                         {bf16(40, {1, 2, 4, 16})}},
                        false);
  CHECK(o.cost.macs == 768);
}

TEST_CASE("Attention: the cuDNN composite chain is counted once, at its leaf") {
  // scaled_dot_product_attention → _scaled_dot_product_cudnn_attention →
  // _cudnn_attention_forward → empty: only the leaf counts, 9216 MACs (causal, above).
  EtNodeSpec leaf = cudnn_forward({2, 4, 8, 16}, {2, 4, 8, 16}, true);
  leaf.id = 4;
  leaf.parent = 3;
  const std::vector<EtArg> qkv = {bf16(10, {2, 4, 8, 16}), bf16(20, {2, 4, 8, 16}),
                                  bf16(30, {2, 4, 8, 16})};
  Result<std::unique_ptr<ExecutionGraph>> r = load_et(et_chakra({
      {2, 1, "aten::scaled_dot_product_attention", kSdpa,
       {qkv[0], qkv[1], qkv[2], et_none(), dbl(0), et_bool(true)}, {bf16(40, {2, 4, 8, 16})}},
      {3, 2, "aten::_scaled_dot_product_cudnn_attention", kSdpaCudnn,
       {qkv[0], qkv[1], qkv[2], et_none(), et_bool(true), dbl(0), et_bool(true)},
       {bf16(40, {2, 4, 8, 16})}},
      leaf,
      {5, 4, "aten::empty", kEmpty, {}, {bf16(40, {2, 4, 8, 16})}},
  }));
  REQUIRE(r.ok());
  const SolarGraph solar = build_solar_graph(*r.value());
  REQUIRE(solar.nodes.size() == 1);
  CHECK(r.value()->nodes[solar.nodes[0].node].name == "aten::_cudnn_attention_forward");
  CHECK(solar.nodes[0].kind == OpKind::kAttention);
  CHECK(solar.nodes[0].cost.macs == 9216);
  CHECK(solar.composite_nodes == 2);
}

TEST_CASE("Attention: the other SDPA entry points, by hand") {
  const char* kSdpaEfficient =
      "aten::_scaled_dot_product_efficient_attention(Tensor query, Tensor key, Tensor value, "
      "Tensor? attn_bias, bool compute_log_sumexp, float dropout_p=0.0, bool is_causal=False, *, "
      "float? scale=None) -> (Tensor output, Tensor log_sumexp)";
  const char* kOverrideable =
      "aten::_scaled_dot_product_fused_attention_overrideable(Tensor query, Tensor key, Tensor "
      "value, Tensor? attn_bias=None, float dropout_p=0.0, bool is_causal=False, bool "
      "return_debug_mask=False, *, float? scale=None) -> (Tensor output, Tensor logsumexp)";
  const char* kFlashBackward =
      "aten::_flash_attention_backward(Tensor grad_out, Tensor query, Tensor key, Tensor value, "
      "Tensor out, Tensor logsumexp, Tensor cum_seq_q, Tensor cum_seq_k, SymInt max_q, SymInt "
      "max_k, float dropout_p, bool is_causal, Tensor rng_state, Tensor unused, *, float? "
      "scale=None) -> (Tensor, Tensor, Tensor)";
  const char* kSdpaCudnnBackward =
      "aten::_scaled_dot_product_cudnn_attention_backward(Tensor grad_out, Tensor query, Tensor "
      "key, Tensor value, Tensor out, Tensor logsumexp, Tensor philox_seed, Tensor philox_offset, "
      "Tensor attn_bias, Tensor cum_seq_q, Tensor cum_seq_k, SymInt max_q, SymInt max_k, float "
      "dropout_p, bool is_causal, *, float? scale=None) -> (Tensor, Tensor, Tensor)";
  // The public op alone with enable_gqa: q [1, 4, 8, 16], k/v [1, 2, 8, 16]:
  // 1·4·(8·8)·(16+16) = 8192.
  CHECK(cost_of({2, 1, "aten::scaled_dot_product_attention", kSdpa,
                 {bf16(10, {1, 4, 8, 16}), bf16(20, {1, 2, 8, 16}), bf16(30, {1, 2, 8, 16}),
                  et_none(), dbl(0), et_bool(false), et_none(), et_bool(true)},
                 {bf16(40, {1, 4, 8, 16})}},
                false)
            .cost.macs == 8192);
  // Memory-efficient SDPA, causal [1, 2, 4, 8]: 1+2+3+4 = 10 pairs, 1·2·10·16 = 320.
  CHECK(cost_of({2, 1, "aten::_scaled_dot_product_efficient_attention", kSdpaEfficient,
                 {bf16(10, {1, 2, 4, 8}), bf16(20, {1, 2, 4, 8}), bf16(30, {1, 2, 4, 8}), et_none(),
                  et_bool(true), dbl(0), et_bool(true)},
                 {bf16(40, {1, 2, 4, 8})}},
                false)
            .cost.macs == 320);
  // Overrideable, [2, 1, 3, 4], no mask: 2·1·9·8 = 144.
  CHECK(cost_of({2, 1, "aten::_scaled_dot_product_fused_attention_overrideable", kOverrideable,
                 {bf16(10, {2, 1, 3, 4}), bf16(20, {2, 1, 3, 4}), bf16(30, {2, 1, 3, 4}), et_none(),
                  dbl(0), et_bool(false), et_bool(false)},
                 {bf16(40, {2, 1, 3, 4})}},
                false)
            .cost.macs == 144);
  // Flash backward [B, S, H, D] = [1, 4, 2, 8], causal: forward 320 (above), 2.5× = 800.
  CHECK(cost_of({2, 1, "aten::_flash_attention_backward", kFlashBackward,
                 {bf16(50, {1, 4, 2, 8}), bf16(10, {1, 4, 2, 8}), bf16(20, {1, 4, 2, 8}),
                  bf16(30, {1, 4, 2, 8}), bf16(40, {1, 4, 2, 8}), et_tensor(60, 61, {1, 2, 4}),
                  et_none(), et_none(), et_int(4), et_int(4), dbl(0), et_bool(true)},
                 {bf16(70, {1, 4, 2, 8})}},
                true)
            .cost.macs == 800);
  // The cuDNN SDPA backward composite [1, 2, 4, 8], no mask: 1·2·16·16 = 512, 2.5× = 1280.
  CHECK(cost_of({2, 1, "aten::_scaled_dot_product_cudnn_attention_backward", kSdpaCudnnBackward,
                 {bf16(50, {1, 2, 4, 8}), bf16(10, {1, 2, 4, 8}), bf16(20, {1, 2, 4, 8}),
                  bf16(30, {1, 2, 4, 8}), bf16(40, {1, 2, 4, 8}), et_tensor(60, 61, {1, 2, 4, 1}),
                  et_none(), et_none(), et_none(), et_none(), et_none(), et_int(4), et_int(4),
                  dbl(0), et_bool(false)},
                 {bf16(70, {1, 2, 4, 8})}},
                true)
            .cost.macs == 1280);
}
