#include "analyses/perf/model_registry.h"

#include <unordered_map>

namespace sollens::perf {

namespace {

constexpr PerfModelEntry kEntries[] = {
    {"aten::mm", Model::kMm, "GEMM", "", false},
    {"aten::addmm", Model::kAddmm, "GEMM", "", false},
    {"aten::_scaled_mm", Model::kScaledMm, "GEMM", "", false},
    {"trtllm::cublas_scaled_mm", Model::kScaledMm, "GEMM", "", false},
    {"bitsandbytes::int8_linear_matmul", Model::kScaledMm, "GEMM", "", false},
    {"aten::bmm", Model::kBmm, "GEMM", "", false},
    {"aten::baddbmm", Model::kBaddbmm, "GEMM", "", false},
    {"FlashAttnFunc", Model::kFlashAttnForward, "SDPA", "SDPA_bwd", false},
    {"flash_attn::_flash_attn_forward", Model::kFlashAttnForward, "SDPA", "SDPA_bwd", false},
    {"aten::_scaled_dot_product_cudnn_attention", Model::kSdpaCudnn, "SDPA", "SDPA_bwd", false},
    {"aten::_scaled_dot_product_efficient_attention", Model::kSdpaEfficient, "SDPA", "SDPA_bwd", false},
    {"aten::_scaled_dot_product_flash_attention", Model::kSdpaFlash, "SDPA", "SDPA_bwd", false},
    {"aiter::_flash_attn_forward", Model::kAiterFlashAttnForward, "SDPA", "SDPA_bwd", false},
    {"aiter::wrapper_fmha_v3_fwd", Model::kAiterFmhaV3Forward, "SDPA", "SDPA_bwd", false},
    {"aiter::mha_fwd", Model::kAiterMhaForward, "SDPA", "SDPA_bwd", false},
    {"aiter::fmha_v3_fwd", Model::kAiterMhaForward, "SDPA", "SDPA_bwd", false},
    {"flash_attn_3::fwd", Model::kFlashAttn3Forward, "SDPA", "SDPA_bwd", false},
    {"flash_attn::_flash_attn_backward", Model::kFlashAttnBackward, "SDPA", "SDPA_bwd", true},
    {"flash_attn::_flash_attn_varlen_forward", Model::kFlashAttnVarlenForward, "SDPA", "SDPA_bwd", false},
    {"flash_attn::_flash_attn_varlen_backward", Model::kFlashAttnVarlenBackward, "SDPA", "SDPA_bwd", true},
    {"aiter::_flash_attn_backward", Model::kAiterFlashAttnBackward, "SDPA", "SDPA_bwd", true},
    {"aiter::wrapper_fmha_v3_bwd", Model::kAiterFmhaV3Backward, "SDPA", "SDPA_bwd", true},
    {"aiter::mha_bwd", Model::kAiterMhaBackward, "SDPA", "SDPA_bwd", true},
    {"aten::convolution", Model::kConv, "CONV", "CONV_bwd", false},
    {"aten::convolution_backward", Model::kConvBwd, "CONV", "CONV_bwd", true},
    {"aten::div", Model::kBinary, "BinaryElementwise", "", false},
    {"aten::div_", Model::kBinary, "BinaryElementwise", "", false},
    {"aten::mul", Model::kBinary, "BinaryElementwise", "", false},
    {"aten::mul_", Model::kBinary, "BinaryElementwise", "", false},
    {"aten::add", Model::kBinary, "BinaryElementwise", "", false},
    {"aten::add_", Model::kBinary, "BinaryElementwise", "", false},
    {"aten::sigmoid_backward", Model::kBinary, "BinaryElementwise", "", false},
    {"aten::threshold_backward", Model::kBinary, "BinaryElementwise", "", false},
    {"aten::copy", Model::kUnary, "UnaryElementwise", "", false},
    {"aten::copy_", Model::kUnary, "UnaryElementwise", "", false},
    {"aten::clamp_min", Model::kUnary, "UnaryElementwise", "", false},
    {"aten::clamp_min_", Model::kUnary, "UnaryElementwise", "", false},
    {"aten::clamp_max", Model::kUnary, "UnaryElementwise", "", false},
    {"aten::clamp_max_", Model::kUnary, "UnaryElementwise", "", false},
    {"aten::sigmoid", Model::kUnary, "UnaryElementwise", "", false},
    {"aten::rsqrt", Model::kUnary, "UnaryElementwise", "", false},
    {"aten::silu", Model::kUnary, "UnaryElementwise", "", false},
    {"aten::neg", Model::kUnary, "UnaryElementwise", "", false},
    {"aten::pow", Model::kUnary, "UnaryElementwise", "", false},
    {"primus_turbo_cpp_extension::quantize_fp8_tensorwise", Model::kQuantizeFp8, "UnaryElementwise", "", false},
    {"primus_turbo::quantize_fp8_tensorwise", Model::kQuantizeFp8, "UnaryElementwise", "", false},
    {"primus_turbo_cpp_extension::quantize_mxfp4_dual", Model::kQuantizeMxfp4Dual, "UnaryElementwise", "", false},
    {"primus_turbo::quantize_mxfp4_dual", Model::kQuantizeMxfp4Dual, "UnaryElementwise", "", false},
    {"primus::quantize_mxfp4_dual", Model::kQuantizeMxfp4Dual, "UnaryElementwise", "", false},
    {"aiter::_groupnorm_run", Model::kGroupNorm, "Normalization", "NORM_bwd", false},
    {"aten::group_norm", Model::kGroupNorm, "Normalization", "NORM_bwd", false},
    {"aten::native_group_norm", Model::kGroupNorm, "Normalization", "NORM_bwd", false},
    {"aten::miopen_group_norm", Model::kGroupNorm, "Normalization", "NORM_bwd", false},
    {"aten::cudnn_group_norm", Model::kGroupNorm, "Normalization", "NORM_bwd", false},
    {"aten::batch_norm", Model::kBatchNorm, "Normalization", "NORM_bwd", false},
    {"aten::native_batch_norm", Model::kBatchNorm, "Normalization", "NORM_bwd", false},
    {"aten::miopen_batch_norm", Model::kBatchNorm, "Normalization", "NORM_bwd", false},
    {"aten::cudnn_batch_norm", Model::kBatchNorm, "Normalization", "NORM_bwd", false},
    {"aten::layer_norm", Model::kLayerNorm, "Normalization", "NORM_bwd", false},
    {"aten::native_layer_norm", Model::kLayerNorm, "Normalization", "NORM_bwd", false},
    {"aten::miopen_layer_norm", Model::kLayerNorm, "Normalization", "NORM_bwd", false},
    {"aten::cudnn_layer_norm", Model::kLayerNorm, "Normalization", "NORM_bwd", false},
    {"aten::instance_norm", Model::kInstanceNorm, "Normalization", "NORM_bwd", false},
    {"aten::native_instance_norm", Model::kInstanceNorm, "Normalization", "NORM_bwd", false},
    {"aten::miopen_instance_norm", Model::kInstanceNorm, "Normalization", "NORM_bwd", false},
    {"aten::cudnn_instance_norm", Model::kInstanceNorm, "Normalization", "NORM_bwd", false},
    {"aten::_fused_rms_norm", Model::kRmsNorm, "Normalization", "NORM_bwd", false},
    {"aten::batch_norm_backward", Model::kBatchNormBwd, "Normalization", "NORM_bwd", false},
    {"aten::native_batch_norm_backward", Model::kBatchNormBwd, "Normalization", "NORM_bwd", false},
    {"aten::miopen_batch_norm_backward", Model::kBatchNormBwdCudnn, "Normalization", "NORM_bwd", false},
    {"aten::cudnn_batch_norm_backward", Model::kBatchNormBwdCudnn, "Normalization", "NORM_bwd", false},
    {"aten::layer_norm_backward", Model::kLayerNormBwd, "Normalization", "NORM_bwd", false},
    {"aten::native_layer_norm_backward", Model::kLayerNormBwd, "Normalization", "NORM_bwd", false},
    {"aten::miopen_layer_norm_backward", Model::kLayerNormBwd, "Normalization", "NORM_bwd", false},
    {"aten::cudnn_layer_norm_backward", Model::kLayerNormBwd, "Normalization", "NORM_bwd", false},
    {"aten::group_norm_backward", Model::kGroupNormBwd, "Normalization", "NORM_bwd", false},
    {"aten::native_group_norm_backward", Model::kGroupNormBwd, "Normalization", "NORM_bwd", false},
    {"aten::miopen_group_norm_backward", Model::kGroupNormBwd, "Normalization", "NORM_bwd", false},
    {"aten::cudnn_group_norm_backward", Model::kGroupNormBwd, "Normalization", "NORM_bwd", false},
    {"aten::instance_norm_backward", Model::kInstanceNormBwd, "Normalization", "NORM_bwd", false},
    {"aten::native_instance_norm_backward", Model::kInstanceNormBwd, "Normalization", "NORM_bwd", false},
    {"aten::miopen_instance_norm_backward", Model::kInstanceNormBwd, "Normalization", "NORM_bwd", false},
    {"aten::cudnn_instance_norm_backward", Model::kInstanceNormBwd, "Normalization", "NORM_bwd", false},
    {"aten::rms_norm_backward", Model::kRmsNormBwd, "Normalization", "NORM_bwd", false},
    {"aten::native_rms_norm_backward", Model::kRmsNormBwd, "Normalization", "NORM_bwd", false},
    {"aten::miopen_rms_norm_backward", Model::kRmsNormBwd, "Normalization", "NORM_bwd", false},
    {"aten::cudnn_rms_norm_backward", Model::kRmsNormBwd, "Normalization", "NORM_bwd", false},
    {"aten::_fused_rms_norm_backward", Model::kRmsNormBwd, "Normalization", "NORM_bwd", false},
    {"aten::sum", Model::kReduce, "Reduce", "Reduce_bwd", false},
    {"aten::mean", Model::kReduce, "Reduce", "Reduce_bwd", false},
    {"aten::max", Model::kReduce, "Reduce", "Reduce_bwd", false},
    {"aten::min", Model::kReduce, "Reduce", "Reduce_bwd", false},
    {"aten::norm", Model::kReduce, "Reduce", "Reduce_bwd", false},
    {"aten::linalg_norm", Model::kReduce, "Reduce", "Reduce_bwd", false},
    {"aten::std", Model::kReduce, "Reduce", "Reduce_bwd", false},
    {"aten::var", Model::kReduce, "Reduce", "Reduce_bwd", false},
    {"aten::logsumexp", Model::kReduce, "Reduce", "Reduce_bwd", false},
    {"aten::cumsum", Model::kReduce, "Reduce", "Reduce_bwd", false},
    {"aten::cumprod", Model::kReduce, "Reduce", "Reduce_bwd", false},
    {"aten::amin", Model::kReduce, "Reduce", "Reduce_bwd", false},
    {"aten::amax", Model::kReduce, "Reduce", "Reduce_bwd", false},
    {"MoEDispatch", Model::kMoeComm, "MoE_comm", "MoE_comm_bwd", false},
    {"MoECombine", Model::kMoeComm, "MoE_comm", "MoE_comm_bwd", false},
    {"DaoAILab::_causal_conv1d_fwd_cpp", Model::kCausalConv1d, "SSM", "", false},
    {"MambaSplitConv1dScanCombinedFn", Model::kMambaSsd, "SSM", "SSM_bwd", false},
    {"FusedRoPEFunc", Model::kFusedRope, "RoPE", "", false},
    {"CrossEntropyFunction", Model::kCrossEntropy, "CrossEntropy", "", false},
};

}  // namespace

const PerfModelEntry* find_perf_model(std::string_view op) {
  static const auto* map = [] {
    auto* m = new std::unordered_map<std::string_view, const PerfModelEntry*>();
    for (const auto& e : kEntries) m->emplace(e.op, &e);
    return m;
  }();
  auto it = map->find(op);
  return it == map->end() ? nullptr : it->second;
}

std::span<const PerfModelEntry> perf_model_entries() { return kEntries; }

bool is_single_table_family(std::string_view f) {
  return f == "GEMM" || f == "UnaryElementwise" || f == "BinaryElementwise" || f == "Normalization";
}

ModelResult evaluate(Model m, const ModelInput& in) {
  switch (m) {
    case Model::kMm: case Model::kAddmm: case Model::kScaledMm: case Model::kBmm: case Model::kBaddbmm:
      return eval_gemm(m, in);
    case Model::kSdpaFlash: case Model::kSdpaEfficient: case Model::kSdpaCudnn:
    case Model::kFlashAttnForward: case Model::kFlashAttnBackward:
    case Model::kAiterFlashAttnForward: case Model::kAiterFlashAttnBackward: case Model::kAiterFmhaV3Forward:
    case Model::kAiterFmhaV3Backward: case Model::kAiterMhaForward: case Model::kAiterMhaBackward:
    case Model::kFlashAttn3Forward: case Model::kFlashAttnVarlenForward: case Model::kFlashAttnVarlenBackward:
      return eval_sdpa(m, in);
    case Model::kConv: case Model::kConvBwd: return eval_conv(m, in);
    case Model::kUnary: return eval_unary(in);
    case Model::kBinary: return eval_binary(in);
    case Model::kReduce: return eval_reduce(in);
    case Model::kQuantizeFp8: case Model::kQuantizeMxfp4Dual: return eval_quantize(m, in);
    case Model::kMoeComm: return eval_moe_comm(in);
    case Model::kCausalConv1d: return eval_causal_conv1d(in);
    case Model::kMambaSsd: return eval_mamba_ssd(in);
    case Model::kFusedRope: return eval_fused_rope(in);
    case Model::kCrossEntropy: return eval_cross_entropy(in);
    default: return eval_norm(m, in);
  }
}

}  // namespace sollens::perf
