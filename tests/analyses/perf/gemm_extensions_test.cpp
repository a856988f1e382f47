// The GEMM extension models on hand-computed cases: each op's args laid out as the
// trace records them, the params TraceLens prints and its FLOPs/bytes worked out in the
// comments (tracelens-semantics.md §6.2: flops = 2·M·N·K (+ M·N with a bias), bytes =
// M·K·a + K·N·b + M·N·out (+ N·bias) at each model's bytes per element). The vLLM
// numbers are the reference report's (tracelens-vllm-decode-full).
#include <catch2/catch.hpp>

#include "support/perf_model_cases.h"

using namespace sollens;
using namespace sollens::perf;
using namespace sollens::test;

namespace {

EventArgs args(const char* dims, const char* types, const char* strides = nullptr, const char* concrete = nullptr) {
  return event_args(dims, types, strides, concrete);
}

ModelResult run(const char* op, const EventArgs& a, std::vector<std::string_view> kernels = {}) {
  CHECK(registered(op).family == Family::kGemm);
  return evaluate_op(op, a, std::move(kernels));
}

}  // namespace

TEST_CASE("GEMM extensions: vllm::rocm_unquantized_gemm with and without a bias", "[perf]") {
  // Decode step: x (32, 2880), weight (201088, 2880), empty bias slot of dtype ''.
  // flops = 2·32·201088·2880 = 37,064,540,160 (GFLOPS 37.06454016 in the reference)
  // no bias: output at the weight dtype: bytes = (32·2880 + 2880·201088 + 32·201088)·2
  //        = (92,160 + 579,133,440 + 6,434,816)·2 = 1,171,320,832 (1117.05859375 MiB)
  const ModelResult r = run("vllm::rocm_unquantized_gemm",
                            args("[[32, 2880], [201088, 2880], []]", "['c10::BFloat16', 'c10::BFloat16', '']"),
                            {"Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs"});
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) ==
        "M=32;N=201088;K=2880;bias=False;dtype_A_B=('c10::BFloat16', 'c10::BFloat16', '');B=1;"
        "transpose=(True, False);");
  CHECK(r.fwd.flops == Count::of(37064540160));
  CHECK(r.fwd.bytes == Count::of(1171320832));
  CHECK(compute_spec(r) == "matrix_bf16");

  // Capture: x (32, 2880), weight (5120, 2880), bias (5120), all bf16.
  // flops = 2·32·5120·2880 + 32·5120 = 943,718,400 + 163,840 = 943,882,240
  // bytes = (92,160 + 14,745,600 + 163,840 + 5,120)·2 = 30,013,440 (28.623046875 MiB)
  const ModelResult b = run("vllm::rocm_unquantized_gemm",
                            args("[[32, 2880], [5120, 2880], [5120]]", "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16']"));
  CHECK(params_repr(b) ==
        "M=32;N=5120;K=2880;bias=True;dtype_A_B=('c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16');B=1;");
  CHECK(b.fwd.flops == Count::of(943882240));
  CHECK(b.fwd.bytes == Count::of(30013440));
}

