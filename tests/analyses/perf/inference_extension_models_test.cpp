// Elementwise extras, Evoformer attention, group quantization, mHC and topk_softplus on
// hand-computed cases (tracelens-semantics.md §6.4, §6.5, §7); every number is worked
// out in the comments.
#include <catch2/catch.hpp>

#include "support/perf_model_cases.h"

using namespace sollens;
using namespace sollens::perf;
using namespace sollens::test;

namespace {

ModelResult run(const char* op, Family family, const char* dims, const char* types, const char* strides = nullptr,
                const char* concrete = nullptr) {
  CHECK(registered(op).family == family);
  return evaluate_op(op, event_args(dims, types, strides, concrete));
}

}  // namespace

TEST_CASE("elementwise extras: LigerSiLUMulFunction is the binary model on its two inputs", "[perf]") {
  // a, b (4, 8) bf16; a third slot is not an output: flops = 32, bytes = 3·32·2 = 192.
  const ModelResult r = run("LigerSiLUMulFunction", Family::kBinaryElementwise, "[[4, 8], [4, 8], [4, 8]]",
                            "['c10::BFloat16', 'c10::BFloat16', 'float']", "[[8, 1], [8, 1], [8, 1]]");
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) ==
        "shape_in1=(4, 8);shape_in2=(4, 8);dtype_in1_in2_out=('c10::BFloat16', 'c10::BFloat16', None);"
        "stride_input1=(8, 1);stride_input2=(8, 1);stride_output=None;");
  CHECK(r.fwd.flops == Count::of(32));
  CHECK(r.fwd.bytes == Count::of(192));
}

TEST_CASE("elementwise extras: the gated activations read twice the output's elements", "[perf]") {
  // out (4, 9, 256) bf16, input (4, 9, 512) float: n = 9,216 output elements.
  // silu: flops = 5·9,216 = 46,080; bytes = 2·9,216·4 + 9,216·2 = 73,728 + 18,432 = 92,160
  const char* dims = "[[4, 9, 256], [4, 9, 512]]";
  const char* types = "['c10::BFloat16', 'float']";
  const char* strides = "[[2304, 256, 1], [4608, 512, 1]]";
  const ModelResult s = run("aiter::silu_and_mul", Family::kUnaryElementwise, dims, types, strides);
  REQUIRE(s.status == perf::Status::kOk);
  CHECK(params_repr(s) ==
        "op_shape=(4, 9, 256);dtype_in_out=('float', 'c10::BFloat16');stride_input=(4608, 512, 1);"
        "stride_output=(2304, 256, 1);");
  CHECK(s.fwd.flops == Count::of(46080));
  CHECK(s.fwd.bytes == Count::of(92160));
  CHECK(compute_spec(s) == "vector_fp32");
  CHECK(run("sgl_kernel::silu_and_mul", Family::kUnaryElementwise, dims, types, strides).fwd.flops == Count::of(46080));
  // gelu: 8·9,216 = 73,728; gelu_tanh: 10·9,216 = 92,160; the same bytes.
  const ModelResult g = run("aiter::gelu_and_mul", Family::kUnaryElementwise, dims, types, strides);
  CHECK(g.fwd.flops == Count::of(73728));
  CHECK(g.fwd.bytes == Count::of(92160));
  CHECK(run("aiter::gelu_tanh_and_mul", Family::kUnaryElementwise, dims, types, strides).fwd.flops == Count::of(92160));
}

TEST_CASE("elementwise extras: mixed_sample_outer_exponential on its own elementwise sheet", "[perf]") {
  // logits (8, 32000) bf16, noise float: flops = 2·8·32,000 = 512,000
  // bytes = 256,000·2 + 256,000·4 + 8·4 = 512,000 + 1,024,000 + 32 = 1,536,032
  const ModelResult r = run("aiter::mixed_sample_outer_exponential", Family::kElementwise,
                            "[[8], [8, 32000], [8, 32000]]", "['int', 'c10::BFloat16', 'float']");
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) == "T=8;V=32000;dtype_logits='c10::BFloat16';dtype_noise='float';");
  CHECK(r.fwd.flops == Count::of(512000));
  CHECK(r.fwd.bytes == Count::of(1536032));
  CHECK(compute_spec(r) == "vector_bf16");
  CHECK(perf_sheet_name(*find_perf_model("aiter::mixed_sample_outer_exponential"), false) == "elementwise_fwd");
}

