// Perf models on hand-computed cases. Every expected number is worked out in the
// comments from the formulas of tracelens-semantics.md §6 (and CORRECTIONS.md for the
// corrected counts), not taken from running the code.
#include <catch2/catch.hpp>

#include "support/perf_model_cases.h"

using namespace sollens;
using namespace sollens::perf;
using namespace sollens::test;

namespace {

ModelResult run(const char* op, const EventArgs& args, std::vector<std::string_view> kernels = {}) {
  return evaluate_op(op, args, std::move(kernels));
}

}  // namespace

TEST_CASE("GEMM: aten::addmm with bias", "[perf]") {
  // addmm(C (64,), A (32, 128), B (128, 64)), bf16: M = 32, K = 128, N = 64.
  // flops = 2·M·N·K + M·N = 2·32·64·128 + 32·64 = 524288 + 2048 = 526336
  // bytes = (M·K + K·N + M·N + N)·2 = (4096 + 8192 + 2048 + 64)·2 = 28800
  EventArgs a;
  a.dims = lit("[[64], [32, 128], [128, 64], [], []]");
  a.types = lit("['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'Scalar', 'Scalar']");
  a.strides = lit("[[1], [128, 1], [1, 128], [], []]");
  const ModelResult r = run("aten::addmm", a, {"Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV"});
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) ==
        "M=32;N=64;K=128;bias=True;stride_A=(128, 1);stride_B=(1, 128);"
        "dtype_A_B=('c10::BFloat16', 'c10::BFloat16');B=1;transpose=(True, False);");
  CHECK(r.fwd.flops == Count::of(526336));
  CHECK(r.fwd.bytes == Count::of(28800));
  CHECK(compute_spec(r) == "matrix_bf16");
  CHECK(r.bwd.status == perf::Status::kNotImplemented);  // GEMM bwd raises upstream
}

TEST_CASE("GEMM: strided aten::bmm", "[perf]") {
  // bmm(A (4, 16, 32) with strides (512, 1, 16), i.e. a transposed view; B (4, 32, 8)), float.
  // B = 4, M = 16, K = 32, N = 8; flops = B·2·M·N·K = 4·2·16·8·32 = 32768
  // bytes = B·(M·K + K·N + M·N)·4 = 4·(512 + 256 + 128)·4 = 14336; strides only recorded.
  EventArgs a;
  a.dims = lit("[[4, 16, 32], [4, 32, 8]]");
  a.types = lit("['float', 'float']");
  a.strides = lit("[[512, 1, 16], [256, 8, 1]]");
  const ModelResult r = run("aten::bmm", a);
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) ==
        "B=4;M=16;N=8;K=32;bias=False;stride_A=(512, 1, 16);stride_B=(256, 8, 1);"
        "dtype_A_B=('float', 'float');");
  CHECK(r.fwd.flops == Count::of(32768));
  CHECK(r.fwd.bytes == Count::of(14336));
  CHECK(compute_spec(r) == "matrix_fp32");
}

TEST_CASE("SDPA: non-causal and causal flash attention", "[perf]") {
  // q = k = v = (B 2, H 4, N 128, d 64), BHND.
  // flops = B·H·2·N·N·d (QKᵀ) + B·H·2·N·d·N (PV) = 2·(8·2·128·128·64) = 2·16777216 = 33554432
  // bytes = 4 tensors · (2·128·4·64 = 65536 elements) · 2 (TraceLens's fixed bpe) = 524288
  EventArgs a;
  a.dims = lit("[[2, 4, 128, 64], [2, 4, 128, 64], [2, 4, 128, 64], [], [], [], []]");
  a.types = lit("['float', 'float', 'float', '', '', '', '']");
  a.strides = lit("[[32768, 8192, 64, 1], [32768, 8192, 64, 1], [32768, 8192, 64, 1], [], [], [], []]");
  a.concrete = lit("['', '', '', '0.', 'False', 'False', '']");
  ModelResult r = run("aten::_scaled_dot_product_flash_attention", a);
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) ==
        "B=2;N_Q=128;H_Q=4;N_KV=128;H_KV=4;d_h_qk=64;d_h_v=64;dropout=0.0;causal=False;"
        "flash_impl=True;dtype_A_B=('float', 'float');");
  CHECK(r.fwd.flops == Count::of(33554432));
  CHECK(!r.fwd.flops_corrected);  // nothing masked: TraceLens's count is exact
  CHECK(r.fwd.bytes == Count::of(524288));
  // corrected bytes at float's 4 bytes per element: 4·65536·4 = 1048576
  REQUIRE(r.fwd.bytes_corrected);
  CHECK(*r.fwd.bytes_corrected == Count::of(1048576));

  // causal: TraceLens halves the full count, as a float: 33554432 / 2 = 16777216.0.
  // Exact: query i sees keys 0..i, 128·129/2 = 8256 pairs;
  // flops = B·H·2·pairs·(d_qk + d_v) = 8·2·8256·128 = 16908288.
  a.concrete = lit("['', '', '', '0.', 'True', 'False', '']");
  r = run("aten::_scaled_dot_product_flash_attention", a);
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(r.fwd.flops == Count::real(16777216.0));
  REQUIRE(r.fwd.flops_corrected);
  CHECK(*r.fwd.flops_corrected == Count::of(16908288));
}

