// uplifter's getKernelSignature and normalizeKernelName reference vectors
// (seed-systems.md §a.4), plus the rules they exercise one at a time.
#include <catch2/catch.hpp>

#include "analyses/cycles/signature.h"

using namespace sollens;

TEST_CASE("kernel_signature: the reference vectors of §a.4") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"void at::native::kernel<float, 4, true>", "void at::native::kernel"},
      {"triton_poi_fused_relu_0", "triton_poi_fused_relu"},
      {"triton_red_fused_add_mean_12", "triton_red_fused_add_mean_12"},
      {"ck_tile::kentry_GROUP_K_128", "ck_tile::kentry"},
      {"aiter::fmoe_bf16_1tg_ps_32x256", "aiter::fmoe_bf16"},
      {"_matmul_ogs_NNT_bf16xbf16xbf16_128x256x64x1_vs", "_matmul_ogs_NNT_bf16xbf16xbf16_128x256x64x1"},
      {"Cijk_Ailk_Bljk_BBS_BH_MT128x128x64_MI16x16x1_SN_LDSB1_AFC1_AFEM1",
       "Cijk_Ailk_Bljk_BBS_BH_MT128x128x64_MI16x16x1_SN_LDSB1_AFC1_AFEM1"},
      {"wvSplitK_hf_sml_", "wvSplitK_hf_sml"},
      {"nccl", "nccl"},
      {"ab", "other_762"},
      {"my_kernel_GRID_4_BLOCK_SIZE_64", "my_kernel"},
      {"fused_moe_kernel_GROUP_SIZE_M_8_BLOCK_SIZE_N_64", "fused_moe_kernel"},
      {"kernel_vs_other_thing", "kernel"},
      {"gemm_kernel<float, 128>", "gemm_kernel"},
  };
  for (const auto& [in, want] : cases) {
    INFO(in);
    CHECK(kernel_signature(in) == want);
  }
}

TEST_CASE("normalize_kernel_name: the reference vectors of §a.4") {
  CHECK(normalize_kernel_name("triton_poi_fused_relu_0") == "triton_poi_fused_relu");
  CHECK(normalize_kernel_name("triton_red_fused_add_mean_12") == "triton_red_fused_add_mean");
  for (const char* same : {"void at::native::kernel<float, 4, true>", "ck_tile::kentry_GROUP_K_128",
                           "aiter::fmoe_bf16_1tg_ps_32x256", "wvSplitK_hf_sml_", "nccl", "ab",
                           "kernel_vs_other_thing", "gemm_kernel<float, 128>"})
    CHECK(normalize_kernel_name(same) == same);
}

TEST_CASE("kernel_signature: individual rules") {
  // '<' at index 0 is not a template: kept (then too short → hashed? no: 3+ chars).
  CHECK(kernel_signature("<lambda>") == "<lambda>");
  // Repeated single trailing digits all go; a two-digit one stays.
  CHECK(kernel_signature("fused_add_1_2_3") == "fused_add");
  CHECK(kernel_signature("fused_add_12_3") == "fused_add_12");
  // Only one "x" between digits is a tile shape.
  CHECK(kernel_signature("gemm_64x64") == "gemm");
  CHECK(kernel_signature("gemm_64x64x32") == "gemm_64x64x32");
  CHECK(kernel_signature("gemm_x64") == "gemm_x64");
  // A marker at index 0 does not cut.
  CHECK(kernel_signature("_GRID_kernel") == "_GRID_kernel");
  // Short results become other_<fnv % 1000>, from the original name.
  CHECK(kernel_signature("a_1") == "other_" + std::to_string(fnv1a64("a_1") % 1000));
  CHECK(fnv1a64("") == 0xcbf29ce484222325ull);
  CHECK(fnv1a64("a") == 0xaf63dc4c8601ec8cull);
}
