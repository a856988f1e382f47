#pragma once
// Every implemented TraceLens perf model (tracelens-semantics.md §6), declared in
// model_list.h; the evaluate functions live one file per family: gemm.cpp (and
// gemm_extensions.cpp), grouped_gemm.cpp, elementwise_extensions.cpp, group_quant.cpp,
// mhc.cpp, custom_collectives.cpp, moe.cpp, sdpa.cpp,
// conv.cpp, elementwise.cpp, reduce.cpp, normalization.cpp (and fused_ln_modulate.cpp), moe_comm.cpp, ssm.cpp,
// rope_cross_entropy.cpp, rmsnorm.cpp, triton_compiled.cpp, inference_attention.cpp.
#include "analyses/perf/model_list.h"
#include "analyses/perf/perf_model.h"

namespace sollens::perf {

// Generated from model_list.h, in its order.
enum class Family : uint8_t {
#define SOLLENS_FAMILY_ENUMERATOR(family, ...) family,
  SOLLENS_PERF_FAMILIES(SOLLENS_FAMILY_ENUMERATOR)
#undef SOLLENS_FAMILY_ENUMERATOR
};
enum class Model : uint8_t {
#define SOLLENS_MODEL_ENUMERATOR(model, ...) model,
  SOLLENS_PERF_MODELS(SOLLENS_MODEL_ENUMERATOR)
#undef SOLLENS_MODEL_ENUMERATOR
};

// The evaluate functions model_list.h names.
ModelResult eval_gemm(Model m, const ModelInput& in);
ModelResult eval_gemm_extension(Model m, const ModelInput& in);
ModelResult eval_grouped_gemm(Model m, const ModelInput& in);
ModelResult eval_liger_silu_mul(const ModelInput& in);
ModelResult eval_gated_activation(Model m, const ModelInput& in);
ModelResult eval_mixed_sample(const ModelInput& in);
ModelResult eval_evoformer_attention(const ModelInput& in);
ModelResult eval_group_quant(Model m, const ModelInput& in);
ModelResult eval_mhc(Model m, const ModelInput& in);
ModelResult eval_custom_collective(Model m, const ModelInput& in);
ModelResult eval_moe(Model m, const ModelInput& in);
ModelResult eval_sdpa(Model m, const ModelInput& in);
ModelResult eval_conv(Model m, const ModelInput& in);
ModelResult eval_conv_bias(Model m, const ModelInput& in);
ModelResult eval_unary(const ModelInput& in);
ModelResult eval_binary(const ModelInput& in);
ModelResult eval_quantize(Model m, const ModelInput& in);
ModelResult eval_resample(Model m, const ModelInput& in);
ModelResult eval_reduce(const ModelInput& in);
ModelResult eval_norm(Model m, const ModelInput& in);
ModelResult eval_fused_ln_modulate(Model m, const ModelInput& in);
ModelResult eval_moe_comm(const ModelInput& in);
ModelResult eval_causal_conv1d(const ModelInput& in);
ModelResult eval_mamba_ssd(const ModelInput& in);
ModelResult eval_fused_rope(const ModelInput& in);
ModelResult eval_cross_entropy(const ModelInput& in);
ModelResult eval_rmsnorm_ext(Model m, const ModelInput& in);
ModelResult eval_triton_compiled(const ModelInput& in);
ModelResult eval_rope_ext(Model m, const ModelInput& in);
ModelResult eval_fused_qk_rope_mla(Model m, const ModelInput& in);
ModelResult eval_inference_attention(Model m, const ModelInput& in);

// Models that read the op's kernel names beyond their family's (the Triton MoE pseudo
// ops take the weight dtype from theirs): their evaluations are keyed on them too.
inline bool reads_kernel_names(Model m) { return m == Model::kMoeTritonUnfusedUp || m == Model::kMoeTritonUnfusedDown; }

// Backward models whose params are their forward op's (matched by Sequence number),
// and that forward op's name.
inline std::string_view forward_op_of(Model m) {
  if (m == Model::kConvBiasBwd) return "ConvBias_";
  if (m == Model::kConvBiasReluBwd) return "ConvBiasReLU_";
  return {};
}

// Runs the model's evaluate function (model_registry.h).
ModelResult evaluate(Model m, const ModelInput& in);

}  // namespace sollens::perf