TEST_CASE("CONV: grouped convolution with a bias tensor", "[perf]") {
  // input (2, 8, 10, 10), weight (16, 4, 3, 3) (groups 2: 8 / 2 = 4 input channels per
  // filter), bias (16,), stride 1, padding 1, float. out = (2, 16, 10, 10):
  // (10 + 2·1 − 1·(3 − 1) − 1) / 1 + 1 = 10; prod(out) = 3200.
  // flops = prod(out)·2·prod(w[1:]) = 3200·2·36 = 230400 (bias: len(dims) == 9, not counted)
  // bytes = (prod(x) 1600 + prod(w) 576 + prod(out) 3200)·4 = 21504
  // corrected with the bias: flops + prod(out) = 233600; bytes + out[1]·4 = 21504 + 64 = 21568
  EventArgs a;
  a.dims = lit("[[2, 8, 10, 10], [16, 4, 3, 3], [16], [], [], [], [], [], []]");
  a.types = lit("['float', 'float', 'float', 'ScalarList', 'ScalarList', 'ScalarList', 'Scalar', 'ScalarList', 'Scalar']");
  a.strides = lit("[[800, 100, 10, 1], [36, 9, 3, 1], [1], [], [], [], [], [], []]");
  a.concrete = lit("['', '', '', '[1, 1]', '[1, 1]', '[1, 1]', 'False', '[0, 0]', '2']");
  const ModelResult r = run("aten::convolution", a);
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) ==
        "convNd='conv2d';input_shape=(2, 8, 10, 10);filter_shape=(16, 4, 3, 3);"
        "dtype_input_weight=('float', 'float');input_stride=(800, 100, 10, 1);"
        "weight_stride=(36, 9, 3, 1);bias=False;stride=(1, 1);padding=(1, 1);dilation=(1, 1);"
        "transposed_conv=False;output_padding=(0, 0);groups=2;");
  CHECK(r.fwd.flops == Count::of(230400));
  CHECK(r.fwd.bytes == Count::of(21504));
  REQUIRE(r.fwd.flops_corrected);
  CHECK(*r.fwd.flops_corrected == Count::of(233600));
  REQUIRE(r.fwd.bytes_corrected);
  CHECK(*r.fwd.bytes_corrected == Count::of(21568));
}

TEST_CASE("Binary elementwise: broadcasting and a scalar operand", "[perf]") {
  // mul((16, 1, 32), (8, 1)), bf16: out = (16, 8, 32) = 4096 elements.
  // flops = 4096; bytes = 512·2 + 8·2 + 4096·max(2, 2) = 1024 + 16 + 8192 = 9232
  EventArgs a;
  a.dims = lit("[[16, 1, 32], [8, 1]]");
  a.types = lit("['c10::BFloat16', 'c10::BFloat16']");
  a.strides = lit("[[32, 32, 1], [1, 1]]");
  ModelResult r = run("aten::mul", a);
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(r.fwd.flops == Count::of(4096));
  CHECK(r.fwd.bytes == Count::of(9232));
  CHECK(repr(*r.find_param("dtype_in1_in2_out")) == "('c10::BFloat16', 'c10::BFloat16', None)");
  CHECK(compute_spec(r) == "vector_bf16");
  // add((4, 4) float, () Scalar): 16 elements; bytes = 16·4 + 1·4 + 16·4 (bpe1: a scalar side) = 132
  a.dims = lit("[[4, 4], [], []]");
  a.types = lit("['float', 'Scalar', 'Scalar']");
  a.strides = lit("[[4, 1], [], []]");
  r = run("aten::add", a);
  CHECK(r.fwd.flops == Count::of(16));
  CHECK(r.fwd.bytes == Count::of(132));
  // (3, 4) with (5,): not broadcastable: the event is skipped (ValueError upstream)
  a.dims = lit("[[3, 4], [5]]");
  a.types = lit("['float', 'float']");
  CHECK(run("aten::mul", a).fwd.status == perf::Status::kError);
}

TEST_CASE("Normalization: aten::layer_norm", "[perf]") {
  // layer_norm((2, 10, 32), [32], weight (32,), bias (32,)), bf16: N = 640, C = 32,
  // is_affine, has_bias, is_training all True (the last one always for LayerNorm).
  // flops = 3·C + 3·N + 3·C + 2·N = 96 + 1920 + 96 + 1280 = 3392
  // bytes = (N + N + nW·C)·2 with nW = 2 + 1 + 1 + 2 = 6: (1280 + 192)·2 = 2944
  EventArgs a;
  a.dims = lit("[[2, 10, 32], [], [32], [32], [], []]");
  a.types = lit("['c10::BFloat16', '', 'c10::BFloat16', 'c10::BFloat16', 'Scalar', 'Scalar']");
  a.strides = lit("[[320, 32, 1], [], [1], [1], [], []]");
  a.concrete = lit("['', '[32]', '', '', '1.0000000000000001e-05', 'True']");
  const ModelResult r = run("aten::layer_norm", a);
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) ==
        "op_shape=(2, 10, 32);dtype_in_out=('c10::BFloat16', None);stride_input=(320, 32, 1);"
        "stride_output=None;num_channels=32;has_bias=True;is_affine=True;is_training=True;");
  CHECK(r.fwd.flops == Count::of(3392));
  CHECK(r.fwd.bytes == Count::of(2944));
}

TEST_CASE("Reduce: output elements, TraceLens's and corrected", "[perf]") {
  // sum((8, 16), dim '[0]', keepdim 'False'), float: TraceLens reads no dim (strings),
  // so num_output_elems = 1: bytes = 128·4 + 1·4 = 516. Corrected: 16 outputs,
  // bytes = 128·4 + 16·4 = 576. flops = 128 either way.
  EventArgs a;
  a.dims = lit("[[8, 16], [], [], []]");
  a.types = lit("['float', 'ScalarList', 'Scalar', '']");
  a.concrete = lit("['', '[0]', 'False', '']");
  const ModelResult r = run("aten::sum", a);
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(repr(*r.find_param("num_output_elems")) == "1");
  CHECK(r.fwd.flops == Count::of(128));
  CHECK(r.fwd.bytes == Count::of(516));
  REQUIRE(r.fwd.bytes_corrected);
  CHECK(*r.fwd.bytes_corrected == Count::of(576));
}

