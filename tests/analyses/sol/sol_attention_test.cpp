// Attention ops as the matmul work they are, for every SDPA op name PyTorch emits, on
// tiny hand-made Kineto traces. Each case's MACs are worked out by hand below.
//
// Shapes (bf16): B = 2, H_q = 4, H_kv = 2 (GQA), S_q = S_kv = 8, d_qk = d_v = 16.
//   [B, H, S, D] ops: q [2,4,8,16], k and v [2,2,8,16]; [B, S, H, D] ops: q [2,8,4,16], k/v [2,8,2,16].
//   Forward MACs = B·H_q·pairs·(d_qk + d_v); backward = B·H_q·pairs·(3·d_qk + 2·d_v).
//   No mask: pairs = 8·8 = 64 → forward 2·4·64·32 = 16,384, backward 2·4·64·80 = 40,960.
//   Causal, top-left: pairs = 1 + 2 + … + 8 = 36 → forward 2·4·36·32 = 9,216, backward 2·4·36·80 = 23,040.
//   Bytes, forward: (q + out) 2·8·4·32 + (k + v) 2·8·2·32 = 3,072 elements · 2 B = 6,144;
//   backward reads and writes each twice over (q, k, v, out, dout; dq, dk, dv): 12,288.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "devices/device_db.h"
#include "analyses/sol/sol.h"
#include "analyses/sol/threaded_trace.h"
#include "ingest/trace_reader.h"

using namespace sollens;

namespace {

constexpr double kFwd = 16384, kBwd = 40960, kFwdCausal = 9216, kBwdCausal = 23040;
const std::string kQ = "[2,4,8,16]", kKV = "[2,2,8,16]";             // [B, H, S, D]
const std::string kQs = "[2,8,4,16]", kKVs = "[2,8,2,16]";           // [B, S, H, D]

// The args of an op with n inputs: the shapes given (bf16), the Concrete Inputs given.
std::string op_args(size_t n, const std::map<size_t, std::string>& dims, const std::map<size_t, std::string>& concrete) {
  std::string d, t, c;
  for (size_t i = 0; i < n; ++i) {
    const auto dim = dims.find(i);
    const auto text = concrete.find(i);
    d += (i ? "," : "") + (dim == dims.end() ? std::string("[]") : dim->second);
    t += std::string(i ? "," : "") + (dim == dims.end() ? R"("")" : R"("c10::BFloat16")");
    c += std::string(i ? "," : "") + "\"" + (text == concrete.end() ? "" : text->second) + "\"";
  }
  return R"("Input Dims":[)" + d + R"(],"Input type":[)" + t + R"(],"Concrete Inputs":[)" + c + "]";
}

// q, k, v at slot q (backward ops: grad_out before them and out after, same shapes as q).
std::map<size_t, std::string> qkv(size_t q, const std::string& qs, const std::string& kvs) {
  std::map<size_t, std::string> d{{q, qs}, {q + 1, kvs}, {q + 2, kvs}};
  if (q == 1) d[0] = qs;
  return d;
}

struct Run {
  std::unique_ptr<EventStore> store;
  TraceTree tree;
  SolOps ops;
};

Run run(const test::ThreadedTrace& trace) {
  Result<std::unique_ptr<EventStore>> loaded = load_trace(PaddedBuffer::copy_of(trace.json()));
  REQUIRE(loaded.ok());
  TraceTree tree = TraceTree::build(*loaded.value());
  const DeviceSpec* h100 = find_device("H100_SXM5_80GB");
  REQUIRE(h100 != nullptr);
  SolOps ops = collect_sol_ops(*loaded.value(), tree, h100);
  return {std::move(loaded.value()), std::move(tree), std::move(ops)};
}

const SolOp& op_named(const SolOps& ops, const std::string& function) {
  const SolOp* found = nullptr;
  for (const SolOp& op : ops.ops)
    if (op.function == function) {
      REQUIRE(found == nullptr);  // one op per name in these traces
      found = &op;
    }
  REQUIRE(found != nullptr);
  return *found;
}

// One attention op launching one kernel by itself.
Run launcher_alone(const std::string& name, const std::string& args) {
  test::ThreadedTrace t;
  t.cpu_op(1, name, 10, 20, args).launch(1, 12, "attn_kernel", 100, 50);
  return run(t);
}

void check_work(const SolOp& op, double macs, double bytes) {
  CHECK(op.estimated);
  CHECK(op.flops == 2 * macs);
  CHECK(op.bytes == bytes);
  CHECK(op.compute_spec == "matrix_bf16");
}

}  // namespace