TEST_CASE("Evoformer attention: B·N_seq batches of non-causal attention over N_res", "[perf]") {
  // q (1, 4, 64, 8, 32) bf16: B = 1·4 = 4, N = 64, H = 8, d = 32.
  // one GEMM = 2·B·H·N·N·d = 2·4·8·64·64·32 = 8,388,608; one tensor = B·N·H·d = 65,536
  // fwd: 2 GEMMs = 16,777,216 FLOPs, 4 tensors at 2 bytes = 524,288
  // bwd (no recompute, H_Q = H_KV): 4 GEMMs = 33,554,432, 7 tensors at 2 bytes = 917,504
  const ModelResult r = run("EvoformerAttention", Family::kSdpa,
                            "[[1, 4, 64, 8, 32], [1, 4, 64, 8, 32], [1, 4, 64, 8, 32], [1, 4, 1, 1, 64], [1, 1, 8, 64, 64]]",
                            "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16']");
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) ==
        "B=4;N_Q=64;H_Q=8;N_KV=64;H_KV=8;d_h_qk=32;d_h_v=32;causal=False;flash_impl=False;"
        "dtype_A_B=['c10::BFloat16'];");
  CHECK(r.fwd.flops == Count::of(16777216));
  CHECK(r.fwd.bytes == Count::of(524288));
  CHECK(r.bwd.flops == Count::of(33554432));
  CHECK(r.bwd.bytes == Count::of(917504));
  CHECK(compute_spec(r) == "matrix_bf16");
}

TEST_CASE("GroupQuant: per_group_quant and the vLLM Triton FP8 quant on the BinaryElementwise sheet", "[perf]") {
  // out (16, 512) fp8, input (16, 512) bf16, scales (16, 1) float.
  // flops = 8,192·2.59375 = 21,248.0; bytes = 8,192·1 + 8,192·2 + 16·4 = 24,640
  const ModelResult q = run("aiter::dynamic_per_token_scaled_quant", Family::kBinaryElementwise,
                            "[[16, 512], [16, 512], [16, 1], [], []]",
                            "['c10::Float8_e4m3fnuz', 'c10::BFloat16', 'float', '', 'Scalar']",
                            "[[512, 1], [512, 1], [1, 1], [], []]");
  REQUIRE(q.status == perf::Status::kOk);
  CHECK(params_repr(q) ==
        "shape_in1=(16, 512);shape_in2=(16, 1);shape_out=(16, 512);"
        "dtype_in1_in2_out=('c10::BFloat16', 'float', 'c10::Float8_e4m3fnuz');"
        "stride_input1=(512, 1);stride_input2=(1, 1);stride_output=(512, 1);");
  CHECK(q.fwd.flops == Count::real(21248.0));
  CHECK(q.fwd.bytes == Count::of(24640));
  CHECK(compute_spec(q) == "vector_bf16");
  // x (32, 4000) bf16, group_size 128: ⌈4000/128⌉ = 32 groups. flops = 6·32·4,000 = 768,000
  // bytes = 128,000·2 + 128,000 + 32·32·4 = 256,000 + 128,000 + 4,096 = 388,096
  const ModelResult t = run("vllm::triton_per_token_group_quant_fp8", Family::kBinaryElementwise, "[[32, 4000], []]",
                            "['c10::BFloat16', 'Scalar']", nullptr, "['', '128']");
  REQUIRE(t.status == perf::Status::kOk);
  CHECK(params_repr(t) == "M=32;N=4000;group_size=128;num_groups=32;shape_x=(32, 4000);dtype_x='c10::BFloat16';");
  CHECK(t.fwd.flops == Count::of(768000));
  CHECK(t.fwd.bytes == Count::of(388096));
}