TEST_CASE("Normalization corrected: batch_norm in inference reads training and affine right", "[perf]") {
  // batch_norm(x (2, 4, 8, 8) float, weight (4,), bias (4,), running stats, training False):
  // N = 512, C = 4.
  // TraceLens: bool("False") is True, so training; affine and bias as `[…] is not None`:
  //   flops = 3C + 3N + 3C + 2N = 24 + 2560 = 2584; nW = 2 + 1 + 1 + 2 = 6,
  //   bytes = (2N + 6C)·4 = (1024 + 24)·4 = 4192.
  // Corrected: training False, affine (weight recorded) and bias (bias recorded):
  //   flops = 6C + 2N = 24 + 1024 = 1048; nW = 2 + 1 + 1 = 4, bytes = (1024 + 16)·4 = 4160.
  EventArgs a;
  a.dims = lit("[[2, 4, 8, 8], [4], [4], [4], [4], [], [], [], []]");
  a.types = lit("['float', 'float', 'float', 'float', 'float', 'Scalar', 'Scalar', 'Scalar', 'Scalar']");
  a.strides = lit("[[256, 64, 8, 1], [1], [1], [1], [1], [], [], [], []]");
  a.concrete = lit("['', '', '', '', '', 'False', '0.1', '1e-05', 'True']");
  const ModelResult r = run("aten::batch_norm", a);
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(r.find_param("is_training")->b);  // TraceLens's value stays in the param column
  CHECK(r.fwd.flops == Count::of(2584));
  CHECK(r.fwd.bytes == Count::of(4192));
  REQUIRE(r.fwd.flops_corrected);
  CHECK(*r.fwd.flops_corrected == Count::of(1048));
  REQUIRE(r.fwd.bytes_corrected);
  CHECK(*r.fwd.bytes_corrected == Count::of(4160));
}

TEST_CASE("Normalization corrected: layer_norm without weight and bias", "[perf]") {
  // layer_norm(x (2, 8, 16) bf16, normalized_shape [16], weight None, bias None): Kineto
  // records the absent tensors as []. N = 256, C = 16.
  // TraceLens: [] is not None, so affine and bias: flops = 6C + 3N + 2N = 96 + 1280 = 1376;
  //   nW = 2 + 1 + 1 + 2 = 6, bytes = (2N + 6C)·2 = (512 + 96)·2 = 1216.
  // Corrected: no affine, no bias (training stays True): flops unchanged (1376, so no
  //   corrected FLOPs); nW = 2 + 2 = 4, bytes = (512 + 64)·2 = 1152.
  EventArgs a;
  a.dims = lit("[[2, 8, 16], [], [], [], [], []]");
  a.types = lit("['c10::BFloat16', '', '', '', 'Scalar', 'Scalar']");
  a.strides = lit("[[128, 16, 1], [], [], [], [], []]");
  a.concrete = lit("['', '[16]', '', '', '1e-05', 'True']");
  const ModelResult r = run("aten::layer_norm", a);
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(r.fwd.flops == Count::of(1376));
  CHECK(r.fwd.bytes == Count::of(1216));
  CHECK_FALSE(r.fwd.flops_corrected);
  REQUIRE(r.fwd.bytes_corrected);
  CHECK(*r.fwd.bytes_corrected == Count::of(1152));
}

TEST_CASE("GEMM corrected: aten::_scaled_mm with a bias and a float32 out_dtype", "[perf]") {
  // _scaled_mm(A (64, 128) fp8, B (128, 32) fp8, scale_a () float, scale_b () float,
  //            bias (32,) bf16, scale_result None, out_dtype 6 (= float32), use_fast_accum False).
  // M = 64, K = 128, N = 32.
  // TraceLens: bias = len(Input Dims) == 3 → False (8 entries); output bpe 2 for fp8 inputs:
  //   flops = 2·64·32·128 = 524288; bytes = 64·128·1 + 128·32·1 + 64·32·2 = 8192 + 4096 + 4096 = 16384.
  // Corrected: bias recorded in slot 4 → flops + M·N = 524288 + 2048 = 526336;
  //   bytes = 8192 + 4096 + 64·32·4 (float32 out) + 4 + 4 (scales) + 32·2 (bias)
  //         = 8192 + 4096 + 8192 + 8 + 64 = 20552.
  EventArgs a;
  a.dims = lit("[[64, 128], [128, 32], [], [], [32], [], [], []]");
  a.types = lit("['c10::Float8_e4m3fn', 'c10::Float8_e4m3fn', 'float', 'float', 'c10::BFloat16', '', 'Scalar', 'Scalar']");
  a.strides = lit("[[128, 1], [1, 128], [], [], [1], [], [], []]");
  a.concrete = lit("['', '', '', '', '', '', '6', 'False']");
  const ModelResult r = run("aten::_scaled_mm", a);
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(r.find_param("bias")->b == false);
  CHECK(r.fwd.flops == Count::of(524288));
  CHECK(r.fwd.bytes == Count::of(16384));
  REQUIRE(r.fwd.flops_corrected);
  CHECK(*r.fwd.flops_corrected == Count::of(526336));
  REQUIRE(r.fwd.bytes_corrected);
  CHECK(*r.fwd.bytes_corrected == Count::of(20552));
}