TEST_CASE("GEMM extensions: tex_ts::te_gemm_ts reads A, B, out and bias from its 19 slots", "[perf]") {
  // A = slot 0 (64, 32) with transA (Concrete[4] = "1"): M = 64, K = 32; B = slot 5
  // (48, 32) without transB: N = 48; Concrete[14] = "": no bias.
  // fp8 A and B, bf16 output (slot 10): flops = 2·64·48·32 = 196,608
  // bytes = 64·32·1 + 32·48·1 + 64·48·2 = 2,048 + 1,536 + 6,144 = 9,728
  const EventArgs a = args(
      "[[64, 32], [], [], [], [], [48, 32], [], [], [], [], [64, 48], [], [], [], [], [], [], [], []]",
      "['c10::Float8_e4m3fnuz', '', '', '', 'Scalar', 'c10::Float8_e4m3fnuz', '', '', '', 'Scalar', "
      "'c10::BFloat16', '', '', '', '', '', '', '', 'c10::BFloat16']",
      "[[32, 1], [], [], [], [], [32, 1], [], [], [], [], [48, 1], [], [], [], [], [], [], [], []]",
      "['', '', '', '', '1', '', '', '', '', '0', '', '', '', '', '', '', '', '', '']");
  const ModelResult r = run("tex_ts::te_gemm_ts", a);
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) ==
        "M=64;N=48;K=32;bias=False;stride_A=(32, 1);stride_B=(32, 1);dtype_A_B=('c10::Float8_e4m3fnuz', "
        "'c10::Float8_e4m3fnuz', 'c10::BFloat16', 'c10::BFloat16');B=1;");
  CHECK(r.fwd.flops == Count::of(196608));
  CHECK(r.fwd.bytes == Count::of(9728));
  CHECK(compute_spec(r) == "matrix_fp8");
}

TEST_CASE("GEMM extensions: vllm::gemm_with_dynamic_quant takes the first two 2-D shapes", "[perf]") {
  // Shapes (8, 256) and (512, 128) (slot 1 is empty): M = 8, K = 256, N = 512 (N = B[0]).
  // bpe(A) = 2 for every operand: flops = 2·8·512·256 = 2,097,152
  // bytes = (8·256 + 256·512 + 8·512)·2 = (2,048 + 131,072 + 4,096)·2 = 274,432
  const ModelResult r = run("vllm::gemm_with_dynamic_quant",
                            args("[[8, 256], [], [512, 128], [8, 2]]",
                                 "['c10::BFloat16', '', 'unsigned char', 'c10::Float8_e8m0fnu']",
                                 "[[256, 1], [], [128, 1], [2, 1]]"));
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) ==
        "M=8;N=512;K=256;bias=False;stride_A=(256, 1);stride_B=();dtype_A_B=('c10::BFloat16', '');B=1;");
  CHECK(r.fwd.flops == Count::of(2097152));
  CHECK(r.fwd.bytes == Count::of(274432));
}

TEST_CASE("GEMM extensions: TE v2 pseudo GEMMs write a 2-byte output and reject mixed dtypes", "[perf]") {
  // (16, 64) @ (64, 32) fp8: flops = 2·16·32·64 = 65,536
  // bytes = 16·64·1 + 64·32·1 + 16·32·2 = 1,024 + 2,048 + 1,024 = 4,096
  const ModelResult r = run("_Linear_yfwd_mm", args("[[16, 64], [64, 32]]", "['c10::Float8_e4m3fn', 'c10::Float8_e4m3fn']"));
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) ==
        "M=16;N=32;K=64;bias=False;stride_A=None;stride_B=None;"
        "dtype_A_B=('c10::Float8_e4m3fn', 'c10::Float8_e4m3fn');B=1;");
  CHECK(r.fwd.flops == Count::of(65536));
  CHECK(r.fwd.bytes == Count::of(4096));
  // bf16 × fp8: bytes() raises ValueError, so TraceLens skips the event.
  const ModelResult mixed =
      run("_LayerNormLinearBackward_wgrad_mm", args("[[16, 64], [64, 32]]", "['c10::BFloat16', 'c10::Float8_e4m3fn']"));
  CHECK(mixed.status == perf::Status::kOk);
  CHECK(mixed.fwd.status == perf::Status::kError);
}

