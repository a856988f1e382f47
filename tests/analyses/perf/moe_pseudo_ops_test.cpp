// The MoE pseudo ops of TraceLens's --enable_pseudo_ops pass (pseudo_op::moe_*), modeled
// wherever a trace has them, on hand-computed cases. M tokens, K hidden, N inter, E
// experts: E_active = E·(1 − ((E − topk)/E)^M) = 8·(1 − (6/8)⁴) = 5.46875 for M 4, E 8,
// topk 2 in every case below.
#include <catch2/catch.hpp>

#include "support/perf_model_cases.h"

using namespace sollens;
using namespace sollens::perf;
using namespace sollens::test;

namespace {

// The parent aiter fused MoE op's args: x (4, 64) bf16, w1 (8, 256, 64) and w2 (8, 64, 128)
// fp8, topk_weights (4, 2): K = 64, N = 128·(64 // 64) = 128, gated (256 = 2·128).
EventArgs aiter_fused_parent_args() {
  return event_args("[[4, 64], [8, 256, 64], [8, 64, 128], [4, 2]]",
                    "['c10::BFloat16', 'c10::Float8_e4m3fn', 'c10::Float8_e4m3fn', 'float']");
}

ModelResult run(const char* op, Family family, const EventArgs& args, std::vector<std::string_view> kernels = {}) {
  CHECK(registered(op).family == family);
  return evaluate(registered(op).model, {op, args, kernels});
}

// The Triton / GPTQ pseudo ops' args: the parent's, with the pass's MoE topk and gated.
EventArgs with_moe_args(EventArgs a, int64_t topk, std::optional<bool> gated) {
  a.moe_topk = PyValue::integer(topk);
  if (gated) a.moe_gemm_gated = PyValue::boolean(*gated);
  return a;
}

}  // namespace

TEST_CASE("MoE pseudo ops: aiter fused 1-stage is the fused model on its parent's args", "[perf]") {
  // flops = 2·4·64·128·2·2 + 2·4·64·128·2 + 4·64·(2·2 − 1) = 262,144 + 131,072 + 768 = 393,984
  // bytes = 4·64·2 + 5.46875·128·64·1·2 + 5.46875·128·64·1 + 4·64·2 (output at the input's 2)
  //       = 512 + 89,600 + 44,800 + 512 = 135,424
  const ModelResult r = run("pseudo_op::moe_aiter_fused_1stage", Family::kMoeFused, aiter_fused_parent_args());
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) ==
        "num_tokens=4;hidden_dim=64;inter_dim=128;num_experts=8;topk=2;gated=True;input_dtype='c10::BFloat16';"
        "weight_dtype='c10::Float8_e4m3fn';");
  CHECK(r.fwd.flops == Count::of(393984));
  CHECK(r.fwd.bytes == Count::real(135424.0));
  CHECK(compute_spec(r) == "matrix_bf16");
}

TEST_CASE("MoE pseudo ops: flydsl stages split the parent's MoE into up and down", "[perf]") {
  // stage1 (up, gated): flops = 2·4·64·128·2·2 = 262,144;
  //   bytes = 4·64·2 + 5.46875·2·64·128·1 + 4·128·2·2 = 512 + 89,600 + 2,048 = 92,160
  const ModelResult up = run("pseudo_op::moe_flydsl_stage1", Family::kMoeUnfused, aiter_fused_parent_args());
  REQUIRE(up.status == perf::Status::kOk);
  CHECK(up.fwd.flops == Count::of(262144));
  CHECK(up.fwd.bytes == Count::real(92160.0));
  CHECK(compute_spec(up) == "matrix_fp8");  // the weight dtype's precision
  // stage2 (down): flops = 2·4·128·64·2 = 131,072;
  //   bytes = 4·128·2·2 + 5.46875·128·64·1 + 4·64·2 = 2,048 + 44,800 + 512 = 47,360; gated still listed.
  const ModelResult down = run("pseudo_op::moe_flydsl_stage2", Family::kMoeUnfused, aiter_fused_parent_args());
  REQUIRE(down.status == perf::Status::kOk);
  CHECK(params_repr(down) ==
        "num_tokens=4;hidden_dim=64;inter_dim=128;num_experts=8;topk=2;gated=True;input_dtype='c10::BFloat16';"
        "weight_dtype='c10::Float8_e4m3fn';");
  CHECK(down.fwd.flops == Count::of(131072));
  CHECK(down.fwd.bytes == Count::real(47360.0));
}