TEST_CASE("GEMM corrected: aten::baddbmm counts its whole C tensor once", "[perf]") {
  // baddbmm(C (4, 16, 8) float, A (4, 16, 32) float, B (4, 32, 8) float): B = 4, M = 16, K = 32, N = 8.
  // TraceLens: bias bytes N·bpe inside the per-batch term: 4·(16·32 + 32·8 + 16·8 + 8)·4
  //   = 4·(512 + 256 + 128 + 8)·4 = 14464.
  // Corrected: 4·(512 + 256 + 128)·4 + 4·16·8·4 (C) = 14336 + 2048 = 16384.
  EventArgs a;
  a.dims = lit("[[4, 16, 8], [4, 16, 32], [4, 32, 8], [], []]");
  a.types = lit("['float', 'float', 'float', 'Scalar', 'Scalar']");
  a.strides = lit("[[128, 8, 1], [512, 32, 1], [256, 8, 1], [], []]");
  const ModelResult r = run("aten::baddbmm", a);
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(r.fwd.bytes == Count::of(14464));
  REQUIRE(r.fwd.bytes_corrected);
  CHECK(*r.fwd.bytes_corrected == Count::of(16384));
  CHECK_FALSE(r.fwd.flops_corrected);
}

TEST_CASE("SDPA: flash_attn::_flash_attn_backward is a backward model (causal by default)", "[perf]") {
  // _flash_attn_backward(dout, q, k, v, ...): q = k = v = (B 1, N 64, H 2, d 32) BNHD at slots
  // 1..3, bf16; dropout Concrete[8] = 0.0; causal Concrete[10] empty → True.
  // flops() = flops_bwd(): five terms of B·H·2·N·N·d = 1·2·2·64·64·32 = 524288 (recompute
  // QKᵀ, dV, dP, dQ, dK; no GQA term as H_Q = H_KV) = 2621440, causal / 2 = 1310720.0.
  // bytes() = 7 tensors · (1·64·2·32 = 4096) · name2bpe(type[0] = bf16) 2 = 57344.
  // Corrected causal: N(N+1)/2 = 2080 pairs instead of N²/2 = 2048: 5 · 1·2·2·2080·32 = 1331200.
  EventArgs a;
  a.dims = lit("[[1, 64, 2, 32], [1, 64, 2, 32], [1, 64, 2, 32], [1, 64, 2, 32], [1, 64, 2, 32], [1, 2, 64], "
               "[], [], [], [], [], [], []]");
  a.types = lit("['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'float', "
                "'', '', 'Scalar', 'Scalar', '', '', '']");
  a.strides = lit("[[4096, 64, 32, 1], [4096, 64, 32, 1], [4096, 64, 32, 1], [4096, 64, 32, 1], [], [], [], [], [], [], [], [], []]");
  a.concrete = lit("['', '', '', '', '', '', '', '', '0.0', '0.17', '', '', '']");
  const ModelResult r = run("flash_attn::_flash_attn_backward", a);
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) ==
        "B=1;N_Q=64;H_Q=2;N_KV=64;H_KV=2;d_h_qk=32;d_h_v=32;q_stride=(4096, 64, 32, 1);"
        "k_stride=(4096, 64, 32, 1);v_stride=(4096, 64, 32, 1);dropout=0.0;causal=True;flash_impl=True;"
        "dtype_A_B=('c10::BFloat16', 'c10::BFloat16');");
  REQUIRE(r.fwd.status == perf::Status::kOk);
  CHECK(r.fwd.flops == Count::real(1310720.0));
  CHECK(r.fwd.bytes == Count::of(57344));
  REQUIRE(r.fwd.flops_corrected);
  CHECK(*r.fwd.flops_corrected == Count::of(1331200));
  CHECK(r.bwd.status == perf::Status::kNotImplemented);
  CHECK(find_perf_model("flash_attn::_flash_attn_backward")->is_bwd_model);
}

TEST_CASE("SDPA: aiter::mha_fwd has no dtype_A_B, so no Compute Spec", "[perf]") {
  // q = k = v = (B 2, N 16, H 4, d 8) BNHD, bf16, dropout 0.0, causal False.
  // flops = B·H·2·N·N·d (QKᵀ) + B·H·2·N·d·N (PV) = 2 · (2·4·2·16·16·8) = 2 · 32768 = 65536.
  // bytes = 4 tensors · (2·16·4·8 = 1024) · 2 = 8192.
  EventArgs a;
  a.dims = lit("[[2, 16, 4, 8], [2, 16, 4, 8], [2, 16, 4, 8], [], [], []]");
  a.types = lit("['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'Scalar', 'Scalar', 'Scalar']");
  a.strides = lit("[[512, 32, 8, 1], [512, 32, 8, 1], [512, 32, 8, 1], [], [], []]");
  a.concrete = lit("['', '', '', '0.0', '0.35', 'False']");
  const ModelResult r = run("aiter::mha_fwd", a);
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) == "B=2;N_Q=16;H_Q=4;N_KV=16;H_KV=4;d_h_qk=8;d_h_v=8;dropout=0.0;causal=False;flash_impl=True;");
  CHECK(r.fwd.flops == Count::of(65536));
  CHECK(r.fwd.bytes == Count::of(8192));
  CHECK(compute_spec(r).empty());
  CHECK(r.bwd.status == perf::Status::kOk);  // its bwd rows come from a linked backward op
}

TEST_CASE("MoE_comm: MoEDispatch moves tokens, no FLOPs, no Compute Spec", "[perf]") {
  // tokens (1024, 4096) bf16: bytes = 1024·4096·2 = 8388608; backward moves the same.
  EventArgs a;
  a.dims = lit("[[1024, 4096], [1024, 8]]");
  a.types = lit("['c10::BFloat16', 'long int']");
  const ModelResult r = run("MoEDispatch", a);
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) == "num_tokens=1024;hidden_dim=4096;bpe=2;");
  CHECK(r.fwd.flops == Count::of(0));
  CHECK(r.fwd.bytes == Count::of(8388608));
  CHECK(r.bwd.bytes == Count::of(8388608));
  CHECK(compute_spec(r).empty());
}