TEST_CASE("GEMM extensions: hipblaslt_gemm_fp8 with transC swaps A and B", "[perf]") {
  // A = (128, 64), B = (256, 64); transA False, transB True, transC True: A, B swap and
  // transA, transB = not transB, not transA = False, True. M = 256, K = 64, N = B[0] = 128.
  // flops = 2·256·128·64 = 4,194,304; fp8 in, 2-byte out:
  // bytes = 256·64·1 + 64·128·1 + 256·128·2 = 16,384 + 8,192 + 65,536 = 90,112
  const ModelResult r = run(
      "primus_turbo::hipblaslt_gemm_fp8",
      args("[[128, 64], [], [256, 64], [], [], [], [], [], []]",
           "['c10::Float8_e4m3fnuz', 'float', 'c10::Float8_e4m3fnuz', 'float', 'Scalar', 'Scalar', 'Scalar', 'Scalar', 'Scalar']",
           "[[64, 1], [], [64, 1], [], [], [], [], [], []]", "['', '', '', '', '15', 'False', 'True', 'True', '']"));
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) ==
        "M=256;N=128;K=64;bias=False;stride_A=(64, 1);stride_B=(64, 1);"
        "dtype_A_B=('c10::Float8_e4m3fnuz', 'c10::Float8_e4m3fnuz');dtype_scaleA='float';dtype_scaleB='float';B=1;");
  CHECK(r.fwd.flops == Count::of(4194304));
  CHECK(r.fwd.bytes == Count::of(90112));
  CHECK(compute_spec(r) == "matrix_fp8");
}

TEST_CASE("GEMM extensions: MXFP4 GEMMs count packed operands and E8M0 scales", "[perf]") {
  // hipblaslt_gemm_fp4: A = (32, 64) packed, so M = 32, K = 2·64 = 128; B = (16, 64)
  // with transB: N = 16. flops = 2·32·16·128 = 131,072; 128/32 = 4 scales per row:
  // bytes = 32·64 + 16·64 + 32·4 + 16·4 + 32·16·2 = 2,048 + 1,024 + 128 + 64 + 1,024 = 4,288
  const char* fp4_types =
      "['c10::Float4_e2m1fn_x2', 'c10::Float8_e8m0fnu', 'c10::Float4_e2m1fn_x2', 'c10::Float8_e8m0fnu', 'Scalar', "
      "'Scalar', 'Scalar', 'Scalar', 'Scalar']";
  const ModelResult h = run("primus_turbo_cpp_extension::hipblaslt_gemm_fp4",
                            args("[[32, 64], [32, 4], [16, 64], [16, 4], [], [], [], [], []]", fp4_types, nullptr,
                                 "['', '', '', '', '15', 'False', 'True', 'False', '']"));
  REQUIRE(h.status == perf::Status::kOk);
  CHECK(params_repr(h) ==
        "M=32;N=16;K=128;bias=False;stride_A=None;stride_B=None;"
        "dtype_A_B=('c10::Float4_e2m1fn_x2', 'c10::Float4_e2m1fn_x2');"
        "dtype_scaleA='c10::Float8_e8m0fnu';dtype_scaleB='c10::Float8_e8m0fnu';B=1;");
  CHECK(h.fwd.flops == Count::of(131072));
  CHECK(h.fwd.bytes == Count::of(4288));
  CHECK(compute_spec(h) == "matrix_fp4");

  // aiter::gemm_a4w4: (A, B, scaleA, scaleB, out, …), the NT layout: the same GEMM.
  const ModelResult a = run("aiter::gemm_a4w4",
                            args("[[32, 64], [16, 64], [32, 4], [16, 4], [32, 16], [], [], [], []]",
                                 "['c10::Float4_e2m1fn_x2', 'c10::Float4_e2m1fn_x2', 'c10::Float8_e8m0fnu', "
                                 "'c10::Float8_e8m0fnu', 'c10::BFloat16', 'Scalar', 'Scalar', 'Scalar', 'Scalar']"));
  REQUIRE(a.status == perf::Status::kOk);
  CHECK(params_repr(a) == params_repr(h));
  CHECK(a.fwd.flops == Count::of(131072));
  CHECK(a.fwd.bytes == Count::of(4288));

  // aiter::gemm_afp4wfp4_: x (8, 32) and w (16, 32) packed: M = 8, N = 16, K = 64.
  // flops = 2·8·16·64 = 16,384; bytes = 8·64·0.5 + 64·16·0.5 + 8·16·2 = 256 + 512 + 256
  // = 1,024.0 (a float: the FP4 operands count 0.5 bytes per element)
  const ModelResult f = run("aiter::gemm_afp4wfp4_", args("[[8, 32], [16, 32], [8, 2], [16, 2], [], [8, 16]]",
                                                          "['unsigned char', 'unsigned char', 'unsigned char', "
                                                          "'unsigned char', '', 'c10::BFloat16']"));
  REQUIRE(f.status == perf::Status::kOk);
  CHECK(params_repr(f) ==
        "B=1;M=8;N=16;K=64;bias=False;dtype_A_B=('unsigned char', 'unsigned char', 'c10::bfloat16');");
  CHECK(f.fwd.flops == Count::of(16384));
  CHECK(f.fwd.bytes == Count::real(1024.0));
  CHECK(compute_spec(f) == "matrix_fp4");  // mxfp4, not the storage dtype's fp8
}