TEST_CASE("GroupQuant: the MXFP4 quantizers on the GroupQuant sheet", "[perf]") {
  // x (16, 4, 64) bf16: n = 4,096; flops = 2·4,096 = 8,192
  // bytes = 4,096·2 + 4,096·0.5 + 4,096 // 32 = 8,192 + 2,048 + 128 = 10,368.0
  const ModelResult f = run("sglang_profiler::fused_mxfp4_quant_fused_flatten_mxfp4_quant", Family::kGroupQuant,
                            "[[16, 4, 64]]", "['c10::BFloat16']", "[[256, 64, 1]]");
  REQUIRE(f.status == perf::Status::kOk);
  CHECK(params_repr(f) ==
        "op_shape=(16, 4, 64);dtype_in_out=('c10::BFloat16', 'c10::BFloat16');stride_input=(256, 64, 1);"
        "stride_output=None;");
  CHECK(f.fwd.flops == Count::of(8192));
  CHECK(f.fwd.bytes == Count::real(10368.0));
  // dynamic_per_group_scaled_quant_fp4(out (16, 128), input (16, 256) bf16, scales): the input is slot 1.
  const ModelResult p = run("aiter::dynamic_per_group_scaled_quant_fp4", Family::kGroupQuant,
                            "[[16, 128], [16, 256], [16, 8]]", "['unsigned char', 'c10::BFloat16', 'c10::Float8_e8m0fnu']");
  CHECK(params_repr(p) ==
        "op_shape=(16, 256);dtype_in_out=('c10::BFloat16', 'c10::BFloat16');stride_input=None;stride_output=None;");
  CHECK(p.fwd.bytes == Count::real(10368.0));
  CHECK(perf_sheet_name(*find_perf_model("aiter::dynamic_per_group_scaled_quant_fp4"), false) == "GroupQuant_fwd");
}

TEST_CASE("mHC: post and pre-projection steps", "[perf]") {
  // mhc_post: M = 8 tokens, n = 4 streams, C = 64, bf16.
  // flops = 2·8·4·64·(4 + 1) = 20,480
  // bytes = x 8·64·2 + residual 8·4·64·2 + mixes 8·4·4 + 8·4·4·4 + out 8·4·64·2
  //       = 1,024 + 4,096 + 128 + 512 + 4,096 = 9,856
  const ModelResult p = run("aiter::mhc_post", Family::kMhc, "[[8, 4, 64], [8, 64], [8, 4, 64], [8, 4, 1], [8, 4, 4], []]",
                            "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'float', 'float', 'Scalar']");
  REQUIRE(p.status == perf::Status::kOk);
  CHECK(params_repr(p) == "M=8;n=4;C=64;hc3=None;dtype_in='c10::BFloat16';");
  CHECK(p.fwd.flops == Count::of(20480));
  CHECK(p.fwd.bytes == Count::of(9856));
  CHECK(compute_spec(p) == "vector_bf16");
  // mhc_pre_gemm_sqrsum: out (2, 8, 24), x (8, 4, 64), fn (24, 256): hc3 = 24, K = 256, split_k = 2.
  // flops = 2·8·24·256 = 98,304; bytes = 8·4·64·2 + 24·256·4 + 2·8·24·4 + 2·8·4
  //       = 4,096 + 24,576 + 1,536 + 64 = 30,272
  const ModelResult g = run("aiter::mhc_pre_gemm_sqrsum", Family::kMhc, "[[2, 8, 24], [2, 8], [8, 4, 64], [24, 256], [], []]",
                            "['float', 'float', 'c10::BFloat16', 'float', 'Scalar', 'Scalar']");
  REQUIRE(g.status == perf::Status::kOk);
  CHECK(params_repr(g) == "M=8;n=4;C=64;hc3=24;K=256;split_k=2;dtype_in='c10::BFloat16';");
  CHECK(g.fwd.flops == Count::of(98304));
  CHECK(g.fwd.bytes == Count::of(30272));
  CHECK(compute_spec(g) == "matrix_bf16");
}

TEST_CASE("MoE_aux: topk_softplus scores the gating logits", "[perf]") {
  // gating (16, 256) bf16, topk 8: flops = 6·16·256 = 24,576
  // bytes = 16·256·2 + 256·4 + 16·8·4·2 = 8,192 + 1,024 + 1,024 = 10,240
  const ModelResult r = run("aiter::topk_softplus", Family::kMoeAux, "[[16, 8], [16, 8], [16, 256], [256]]",
                            "['float', 'int', 'c10::BFloat16', 'float']");
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) == "M=16;n=1;C=256;E=256;topk=8;dtype_in='c10::BFloat16';");
  CHECK(r.fwd.flops == Count::of(24576));
  CHECK(r.fwd.bytes == Count::of(10240));
}

