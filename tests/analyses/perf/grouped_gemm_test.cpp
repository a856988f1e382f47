// GroupedGEMM models on hand-computed cases (tracelens-semantics.md §6.8): fixed K,
// flops = 2·M·K·N and bytes = (M·K + G·K·N)·bpe_in + M·N·bpe_out; variable K, the sums
// over the groups of 2·M_i·K_i·N_i and (M_i·K_i + K_i·N_i)·bpe_in + M_i·N_i·bpe_out.
#include <catch2/catch.hpp>

#include "support/perf_model_cases.h"

using namespace sollens;
using namespace sollens::perf;
using namespace sollens::test;

namespace {

ModelResult run(const char* op, const char* dims, const char* types) {
  CHECK(registered(op).family == Family::kGroupedGemm);
  CHECK(registered(op).bwd_category == "GroupedGEMM_bwd");
  return evaluate_op(op, event_args(dims, types));
}

}  // namespace

TEST_CASE("GroupedGEMM: fixed K, compact and zipped layouts", "[perf]") {
  // X (256, 128), W (4, 128, 64) bf16: M = 256, K = 128, G = 4, N = 64.
  // flops = 2·256·128·64 = 4,194,304
  // bytes = (256·128 + 4·128·64)·2 + 256·64·2 = (32,768 + 32,768)·2 + 32,768 = 163,840
  const char* bf16 = "['c10::BFloat16', 'c10::BFloat16', 'long int']";
  const ModelResult r = run("primus_turbo::grouped_gemm_impl", "[[256, 128], [4, 128, 64], [4]]", bf16);
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) == "M=256;K=128;N=64;G=4;bpe_in=2;bpe_out=2;");
  CHECK(r.fwd.flops == Count::of(4194304));
  CHECK(r.fwd.bytes == Count::of(163840));
  CHECK(compute_spec(r) == "matrix_bf16");
  CHECK(r.bwd.status == perf::Status::kNotImplemented);  // the registered classes raise
  // W stored (G, N, K): N is the dim that is not K.
  const ModelResult t = run("primus_turbo_cpp_extension::ck_grouped_gemm", "[[256, 128], [4, 64, 128], [4]]", bf16);
  CHECK(params_repr(t) == params_repr(r));
  // Zipped: groups of 100 and 156 rows, both (128, 64) weights: M = 256, G = 2.
  // bytes = (256·128 + 2·128·64)·2 + 256·64·2 = (32,768 + 16,384)·2 + 32,768 = 131,072
  const ModelResult z =
      run("primus_turbo::grouped_gemm", "[[[100, 128], [156, 128]], [[128, 64], [128, 64]]]", bf16);
  CHECK(params_repr(z) == "M=256;K=128;N=64;G=2;bpe_in=2;bpe_out=2;");
  CHECK(z.fwd.flops == Count::of(4194304));
  CHECK(z.fwd.bytes == Count::of(131072));
  // Mixed N across groups is no fixed-K layout: ValueError.
  CHECK(run("primus_turbo::grouped_gemm", "[[[100, 128], [156, 128]], [[128, 64], [128, 32]]]", bf16).status ==
        perf::Status::kError);
}

TEST_CASE("GroupedGEMM: variable K sums the groups", "[perf]") {
  // Groups ((64, 32), (32, 16)) and ((64, 96), (96, 16)), float:
  // flops = 2·64·32·16 + 2·64·96·16 = 65,536 + 196,608 = 262,144
  // bytes = (64·32 + 32·16)·4 + 64·16·4 + (64·96 + 96·16)·4 + 64·16·4
  //       = 10,240 + 4,096 + 30,720 + 4,096 = 49,152
  const ModelResult r = run("primus_turbo::grouped_gemm_variable_k",
                            "[[[64, 32], [64, 96]], [[32, 16], [96, 16]]]", "['float', 'float']");
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) ==
        "M=128;K=32;N=16;G=2;bpe_in=4;bpe_out=4;group_pairs=[((64, 32), (32, 16)), ((64, 96), (96, 16))];");
  CHECK(r.fwd.flops == Count::of(262144));
  CHECK(r.fwd.bytes == Count::of(49152));
  CHECK(compute_spec(r) == "matrix_fp32");
  // Compact [[M, K], [M, N]]: one group ((64, 512), (512, 32)): flops = 2·64·512·32 = 2,097,152
  // bytes = (64·512 + 512·32)·2 + 64·32·2 = 98,304 + 4,096 = 102,400
  const ModelResult c = run("primus_turbo::grouped_gemm_variable_k_impl", "[[64, 512], [64, 32]]",
                            "['c10::BFloat16', 'c10::BFloat16']");
  CHECK(params_repr(c) == "M=64;K=512;N=32;G=1;bpe_in=2;bpe_out=2;group_pairs=[((64, 512), (512, 32))];");
  CHECK(c.fwd.flops == Count::of(2097152));
  CHECK(c.fwd.bytes == Count::of(102400));
}