TEST_CASE("GEMM extensions: the batched aiter/sglang GEMMs scale FLOPs and bytes by B", "[perf]") {
  // batched_gemm_a16wfp4_: x (4, 8, 64) bf16, w (4, 16, 32) packed FP4: B = 4, M = 8, N = 16, K = 64.
  // flops = 4·2·8·16·64 = 65,536; bytes = 4·(8·64·2 + 64·16·0.5 + 8·16·2) = 4·(1,024 + 512 + 256) = 7,168.0
  const ModelResult w4 = run("aiter::batched_gemm_a16wfp4_", args("[[4, 8, 64], [4, 16, 32], [4, 16, 2]]",
                                                                   "['c10::BFloat16', 'unsigned char', 'unsigned char']"));
  REQUIRE(w4.status == perf::Status::kOk);
  CHECK(params_repr(w4) == "B=4;M=8;N=16;K=64;bias=False;dtype_A_B=('c10::BFloat16', 'unsigned char', 'c10::bfloat16');");
  CHECK(w4.fwd.flops == Count::of(65536));
  CHECK(w4.fwd.bytes == Count::real(7168.0));
  CHECK(compute_spec(w4) == "matrix_fp4");

  // batched_gemm_a8w8: wq (4, 32, 64) gives B = 4, N = 32; x (8, 4, 64) is (M, B, K): M = 8.
  // flops = 4·2·8·32·64 = 131,072; bytes = 4·(8·64·2 + 64·32·1 + 8·32·2) = 4·3,584 = 14,336
  // The precision is wq's dtype: 'signed char' has none, so no Compute Spec.
  const ModelResult w8 = run(
      "sglang_profiler::batched_gemm_a8w8_a_per_token_group_prequant_w_per_batched_tensor_quant_batched_gemm_a8w8_a_"
      "per_token_group_prequant_w_per_batched_tensor_quant",
      args("[[8, 4, 64], [4, 32, 64], [1]]", "['c10::BFloat16', 'signed char', 'float']"));
  REQUIRE(w8.status == perf::Status::kOk);
  CHECK(params_repr(w8) == "B=4;M=8;N=32;K=64;bias=False;dtype_A_B=('c10::BFloat16', 'signed char', 'c10::bfloat16');");
  CHECK(w8.fwd.flops == Count::of(131072));
  CHECK(w8.fwd.bytes == Count::of(14336));
  CHECK(compute_spec(w8) == "");
}