TEST_CASE("sol attention: the cuDNN composite and its leaf are one op, causal MACs about half", "[sol][attention]") {
  // _scaled_dot_product_cudnn_attention(q, k, v, attn_bias, compute_log_sumexp, dropout_p, is_causal, ...)
  // → _cudnn_attention_forward(q, k, v, attn_bias, cum_seq_q, cum_seq_k, max_q, max_k,
  //   compute_log_sumexp, dropout_p, is_causal, ...): its kernel and an unmodeled helper's
  //   count once, for the composite.
  test::ThreadedTrace t;
  t.cpu_op(1, "aten::_scaled_dot_product_cudnn_attention", 10, 50, op_args(9, qkv(0, kQ, kKV), {{6, "True"}}))
      .cpu_op(1, "aten::_cudnn_attention_forward", 12, 40,
              op_args(13, qkv(0, kQ, kKV), {{6, "8"}, {7, "8"}, {10, "True"}}))
      .cpu_op(1, "aten::arange", 14, 5)
      .launch(1, 15, "arange_kernel", 100, 2)
      .launch(1, 30, "cudnn_fprop", 110, 30);
  const Run r = run(t);
  REQUIRE(r.ops.ops.size() == 1);
  const SolOp& op = r.ops.ops[0];
  CHECK(op.function == "aten::_scaled_dot_product_cudnn_attention");
  CHECK(op.kernels.size() == 2);
  CHECK(op.measured_us == 32);
  check_work(op, kFwdCausal, 6144);
  CHECK(op.note.find("causal") != std::string::npos);
}

TEST_CASE("sol attention: the cuDNN backward composite and leaf, q after grad_out", "[sol][attention]") {
  // _cudnn_attention_backward(grad_out, q, k, v, out, logsumexp, philox_seed, philox_offset,
  //   attn_bias, cum_seq_q, cum_seq_k, max_q, max_k, dropout_p, is_causal, ...)
  auto dims = qkv(1, kQ, kKV);
  dims[4] = kQ;
  test::ThreadedTrace t;
  t.cpu_op(1, "aten::_scaled_dot_product_cudnn_attention_backward", 10, 50, op_args(16, dims, {{14, "True"}}))
      .cpu_op(1, "aten::_cudnn_attention_backward", 12, 40, op_args(16, dims, {{11, "8"}, {12, "8"}, {14, "True"}}))
      .launch(1, 30, "cudnn_bprop", 110, 60);
  const Run r = run(t);
  REQUIRE(r.ops.ops.size() == 1);
  const SolOp& op = r.ops.ops[0];
  CHECK(op.function == "aten::_scaled_dot_product_cudnn_attention_backward");
  check_work(op, kBwdCausal, 12288);
  CHECK(op.note.find("backward") != std::string::npos);
}

TEST_CASE("sol attention: flash, composite over its [B, S, H, D] leaf", "[sol][attention]") {
  // _scaled_dot_product_flash_attention(q, k, v, dropout_p, is_causal, ...) in [B, H, S, D]
  // → _flash_attention_forward(q, k, v, cum_seq_q, cum_seq_k, max_q, max_k, dropout_p,
  //   is_causal, ...) in [B, S, H, D]. No mask: 16,384 MACs.
  test::ThreadedTrace t;
  t.cpu_op(1, "aten::_scaled_dot_product_flash_attention", 10, 50, op_args(7, qkv(0, kQ, kKV), {{4, "False"}}))
      .cpu_op(1, "aten::_flash_attention_forward", 12, 40,
              op_args(15, qkv(0, kQs, kKVs), {{5, "8"}, {6, "8"}, {8, "False"}}))
      .launch(1, 30, "flash_fwd", 110, 30);
  const Run r = run(t);
  REQUIRE(r.ops.ops.size() == 1);
  check_work(r.ops.ops[0], kFwd, 6144);
  CHECK(r.ops.ops[0].note.empty());
}

