#pragma once
// Every implemented TraceLens perf model (tracelens-semantics.md §6), one file per
// family: gemm.cpp, sdpa.cpp, conv.cpp, elementwise.cpp, reduce.cpp, normalization.cpp,
// moe_comm.cpp, ssm.cpp, rope_cross_entropy.cpp.
#include "analyses/perf/perf_model.h"

namespace sollens::perf {

enum class Model : uint8_t {
  // GEMM (§6.2)
  kMm, kAddmm, kScaledMm, kBmm, kBaddbmm,
  // SDPA (§6.4)
  kSdpaFlash, kSdpaEfficient, kSdpaCudnn, kFlashAttnForward, kFlashAttnBackward,
  kAiterFlashAttnForward, kAiterFlashAttnBackward, kAiterFmhaV3Forward, kAiterFmhaV3Backward,
  kAiterMhaForward, kAiterMhaBackward, kFlashAttn3Forward, kFlashAttnVarlenForward, kFlashAttnVarlenBackward,
  // CONV (§6.3)
  kConv, kConvBwd,
  // Elementwise (§6.5)
  kUnary, kBinary,
  // Reduce (§6.6)
  kReduce,
  // Normalization (§6.7)
  kBatchNorm, kLayerNorm, kGroupNorm, kInstanceNorm, kRmsNorm,
  kBatchNormBwd, kBatchNormBwdCudnn, kLayerNormBwd, kGroupNormBwd, kInstanceNormBwd, kRmsNormBwd,
  // Other built-in models (§6.8)
  kMoeComm, kCausalConv1d, kMambaSsd, kFusedRope, kCrossEntropy,
  kQuantizeFp8, kQuantizeMxfp4Dual,
};

ModelResult eval_gemm(Model m, const ModelInput& in);
ModelResult eval_sdpa(Model m, const ModelInput& in);
ModelResult eval_conv(Model m, const ModelInput& in);
ModelResult eval_unary(const ModelInput& in);
ModelResult eval_binary(const ModelInput& in);
ModelResult eval_quantize(Model m, const ModelInput& in);
ModelResult eval_reduce(const ModelInput& in);
ModelResult eval_norm(Model m, const ModelInput& in);
ModelResult eval_moe_comm(const ModelInput& in);
ModelResult eval_causal_conv1d(const ModelInput& in);
ModelResult eval_mamba_ssd(const ModelInput& in);
ModelResult eval_fused_rope(const ModelInput& in);
ModelResult eval_cross_entropy(const ModelInput& in);

// Dispatch.
ModelResult evaluate(Model m, const ModelInput& in);

}  // namespace sollens::perf
