// MoE models on hand-computed cases (tracelens-semantics.md §7; TraceLens's MoE
// extensions). E = 8 experts, topk = 4, M = 2 tokens make the uniform-routing estimate
// exact: E_active = 8·(1 − (4/8)²) = 6.
#include <catch2/catch.hpp>

#include "support/perf_model_cases.h"

using namespace sollens;
using namespace sollens::perf;
using namespace sollens::test;

namespace {

ModelResult run(const char* op, Family family, const char* dims, const char* types, const char* concrete = nullptr) {
  CHECK(registered(op).family == family);
  return evaluate_op(op, event_args(dims, types, nullptr, concrete));
}

}  // namespace

TEST_CASE("MoE_fused: aiter fmoe_fp8_blockscale_g1u1", "[perf]") {
  // out (2, 64) bf16, input fp8, w1 (8, 64, 64), w2 (8, 64, 32): K = 64, N = 32 (64 // 64 = 1,
  // no packing), gated (w1 rows 64 = 2·32); topk = Concrete[8] = 4.
  // flops = 2·2·64·32·4·2 + 2·2·64·32·4 + 2·64·(2·4 − 1) = 65,536 + 32,768 + 896 = 99,200
  // bytes = 2·64·1 + 6·32·64·1·2 + 6·32·64·1 + 2·64·2 = 128 + 24,576 + 12,288 + 256 = 37,248.0
  const ModelResult r = run("aiter::fmoe_fp8_blockscale_g1u1", Family::kMoeFused,
                            "[[2, 64], [2, 64], [8, 64, 64], [8, 64, 32], [2, 4], [2, 4]]",
                            "['c10::BFloat16', 'c10::Float8_e4m3fnuz', 'c10::Float8_e4m3fnuz', 'c10::Float8_e4m3fnuz', "
                            "'float', 'int']",
                            "['', '', '', '', '', '', '', '', '4']");
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) ==
        "num_tokens=2;hidden_dim=64;inter_dim=32;num_experts=8;topk=4;gated=True;"
        "input_dtype='c10::Float8_e4m3fnuz';weight_dtype='c10::Float8_e4m3fnuz';output_dtype='c10::BFloat16';");
  CHECK(r.fwd.flops == Count::of(99200));
  CHECK(r.fwd.bytes == Count::real(37248.0));
  CHECK(compute_spec(r) == "matrix_fp8");
  // No topk in Concrete Inputs[8]: ValueError.
  CHECK(run("aiter::fmoe_g1u1", Family::kMoeFused, "[[2, 64], [2, 64], [8, 64, 64], [8, 64, 32]]",
            "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16']")
            .status == perf::Status::kError);
}