TEST_CASE("sol attention: flash backward called directly, causal aligned bottom-right", "[sol][attention]") {
  // _flash_attention_backward(grad_out, q, k, v, out, logsumexp, cum_seq_q, cum_seq_k,
  //   max_q, max_k, dropout_p, is_causal, ...). S_q = 4 queries over S_kv = 8 keys,
  //   bottom-right: query i sees keys j ≤ i + 4, so 5 + 6 + 7 + 8 = 26 pairs.
  //   MACs = 2·4·26·(3·16 + 2·16) = 16,640.
  //   Bytes: (q + out) 2·4·4·32 = 1,024 and (k + v) 2·8·2·32 = 1,024 elements, twice over, 2 B: 8,192.
  const std::string q = "[2,4,4,16]";
  auto dims = qkv(1, q, kKVs);
  dims[4] = q;
  const Run r = launcher_alone("aten::_flash_attention_backward", op_args(17, dims, {{8, "4"}, {9, "8"}, {11, "True"}}));
  check_work(op_named(r.ops, "aten::_flash_attention_backward"), 16640, 8192);
}

TEST_CASE("sol attention: the flash and memory-efficient composite backwards", "[sol][attention]") {
  // _scaled_dot_product_flash_attention_backward(grad_out, q, k, v, out, logsumexp,
  //   cum_seq_q, cum_seq_k, max_q, max_k, dropout_p, is_causal, ...): no mask, 40,960.
  auto dims = qkv(1, kQ, kKV);
  dims[4] = kQ;
  const Run flash =
      launcher_alone("aten::_scaled_dot_product_flash_attention_backward", op_args(15, dims, {{11, "False"}}));
  check_work(op_named(flash.ops, "aten::_scaled_dot_product_flash_attention_backward"), kBwd, 12288);
  // _scaled_dot_product_efficient_attention_backward(grad_out, q, k, v, attn_bias, out,
  //   logsumexp, philox_seed, philox_offset, dropout_p, grad_input_mask, is_causal, ...): causal, 23,040.
  auto eff_dims = qkv(1, kQ, kKV);
  eff_dims[5] = kQ;
  const Run eff =
      launcher_alone("aten::_scaled_dot_product_efficient_attention_backward", op_args(13, eff_dims, {{11, "True"}}));
  check_work(op_named(eff.ops, "aten::_scaled_dot_product_efficient_attention_backward"), kBwdCausal, 12288);
}

TEST_CASE("sol attention: memory-efficient leaves, varlen and mask types", "[sol][attention]") {
  // _efficient_attention_forward(q, k, v, bias, cu_seqlens_q, cu_seqlens_k, max_seqlen_q,
  //   max_seqlen_k, dropout_p, custom_mask_type, ...), varlen: q [1, 12, 4, 16], k/v
  //   [1, 12, 2, 16], cu_seqlens of 4 entries = 3 sequences, the longest 6 tokens. The
  //   others' lengths are unknown: counted equal, (12 − 6) / 2 = 3 each, so
  //   pairs ≥ 6·6 + 2·3·3 = 54 = 6·6 + (12 − 6)·(12 − 6)/(3 − 1). MACs = 1·4·54·32 = 6,912.
  //   Bytes: (q + out) 12·4·32 + (k + v) 12·2·32 = 2,304 elements · 2 B = 4,608.
  std::map<size_t, std::string> dims{{0, "[1,12,4,16]"}, {1, "[1,12,2,16]"}, {2, "[1,12,2,16]"}, {4, "[4]"}, {5, "[4]"}};
  const Run varlen =
      launcher_alone("aten::_efficient_attention_forward", op_args(14, dims, {{6, "6"}, {7, "6"}, {9, "0"}}));
  const SolOp& v = op_named(varlen.ops, "aten::_efficient_attention_forward");
  check_work(v, 6912, 4608);
  CHECK(v.note.find("varlen: 3 sequences") != std::string::npos);
  // _efficient_attention_backward(grad_out, q, k, v, bias, out, cu_seqlens_q, cu_seqlens_k,
  //   max_seqlen_q, max_seqlen_k, logsumexp, dropout_p, philox_seed, philox_offset,
  //   custom_mask_type, ...): mask type 1 = causal from the top left, 23,040.
  auto bwd = qkv(1, kQs, kKVs);
  bwd[5] = kQs;
  const Run causal = launcher_alone("aten::_efficient_attention_backward", op_args(20, bwd, {{14, "1"}}));
  check_work(op_named(causal.ops, "aten::_efficient_attention_backward"), kBwdCausal, 12288);
}