TEST_CASE("SSM: DaoAILab causal_conv1d with a bias", "[perf]") {
  // x (2, 64, 128), w (64, 4), bias (64,), bf16.
  // flops = 2·2·64·128·4 = 131072; bytes = (2·2·64·128 + 64·4 + 64)·2 = (32768 + 256 + 64)·2 = 66176.
  EventArgs a;
  a.dims = lit("[[2, 64, 128], [64, 4], [64], [], []]");
  a.types = lit("['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', '', 'Scalar']");
  const ModelResult r = run("DaoAILab::_causal_conv1d_fwd_cpp", a);
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) == "batch=2;channels=64;seq_len=128;kernel_size=4;has_bias=True;");
  CHECK(r.fwd.flops == Count::of(131072));
  CHECK(r.fwd.bytes == Count::of(66176));
  CHECK(compute_spec(r) == "matrix_bf16");
}

TEST_CASE("SSM: MambaSplitConv1dScanCombinedFn derives d_state from the fused projection", "[perf]") {
  // zxbcdt (B 2, T 256, 1288), conv weight (768, 4), dt_bias (8,) → H = 8; chunk size C
  // default 128 (Concrete[6] empty), headdim P = 64, ngroups G = 1.
  // d_inner = H·P = 512; N = (1288 − 2·512 − 8) / (2·1) = 256 / 2 = 128.
  // flops = 2·2·768·256·4 (conv1d 3,145,728) + 2·2·1·256·128·128 (16,777,216)
  //       + 2·2·8·256·128·64 (67,108,864) + 4·2·8·256·128·64 (134,217,728) = 221,249,536.
  // bytes = (2·256·1288 + 768·4 + 768 + 2·256·512)·2 + 8·(4 + 4 + 4)
  //       = (659456 + 3072 + 768 + 262144)·2 + 96 = 1,850,976. Backward: the same.
  EventArgs a;
  a.dims = lit("[[2, 256, 1288], [768, 4], [768], [8], [8], [8], [], [], [], [], [], [], [], [], [], [], [], []]");
  a.types = lit("['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'float', 'float', 'float', 'Scalar', '', '', "
                "'', '', '', '', '', '', 'Scalar', 'Scalar', '']");
  a.concrete = lit("['', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '64', '1', '']");
  const ModelResult r = run("MambaSplitConv1dScanCombinedFn", a);
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) == "B=2;T=256;H=8;P=64;G=1;N=128;C=128;d_inner=512;d_conv=4;conv_channels=768;combined_dim=1288;");
  CHECK(r.fwd.flops == Count::of(221249536));
  CHECK(r.fwd.bytes == Count::of(1850976));
  CHECK(r.bwd.flops == Count::of(221249536));
  CHECK(compute_spec(r) == "matrix_bf16");
  // combined_dim 1289: 257 is odd, not divisible by 2·G → TraceLens's ValueError.
  a.dims = lit("[[2, 256, 1289], [768, 4], [768], [8], [8], [8], [], [], [], [], [], [], [], [], [], [], [], []]");
  CHECK(run("MambaSplitConv1dScanCombinedFn", a).status != perf::Status::kOk);
}

TEST_CASE("RoPE and CrossEntropy: one-tensor vector models", "[perf]") {
  // FusedRoPEFunc t (128, 2, 8, 64) bf16: n = 131072; flops = 3n = 393216; bytes = 2·n·2 = 524288.
  EventArgs rope;
  rope.dims = lit("[[128, 2, 8, 64], [128, 1, 1, 64], []]");
  rope.types = lit("['c10::BFloat16', 'float', 'Scalar']");
  const ModelResult r = run("FusedRoPEFunc", rope);
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) == "seq_len=128;batch=2;heads=8;head_dim=64;num_elements=131072;");
  CHECK(r.fwd.flops == Count::of(393216));
  CHECK(r.fwd.bytes == Count::of(524288));
  CHECK(compute_spec(r) == "vector_bf16");
  // CrossEntropyFunction logits (4, 1, 32000) float: flops = 5·4·32000 = 640000;
  // bytes = 4·1·32000·4 + 4·8 + 4·4 = 512000 + 32 + 16 = 512048.
  EventArgs ce;
  ce.dims = lit("[[4, 1, 32000], [4, 1]]");
  ce.types = lit("['float', 'long int']");
  const ModelResult c = run("CrossEntropyFunction", ce);
  REQUIRE(c.status == perf::Status::kOk);
  CHECK(params_repr(c) == "batch=4;vocab_size=32000;logits_shape=[4, 1, 32000];");
  CHECK(c.fwd.flops == Count::of(640000));
  CHECK(c.fwd.bytes == Count::of(512048));
  CHECK(compute_spec(c) == "vector_fp32");
}