TEST_CASE("MoE pseudo ops: Triton unfused stages read topk, gated and the kernel's weight dtype", "[perf]") {
  // vllm::moe_forward's args: x (4, 64) bf16, router logits (4, 8): K = N = 64, E = 8.
  const EventArgs parent = event_args("[[4, 64], [4, 8]]", "['c10::BFloat16', 'c10::BFloat16']");
  // up, gated, an mxfp4 kernel (0.5 bytes per weight): flops = 2·4·64·64·2·2 = 131,072;
  //   bytes = 4·64·2 + 5.46875·2·64·64·0.5 + 4·64·2·2 = 512 + 22,400 + 1,024 = 23,936
  const ModelResult up = run("pseudo_op::moe_triton_unfused_up", Family::kMoeUnfused, with_moe_args(parent, 2, true),
                             {"_matmul_ogs_NNT_bf16xbf16xmxfp4_128x256x128x1_swiglu"});
  REQUIRE(up.status == perf::Status::kOk);
  CHECK(params_repr(up) ==
        "num_tokens=4;hidden_dim=64;inter_dim=64;num_experts=8;topk=2;gated=True;input_dtype='c10::BFloat16';"
        "weight_dtype='FP4';");
  CHECK(up.fwd.flops == Count::of(131072));
  CHECK(up.fwd.bytes == Count::real(23936.0));
  CHECK(compute_spec(up) == "matrix_fp4");
  // down, an fp8 kernel: flops = 2·4·64·64·2 = 65,536;
  //   bytes = 4·64·2·2 + 5.46875·64·64·1 + 4·64·2 = 1,024 + 22,400 + 512 = 23,936
  const ModelResult down = run("pseudo_op::moe_triton_unfused_down", Family::kMoeUnfused,
                               with_moe_args(parent, 2, false), {"_matmul_ogs_NNT_bf16xfp8_128x256x128x1"});
  REQUIRE(down.status == perf::Status::kOk);
  CHECK(down.find_param("gated")->b == false);
  CHECK(down.fwd.flops == Count::of(65536));
  CHECK(down.fwd.bytes == Count::real(23936.0));
  // A kernel name without a weight dtype: the bytes raise (unknown dtype None).
  CHECK(run("pseudo_op::moe_triton_unfused_down", Family::kMoeUnfused, with_moe_args(parent, 2, false),
            {"_matmul_ogs_bf16"})
            .fwd.status == perf::Status::kError);
  // Without the pass's MoE topk there is no model.
  CHECK(run("pseudo_op::moe_triton_unfused_up", Family::kMoeUnfused, parent, {"matmul_ogs_mxfp4"}).status ==
        perf::Status::kError);
}

TEST_CASE("MoE pseudo ops: GPTQ/AWQ stages with INT4 weights", "[perf]") {
  // x (4, 64) bf16, w1 (8, 256, 32) INT4 packed, w2 (8, 64, 64); topk 2.
  const EventArgs parent = event_args("[[4, 64], [8, 256, 32], [8, 64, 64], [], [4, 2]]",
                                      "['c10::BFloat16', 'unsigned char', 'unsigned char', '', 'int']");
  // up, gated by default: N = 256 / 2 = 128; flops = 2·4·64·128·2·2 = 262,144;
  //   bytes = 4·64·2 + 5.46875·2·64·128·0.5 + 4·128·2·2 = 512 + 44,800 + 2,048 = 47,360
  const ModelResult up = run("pseudo_op::moe_gptq_awq_up", Family::kMoeUnfused, with_moe_args(parent, 2, std::nullopt));
  REQUIRE(up.status == perf::Status::kOk);
  CHECK(params_repr(up) ==
        "num_tokens=4;hidden_dim=64;inter_dim=128;num_experts=8;topk=2;gated=True;input_dtype='c10::BFloat16';");
  CHECK(up.fwd.flops == Count::of(262144));
  CHECK(up.fwd.bytes == Count::real(47360.0));
  // down: N = 2·64 = 128; flops = 2·4·128·64·2 = 131,072;
  //   bytes = 4·128·2·2 + 5.46875·128·64·0.5 + 4·64·2 = 2,048 + 22,400 + 512 = 24,960
  const ModelResult down = run("pseudo_op::moe_gptq_awq_down", Family::kMoeUnfused, with_moe_args(parent, 2, false));
  REQUIRE(down.status == perf::Status::kOk);
  CHECK(params_repr(down) ==
        "num_tokens=4;hidden_dim=64;inter_dim=128;num_experts=8;topk=2;input_dtype='c10::BFloat16';");
  CHECK(down.fwd.flops == Count::of(131072));
  CHECK(down.fwd.bytes == Count::real(24960.0));
  CHECK(compute_spec(down) == "matrix_bf16");
}