TEST_CASE("sol attention: memory-efficient and overrideable composites as launchers", "[sol][attention]") {
  // _scaled_dot_product_efficient_attention(q, k, v, attn_bias, compute_log_sumexp,
  //   dropout_p, is_causal, ...): no mask, 16,384.
  const Run eff =
      launcher_alone("aten::_scaled_dot_product_efficient_attention", op_args(8, qkv(0, kQ, kKV), {{6, "False"}}));
  check_work(op_named(eff.ops, "aten::_scaled_dot_product_efficient_attention"), kFwd, 6144);
  // _scaled_dot_product_fused_attention_overrideable(q, k, v, attn_bias, dropout_p,
  //   is_causal, ...): causal, 9,216.
  const Run fused = launcher_alone("aten::_scaled_dot_product_fused_attention_overrideable",
                                   op_args(8, qkv(0, kQ, kKV), {{5, "True"}}));
  check_work(op_named(fused.ops, "aten::_scaled_dot_product_fused_attention_overrideable"), kFwdCausal, 6144);
  // ..._overrideable_backward(grad_out, q, k, v, attn_bias, grad_input_mask, out,
  //   logsumexp, cum_seq_q, cum_seq_k, max_q, max_k, dropout_p, is_causal, ...): no mask, 40,960.
  auto dims = qkv(1, kQ, kKV);
  dims[6] = kQ;
  const Run fused_bwd = launcher_alone("aten::_scaled_dot_product_fused_attention_overrideable_backward",
                                       op_args(17, dims, {{13, "False"}}));
  check_work(op_named(fused_bwd.ops, "aten::_scaled_dot_product_fused_attention_overrideable_backward"), kBwd, 12288);
}

TEST_CASE("sol attention: scaled_dot_product_attention counts only when it launches itself", "[sol][attention]") {
  // scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal, ...): no mask, 16,384.
  const Run alone =
      launcher_alone("aten::scaled_dot_product_attention", op_args(8, qkv(0, kQ, kKV), {{5, "False"}}));
  check_work(op_named(alone.ops, "aten::scaled_dot_product_attention"), kFwd, 6144);
  // Its math path: the bmm is an op of its own (GEMM model), the softmax has no model;
  // neither is counted as the composite, whose MACs would count the bmm's twice.
  test::ThreadedTrace t;
  t.cpu_op(1, "aten::scaled_dot_product_attention", 10, 60, op_args(8, qkv(0, kQ, kQ), {{5, "False"}}))
      .cpu_op(1, "aten::bmm", 12, 10,
              R"("Input Dims":[[8,8,16],[8,16,8]],"Input type":["c10::BFloat16","c10::BFloat16"],)"
              R"("Input Strides":[[128,16,1],[128,8,1]],"Concrete Inputs":["",""])")
      .launch(1, 13, "gemm_kernel", 100, 5)
      .cpu_op(1, "aten::_softmax", 30, 10)
      .launch(1, 31, "softmax_kernel", 110, 5);
  const Run math = run(t);
  REQUIRE(math.ops.ops.size() == 2);
  CHECK(op_named(math.ops, "aten::bmm").estimated);
  CHECK_FALSE(op_named(math.ops, "aten::_softmax").estimated);
}

TEST_CASE("sol attention: unreadable args are unmodeled with the reason", "[sol][attention]") {
  const Run r = launcher_alone("aten::_cudnn_attention_forward", op_args(13, qkv(0, kQ, kKV), {{10, "maybe"}}));
  const SolOp& op = op_named(r.ops, "aten::_cudnn_attention_forward");
  CHECK_FALSE(op.estimated);
  CHECK(op.no_estimate == "attention causal flag not recorded");
}