TEST_CASE("CustomCollective: HBM traffic of custom all-reduce, reduce-scatter and all-gather", "[perf]") {
  // fused_allreduce_rmsnorm(ptr, reg, inp (4, 7168), res_inp, res_out, out, w (7168), eps, …), bf16:
  // n = 28,672, C = 7,168. flops = n + (n // C)·(2·C + 2) + 2·n = 28,672 + 4·14,338 + 57,344 = 143,368
  // bytes = (4·n + C)·2 = (114,688 + 7,168)·2 = 243,712
  const char* fused_dims = "[[1], [], [4, 7168], [4, 7168], [4, 7168], [4, 7168], [7168], [], [], []]";
  const char* fused_types =
      "['long int', 'Scalar', 'c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', "
      "'c10::BFloat16', 'Scalar', 'Scalar', 'Scalar']";
  const char* fused_strides = "[[1], [], [7168, 1], [7168, 1], [7168, 1], [7168, 1], [1], [], [], []]";
  const ModelResult f =
      run("aiter::fused_allreduce_rmsnorm", Family::kCustomCollective, fused_dims, fused_types, fused_strides);
  REQUIRE(f.status == perf::Status::kOk);
  CHECK(params_repr(f) == "op_shape=(4, 7168);dtype_in='c10::BFloat16';stride_input=(7168, 1);num_channels=7168;");
  CHECK(f.fwd.flops == Count::of(143368));
  CHECK(f.fwd.bytes == Count::of(243712));
  CHECK(compute_spec(f) == "");  // no maf type
  // The Python wrapper: inp at slot 0, the weight at slot 2; the same counts.
  const ModelResult w = run("aiter::fused_allreduce_rmsnorm_", Family::kCustomCollective,
                            "[[4, 7168], [4, 7168], [7168], [], [], [], []]",
                            "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'Scalar', '', 'Scalar', 'Scalar']",
                            "[[7168, 1], [7168, 1], [1], [], [], [], []]");
  CHECK(w.fwd.flops == Count::of(143368));
  CHECK(w.fwd.bytes == Count::of(243712));
  // all_reduce(fa, inp (4, 7168), out, …): flops 0, bytes = 2·28,672·2 = 114,688
  const ModelResult a = run("_C_custom_ar::all_reduce", Family::kCustomCollective, "[[], [4, 7168], [4, 7168], [], []]",
                            "['Scalar', 'c10::BFloat16', 'c10::BFloat16', 'Scalar', 'Scalar']",
                            "[[], [7168, 1], [7168, 1], [], []]");
  CHECK(params_repr(a) == "op_shape=(4, 7168);dtype_in='c10::BFloat16';stride_input=(7168, 1);");
  CHECK(a.fwd.flops == Count::of(0));
  CHECK(a.fwd.bytes == Count::of(114688));
  // reduce_scatter(fa, inp (8, 7168), out (4, 7168)): bytes = (57,344 + 28,672)·2 = 172,032
  const ModelResult rs = run("aiter::reduce_scatter", Family::kCustomCollective, "[[], [8, 7168], [4, 7168]]",
                             "['Scalar', 'c10::BFloat16', 'c10::BFloat16']", "[[], [7168, 1], [7168, 1]]");
  CHECK(params_repr(rs) ==
        "op_shape=(8, 7168);out_shape=(4, 7168);dtype_in='c10::BFloat16';stride_input=(7168, 1);");
  CHECK(rs.fwd.bytes == Count::of(172032));
  // reg_all_gather_into_tensor(out (256, 16), inp (32, 16), fa): bytes = (512 + 4,096)·2 = 9,216
  const ModelResult ag = run("sglang::reg_all_gather_into_tensor", Family::kCustomCollective, "[[256, 16], [32, 16], []]",
                             "['c10::BFloat16', 'c10::BFloat16', 'Scalar']");
  CHECK(params_repr(ag) == "out_shape=(256, 16);op_shape=(32, 16);dtype_in='c10::BFloat16';");
  CHECK(ag.fwd.bytes == Count::of(9216));
}