TEST_CASE("MoE_unfused: the CK-tile up and down stages and SGLang's Triton grouped GEMM", "[perf]") {
  // gemm1: x (2, 64) bf16, w1 (8, 64, 64) fp8, y (2, 4, 32) bf16: N = 32, gated.
  // flops = 2·2·64·32·4·2 = 65,536; bytes = 2·64·2 + 6·2·64·32·1 + 2·32·4·2 = 256 + 24,576 + 512 = 25,344.0
  const ModelResult u = run("aiter::moe_cktile2stages_gemm1_ck", Family::kMoeUnfused,
                            "[[2, 64], [8, 64, 64], [2, 4, 32], [48], [12], [1]]",
                            "['c10::BFloat16', 'c10::Float8_e4m3fnuz', 'c10::BFloat16', 'int', 'int', 'int']");
  REQUIRE(u.status == perf::Status::kOk);
  CHECK(params_repr(u) ==
        "num_tokens=2;hidden_dim=64;inter_dim=32;num_experts=8;topk=4;gated=True;input_dtype='c10::BFloat16';"
        "weight_dtype='c10::Float8_e4m3fnuz';output_dtype='c10::BFloat16';");
  CHECK(u.fwd.flops == Count::of(65536));
  CHECK(u.fwd.bytes == Count::real(25344.0));
  // gemm2: x (2, 4, 32) bf16, w2 (8, 64, 32) fp8, y (2, 64) bf16.
  // flops = 2·2·32·64·4 = 32,768; bytes = 2·32·4·2 + 6·32·64·1 + 2·64·2 = 512 + 12,288 + 256 = 13,056.0
  const ModelResult d = run("aiter::moe_cktile2stages_gemm2_ck", Family::kMoeUnfused,
                            "[[2, 4, 32], [8, 64, 32], [2, 64], [48], [12], [1]]",
                            "['c10::BFloat16', 'c10::Float8_e4m3fnuz', 'c10::BFloat16', 'int', 'int', 'int']");
  REQUIRE(d.status == perf::Status::kOk);
  CHECK(params_repr(d) ==
        "num_tokens=2;hidden_dim=64;inter_dim=32;num_experts=8;topk=4;input_dtype='c10::BFloat16';"
        "weight_dtype='c10::Float8_e4m3fnuz';output_dtype='c10::BFloat16';");
  CHECK(d.fwd.flops == Count::of(32768));
  CHECK(d.fwd.bytes == Count::real(13056.0));
  // invoke_fused_moe_kernel: B (8, 64, 64) fp8, topk_ids (2, 4) at slot 8: m_work = 8.
  // flops = 2·8·64·64 = 65,536; bytes = 8·64·2 + 6·64·64·1 + 8·64·2 = 1,024 + 24,576 + 1,024 = 26,624.0
  const ModelResult t = run("sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel", Family::kMoeUnfused,
                            "[[2, 64], [8, 64, 64], [], [8, 64], [], [2, 4], [2, 4], [48], [2, 4], [1]]",
                            "['c10::BFloat16', 'c10::Float8_e4m3fnuz', '', 'c10::BFloat16', '', 'float', 'int', 'int', "
                            "'int', 'int']");
  REQUIRE(t.status == perf::Status::kOk);
  CHECK(params_repr(t) ==
        "m_work=8;num_tokens=2;topk=4;N=64;K=64;num_experts=8;input_dtype='c10::BFloat16';"
        "weight_dtype='c10::Float8_e4m3fnuz';output_dtype='c10::BFloat16';");
  CHECK(t.fwd.flops == Count::of(65536));
  CHECK(t.fwd.bytes == Count::real(26624.0));
  CHECK(compute_spec(t) == "matrix_fp8");
}

TEST_CASE("MoE_aux: routing top-k, sorting and shared-expert append", "[perf]") {
  // biased_grouped_topk_hip: operands (16, 256) bf16, (256,) bf16, (16, 8) float, (16, 8) int.
  // flops = 4,096 (the largest); bytes = 4,096·2 + 256·2 + 128·4 + 128·4 = 9,728
  const ModelResult b = run("aiter::biased_grouped_topk_hip", Family::kMoeAux, "[[16, 256], [256], [16, 8], [16, 8], [], []]",
                            "['c10::BFloat16', 'c10::BFloat16', 'float', 'int', 'Scalar', 'Scalar']");
  REQUIRE(b.status == perf::Status::kOk);
  CHECK(params_repr(b) ==
        "operands=[((16, 256), 'c10::BFloat16'), ((256,), 'c10::BFloat16'), ((16, 8), 'float'), ((16, 8), 'int')];");
  CHECK(b.fwd.flops == Count::of(4096));
  CHECK(b.fwd.bytes == Count::of(9728));
  CHECK(compute_spec(b) == "vector_bf16");
  // fused_append_shared_experts: ids (16, 9) int, weights (16, 9) float.
  // flops = 144; bytes = 2·(144·4 + 144·4) = 2·1,152 = 2,304
  const ModelResult f = run("sglang_profiler::fused_moe_triton_kernels_fused_append_shared_experts", Family::kMoeAux,
                            "[[16, 9], [16, 9]]", "['int', 'float']");
  REQUIRE(f.status == perf::Status::kOk);
  CHECK(params_repr(f) ==
        "shape_in1=(16, 9);shape_in2=(16, 9);dtype_in1_in2_out=('int', 'float', 'float');stride_input1=None;"
        "stride_input2=None;stride_output=None;");
  CHECK(f.fwd.flops == Count::of(144));
  CHECK(f.fwd.bytes == Count::of(2304));
}