TEST_CASE("SDPA: flash_attn varlen forward estimates from the longest sequence", "[perf]") {
  // q = k = v = (300 tokens, H 4, d 64) HND (B = 1), bf16; cu_seqlens (4,) → 3 sequences;
  // max_seqlen 128 for q and kv; dropout 0.0; causal False.
  // flops = model(128, 128) + (3 − 1)·model((300 − 128) // 2 = 86, 86) with
  //   model(n, n) = 2·(1·4·2·n·n·64): model(128) = 2·8388608 = 16777216,
  //   model(86) = 2·(8·86·86·64 = 3786752) = 7573504, total = 16777216 + 2·7573504 = 31924224.0.
  // bytes = 4 tensors · (300·4·64 = 76800) · 2 = 614400.
  EventArgs a;
  a.dims = lit("[[300, 4, 64], [300, 4, 64], [300, 4, 64], [4], [4], [], [], [], [], [], []]");
  a.types = lit("['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'int', 'int', 'Scalar', 'Scalar', 'Scalar', "
                "'Scalar', 'Scalar', '']");
  a.strides = lit("[[256, 64, 1], [256, 64, 1], [256, 64, 1], [1], [1], [], [], [], [], [], []]");
  a.concrete = lit("['', '', '', '', '', '128', '128', '0.0', '0.125', 'False', '']");
  const ModelResult r = run("flash_attn::_flash_attn_varlen_forward", a);
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) ==
        "B=1;N_Q=300;H_Q=4;N_KV=300;H_KV=4;d_h_qk=64;d_h_v=64;q_stride=(256, 64, 1);k_stride=(256, 64, 1);"
        "v_stride=(256, 64, 1);dropout=0.0;causal=False;flash_impl=True;dtype_A_B=('c10::BFloat16', 'c10::BFloat16');"
        "num_seqs_q=3;num_seqs_kv=3;max_seqlen_q=128.0;max_seqlen_kv=128.0;");
  REQUIRE(r.fwd.status == perf::Status::kOk);
  CHECK(r.fwd.flops == Count::real(31924224.0));
  CHECK(r.fwd.bytes == Count::of(614400));
  CHECK_FALSE(find_perf_model("flash_attn::_flash_attn_varlen_forward")->is_bwd_model);
  CHECK(find_perf_model("flash_attn::_flash_attn_varlen_backward")->is_bwd_model);
}

TEST_CASE("UnaryElementwise: primus_turbo FP8 and dual MXFP4 quantizers", "[perf]") {
  // quantize_fp8_tensorwise x (1024, 512) bf16: n = 524288; flops = n;
  // bytes = n·2 (read) + n·1 (FP8 write) = 1572864.
  EventArgs a;
  a.dims = lit("[[1024, 512], [], []]");
  a.types = lit("['c10::BFloat16', 'Scalar', '']");
  a.strides = lit("[[512, 1], [], []]");
  const ModelResult f = run("primus_turbo_cpp_extension::quantize_fp8_tensorwise", a);
  REQUIRE(f.status == perf::Status::kOk);
  CHECK(params_repr(f) ==
        "op_shape=(1024, 512);dtype_in_out=('c10::BFloat16', 'c10::Float8_e4m3fnuz');stride_input=(512, 1);stride_output=None;");
  CHECK(f.fwd.flops == Count::of(524288));
  CHECK(f.fwd.bytes == Count::of(1572864));
  CHECK(compute_spec(f) == "vector_bf16");
  // quantize_mxfp4_dual x (100, 64) bf16: M·N = 6400; bytes = 6400·2 (read) + 3200 + 3200
  // (rowwise and colwise FP4, ⌈6400/2⌉ each) + 100·⌈64/32⌉ = 200 + 64·⌈100/32⌉ = 256 (scales)
  // = 12800 + 6400 + 456 = 19656.
  a.dims = lit("[[100, 64], [], [], [], [], [], [], [], [], [], [], []]");
  const ModelResult x = run("primus_turbo::quantize_mxfp4_dual", a);
  REQUIRE(x.status == perf::Status::kOk);
  CHECK(x.fwd.flops == Count::of(6400));
  CHECK(x.fwd.bytes == Count::of(19656));
}