TEST_CASE("GEMM extensions: gemm_a8w8_blockscale with its block-scale params", "[perf]") {
  // x (16, 512), w (256, 512), x_scale (16, 4), w_scale (2, 4): M = 16, N = 256, K = 512;
  // block_k = ceil(512/4) = 128, block_n = ceil(256/2) = 128. fp8 in, bf16 out:
  // flops = 2·16·256·512 = 4,194,304; bytes = 16·512 + 512·256 + 16·256·2 = 8,192 + 131,072 + 8,192 = 147,456
  const ModelResult r = run("aiter::gemm_a8w8_blockscale_ck",
                            args("[[16, 512], [256, 512], [16, 4], [2, 4], [16, 256]]",
                                 "['c10::Float8_e4m3fnuz', 'c10::Float8_e4m3fnuz', 'float', 'float', 'c10::BFloat16']"));
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) ==
        "B=1;M=16;N=256;K=512;bias=False;dtype_A_B=('c10::Float8_e4m3fnuz', 'c10::Float8_e4m3fnuz', 'c10::bfloat16');"
        "quant_scheme='a8w8_blockscale';quant_granularity='per_block';block_k=128;block_n=128;scale_dtype='float';"
        "output_shape=(16, 256);output_dtype='c10::bfloat16';");
  CHECK(r.fwd.flops == Count::of(4194304));
  CHECK(r.fwd.bytes == Count::of(147456));
  CHECK(compute_spec(r) == "matrix_fp8");
  // Without scale tensors: no block-scale params.
  const ModelResult two = run("aiter::gemm_a8w8_ck", args("[[16, 512], [256, 512]]", "['c10::Float8_e4m3fnuz', 'c10::Float8_e4m3fnuz']"));
  CHECK(params_repr(two) ==
        "B=1;M=16;N=256;K=512;bias=False;dtype_A_B=('c10::Float8_e4m3fnuz', 'c10::Float8_e4m3fnuz', 'c10::bfloat16');"
        "output_shape=(16, 256);output_dtype='c10::bfloat16';");
}

TEST_CASE("GEMM extensions: the aiter a16w16 GEMMs pick their output dtype each their way", "[perf]") {
  // x (8, 64), w (32, 64) bf16: M = 8, N = 32, K = 64; 2·8·32·64 = 32,768 FLOPs.
  // gemm_a16w16 with a bias (32): flops = 32,768 + 8·32 = 33,024; output at x's dtype:
  // bytes = (8·64 + 64·32 + 8·32 + 32)·2 = (512 + 2,048 + 256 + 32)·2 = 5,696
  const ModelResult g = run("aiter::gemm_a16w16", args("[[8, 64], [32, 64], [32], [], []]",
                                                       "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'Scalar', '']"));
  REQUIRE(g.status == perf::Status::kOk);
  CHECK(params_repr(g) ==
        "B=1;M=8;N=32;K=64;bias=True;dtype_A_B=('c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16');");
  CHECK(g.fwd.flops == Count::of(33024));
  CHECK(g.fwd.bytes == Count::of(5696));
  // gemm_a16w16_atomic_: the output dtype is slot 3 (float): bytes = 512·2 + 2,048·2 + 256·4 = 6,144
  const ModelResult at = run("aiter::gemm_a16w16_atomic_",
                             args("[[8, 64], [32, 64], [], [8, 32]]", "['c10::BFloat16', 'c10::BFloat16', '', 'float']"));
  CHECK(params_repr(at) == "B=1;M=8;N=32;K=64;bias=False;dtype_A_B=('c10::BFloat16', 'c10::BFloat16', 'float');");
  CHECK(at.fwd.flops == Count::of(32768));
  CHECK(at.fwd.bytes == Count::of(6144));
  // _gemm_a16w16_asm: slot 2's dtype '' is unknown, so the output is at x's dtype:
  // bytes = (512 + 2,048 + 256)·2 = 5,632
  const ModelResult as = run("aiter::_gemm_a16w16_asm", args("[[8, 64], [32, 64], [8, 32], [64]]",
                                                             "['c10::BFloat16', 'c10::BFloat16', '', 'unsigned int']"));
  CHECK(params_repr(as) ==
        "B=1;M=8;N=32;K=64;bias=False;dtype_A_B=('c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16');");
  CHECK(as.fwd.bytes == Count::of(5632));
}