TEST_CASE("RMSNorm extensions: aiter and vLLM fused RMSNorm ops", "[perf]") {
  // Every op: n = prod(x), C = weight length; base = (n/C)·(2C + 2) + 2n (a float).
  // aiter::rms_norm x (32, 2880) bf16: n = 92160; base = 32·5762 + 184320 = 368704;
  // bytes = 2n·2 + C·2 = 368640 + 5760 = 374400.
  EventArgs a;
  a.dims = lit("[[32, 2880], [2880], [], []]");
  a.types = lit("['c10::BFloat16', 'c10::BFloat16', 'Scalar', 'Scalar']");
  a.strides = lit("[[2880, 1], [1], [], []]");
  a.concrete = lit("['', '', '1.0000000000000001e-05', '0']");
  const ModelResult r = run("aiter::rms_norm", a);
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) ==
        "op_shape=(32, 2880);dtype_in_out=('c10::BFloat16', None);stride_input=(2880, 1);stride_output=None;"
        "num_channels=2880;has_bias=False;is_affine=True;is_training=False;");
  CHECK(r.fwd.flops == Count::real(368704.0));
  CHECK(r.fwd.bytes == Count::of(374400));
  CHECK(compute_spec(r) == "vector_bf16");
  // rmsnorm2d_fwd_with_add_ck (out, input, residual_in, residual_out, weight, eps, flag),
  // input (32, 2880) strided (3072, 1): base + n = 460864; bytes = 4n·2 + C·2 = 743040.
  a.dims = lit("[[32, 2880], [32, 2880], [32, 2880], [32, 2880], [2880], [], []]");
  a.types = lit("['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'Scalar', 'Scalar']");
  a.strides = lit("[[2880, 1], [3072, 1], [2880, 1], [2880, 1], [1], [], []]");
  a.concrete = lit("['', '', '', '', '', '1e-05', '0']");
  const ModelResult add = run("aiter::rmsnorm2d_fwd_with_add_ck", a);
  REQUIRE(add.status == perf::Status::kOk);
  CHECK(repr(*add.find_param("stride_input")) == "(3072, 1)");
  CHECK(add.fwd.flops == Count::real(460864.0));
  CHECK(add.fwd.bytes == Count::of(743040));
  // rmsnorm2d_fwd_with_dynamicquant_ck (out fp8, input (4, 7168), yscale (4, 1), weight):
  // n = 28672, M = 4; base = 4·14338 + 57344 = 114696; flops = base + 2n = 172040;
  // bytes = n·2 + C·2 + n (fp8) + 4·M = 57344 + 14336 + 28672 + 16 = 100368.
  a.dims = lit("[[4, 7168], [4, 7168], [4, 1], [7168], [], []]");
  a.types = lit("['c10::Float8_e4m3fnuz', 'c10::BFloat16', 'float', 'c10::BFloat16', 'Scalar', 'Scalar']");
  a.strides = lit("[[7168, 1], [7168, 1], [1, 1], [1], [], []]");
  a.concrete = lit("['', '', '', '', '1e-06', '0']");
  const ModelResult dq = run("aiter::rmsnorm2d_fwd_with_dynamicquant_ck", a);
  REQUIRE(dq.status == perf::Status::kOk);
  CHECK(dq.fwd.flops == Count::real(172040.0));
  CHECK(dq.fwd.bytes == Count::of(100368));
  // vllm rmsnorm_with_add_fp8_group_quant (x (4, 1536), residual, weight, eps, group 128):
  // n = 6144, M = 4, 12 groups; base = 4·3074 + 12288 = 24584; flops = base + n + 2n = 43016;
  // bytes = 3n·2 + C·2 + n + M·12·4 = 36864 + 3072 + 6144 + 192 = 46272.
  a.dims = lit("[[4, 1536], [4, 1536], [1536], [], []]");
  a.types = lit("['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'Scalar', 'Scalar']");
  a.strides = lit("[[1536, 1], [1536, 1], [1], [], []]");
  a.concrete = lit("['', '', '', '1e-06', '128']");
  const ModelResult gq = run("vllm::rocm_aiter_rmsnorm_with_add_fp8_group_quant", a);
  REQUIRE(gq.status == perf::Status::kOk);
  CHECK(gq.fwd.flops == Count::real(43016.0));
  CHECK(gq.fwd.bytes == Count::of(46272));
  // rocm_aiter_triton_add_rmsnorm_pad (x (64, 2880), weight, eps, residual, pad 256):
  // n = 184320, M = 64, C_pad = 12·256 = 3072; base = 64·5762 + 368640 = 737408;
  // flops = base + n = 921728; bytes = 2n·2 + C·2 + M·C_pad·2 + M·C·2
  // = 737280 + 5760 + 393216 + 368640 = 1504896.
  a.dims = lit("[[64, 2880], [2880], [], [64, 2880], []]");
  a.types = lit("['c10::BFloat16', 'c10::BFloat16', 'Scalar', 'c10::BFloat16', 'Scalar']");
  a.strides = lit("[[2880, 1], [1], [], [2880, 1], []]");
  a.concrete = lit("['', '', '1e-05', '', '256']");
  const ModelResult pad = run("vllm::rocm_aiter_triton_add_rmsnorm_pad", a);
  REQUIRE(pad.status == perf::Status::kOk);
  CHECK(pad.fwd.flops == Count::real(921728.0));
  CHECK(pad.fwd.bytes == Count::of(1504896));
  // fused_rms_mxfp4_quant x1 (8, 256), no x2, res1 (8, 256): n = 2048, M = 8;
  // flops = base (8·514 + 4096 = 8208) + n (residual) + 2n (quant) = 14352;
  // bytes = n·2 + C·2 + 2n·2 (residual) + n/2 (fp4) + n//32 (scales) = 4096 + 512 + 8192 + 1024 + 64 = 13888.
  a.dims = lit("[[8, 256], [256], [], [], [], [], [8, 256], [], [], []]");
  a.types = lit("['c10::BFloat16', 'c10::BFloat16', 'Scalar', '', '', 'Scalar', 'c10::BFloat16', 'Scalar', 'Scalar', 'Scalar']");
  a.strides = lit("[[256, 1], [1], [], [], [], [], [256, 1], [], [], []]");
  a.concrete = lit("['', '', '1e-06', '', '', '0.0', '', 'False', 'False', 'False']");
  const ModelResult fp4 = run("sglang_profiler::fused_mxfp4_quant_fused_rms_mxfp4_quant", a);
  REQUIRE(fp4.status == perf::Status::kOk);
  CHECK(fp4.fwd.flops == Count::real(14352.0));
  CHECK(fp4.fwd.bytes == Count::real(13888.0));
  CHECK(perf_sheet_name(*find_perf_model("aiter::rmsnorm_quant"), false) == "RMSNorm_fwd");
}

TEST_CASE("UnaryElementwise: upsample_nearest and replication_pad record input and output shapes", "[perf]") {
  // upsample_nearest2d x (1, 512, 32, 32) bf16 to [64, 64]: out (1, 512, 64, 64), 2097152
  // elements = flops; bytes = (524288 + 2097152)·2 = 5242880.
  EventArgs a;
  a.dims = lit("[[1, 512, 32, 32], [], [], []]");
  a.types = lit("['c10::BFloat16', 'ScalarList', 'Scalar', 'Scalar']");
  a.strides = lit("[[512, 1, 16384, 512], [], [], []]");
  a.concrete = lit("['', '[64, 64]', '2.', '2.']");
  const ModelResult up = run("aten::upsample_nearest2d", a);
  REQUIRE(up.status == perf::Status::kOk);
  CHECK(params_repr(up) ==
        "op_shape=(1, 512, 64, 64);dtype_in_out=('c10::BFloat16', 'c10::BFloat16');stride_input=(512, 1, 16384, 512);"
        "stride_output=None;input_shape=(1, 512, 32, 32);output_shape=(1, 512, 64, 64);");
  CHECK(up.fwd.flops == Count::of(2097152));
  CHECK(up.fwd.bytes == Count::of(5242880));
  // replication_pad2d x (2, 3, 4, 5) float, pad [1, 1, 2, 0] (left, right, top, bottom):
  // W 5 + 2 = 7, H 4 + 2 = 6, out (2, 3, 6, 7) = 252 elements; bytes = (120 + 252)·4 = 1488.
  a.dims = lit("[[2, 3, 4, 5], []]");
  a.types = lit("['float', 'ScalarList']");
  a.strides = lit("[[60, 20, 5, 1], []]");
  a.concrete = lit("['', '[1, 1, 2, 0]']");
  const ModelResult pad = run("aten::replication_pad2d", a);
  REQUIRE(pad.status == perf::Status::kOk);
  CHECK(repr(*pad.find_param("output_shape")) == "(2, 3, 6, 7)");
  CHECK(pad.fwd.flops == Count::of(252));
  CHECK(pad.fwd.bytes == Count::of(1488));
  CHECK(compute_spec(pad) == "vector_fp32");
}

TEST_CASE("RoPE extensions: aiter two-channel cached RoPE, sgl_kernel rotary_embedding, fused MLA RoPE", "[perf]") {
  // rope_cached_positions_2c_fwd_impl: input_x (1, 4, 8, 64), input_y (1, 4, 2, 64) bf16:
  // n = 2048 + 512 = 2560; flops = 3n = 7680; bytes = 2·n·2 = 10240.
  EventArgs a;
  a.dims = lit("[[1, 4, 8, 64], [1, 4, 2, 64], [1, 4, 8, 64], [1, 4, 2, 64], [4096, 1, 1, 32], [4096, 1, 1, 32], [1, 4], [], [], []]");
  a.types = lit("['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'long int', 'Scalar', 'Scalar', 'Scalar']");
  const ModelResult c2 = run("aiter::rope_cached_positions_2c_fwd_impl", a);
  REQUIRE(c2.status == perf::Status::kOk);
  CHECK(params_repr(c2) == "x_shape=(1, 4, 8, 64);y_shape=(1, 4, 2, 64);num_elements=2560;");
  CHECK(c2.fwd.flops == Count::of(7680));
  CHECK(c2.fwd.bytes == Count::of(10240));
  CHECK(perf_sheet_name(*find_perf_model("aiter::rope_cached_positions_2c_fwd_impl"), false) == "RoPE_fwd");
  // sgl_kernel::rotary_embedding: query (32, 4096) = 32 heads of 128, key (32, 1024) = 8
  // heads, cos_sin_cache (40960, 64): rot_dim 64; n = 32·(32 + 8)·64 = 81920;
  // flops = 245760; bytes = 2·n·2 = 327680.
  a.dims = lit("[[32], [32, 4096], [32, 1024], [], [40960, 64], []]");
  a.types = lit("['long int', 'c10::BFloat16', 'c10::BFloat16', 'Scalar', 'c10::BFloat16', 'Scalar']");
  a.concrete = lit("['', '', '', '128', '', 'True']");
  const ModelResult sgl = run("sgl_kernel::rotary_embedding", a);
  REQUIRE(sgl.status == perf::Status::kOk);
  CHECK(params_repr(sgl) == "num_elements=81920;");
  CHECK(sgl.fwd.flops == Count::of(245760));
  CHECK(sgl.fwd.bytes == Count::of(327680));
  CHECK(compute_spec(sgl) == "vector_bf16");
  // fused_qk_rope_cat_and_cache_mla: q_nope (4, 16, 512), q_pe (4, 16, 64), k_nope (4, 1, 512),
  // k_pe (4, 1, 64), kv_cache fp8: flops = 3·(4·16·64 + 4·1·64) = 3·4352 = 13056;
  // bytes = (32768 + 4096)·2 + (2048 + 256)·2 + 4·16·576·2 (q_out) + 4·1·576·1 (fp8 kv)
  //       = 73728 + 4608 + 73728 + 2304 = 154368.
  a.dims = lit("[[4, 16, 512], [4, 16, 64], [4, 1, 512], [4, 1, 64], [1000, 1, 576], [4], [], []]");
  a.types = lit("['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'c10::Float8_e4m3fn', 'long int', 'Scalar', 'Scalar']");
  a.concrete = lit("['', '', '', '', '', '', '', '']");
  const ModelResult cat = run("aiter::fused_qk_rope_cat_and_cache_mla", a);
  REQUIRE(cat.status == perf::Status::kOk);
  CHECK(params_repr(cat) == "T=4;QH=16;KH=1;D_lora=512;D_pe=64;dtype_in='c10::BFloat16';dtype_kv='c10::Float8_e4m3fn';");
  CHECK(cat.fwd.flops == Count::of(13056));
  CHECK(cat.fwd.bytes == Count::of(154368));
  CHECK(perf_sheet_name(*find_perf_model("aiter::fused_qk_rope_cat_and_cache_mla"), false) == "FusedRoPE_fwd");
  // fused_qk_rope_concat_and_cache_mla: KH = 1 and q_out fp8 ([5]): the same reads
  // (73728 + 4608), q_out 4·16·576·1 = 36864, kv 2304: 117504.
  a.dims = lit("[[4, 16, 512], [4, 16, 64], [4, 512], [4, 64], [1000, 1, 576], [4, 16, 576], [4]]");
  a.types = lit("['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'c10::Float8_e4m3fn', 'c10::Float8_e4m3fn', 'long int']");
  const ModelResult concat = run("aiter::fused_qk_rope_concat_and_cache_mla", a);
  REQUIRE(concat.status == perf::Status::kOk);
  CHECK(repr(*concat.find_param("dtype_out")) == "'c10::Float8_e4m3fn'");
  CHECK(concat.fwd.flops == Count::of(13056));
  CHECK(concat.fwd.bytes == Count::of(117504));
}
