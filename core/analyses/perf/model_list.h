#pragma once
// Every perf model sollens implements and every sheet family, declared once. The Model
// and Family enums, the registry (op name → model → evaluate function), the sheet each
// row lands on and the sheets' order are all generated from these two lists, so a
// model cannot be half-registered. Adding a model: one SOLLENS_PERF_MODELS line here
// plus its evaluate function (declared in models.h, defined in the family's file).
//
// SOLLENS_PERF_FAMILIES(X): X(family, name, sheets, linked_bwd_rows, reads_kernel_names)
//   sheets: kOneSheet (the sheet is `name`) or kFwdBwdSheets (`name`_fwd, `name`_bwd);
//     kNoSheetPrefixOps: its models' ops are name prefixes (TraceLens's pattern-matched
//     models, which feed unified_perf_summary but no sheet).
//   linked_bwd_rows: a forward op with a 1:1-linked backward event also gets a bwd row
//     over that backward subtree (tracelens-semantics.md §4.7).
//   reads_kernel_names: the models read the op's kernel names (GEMM's transpose flags),
//     so evaluations are shared only between ops with the same kernel names.
//   The order is the perf-model sheets' order in the report.
//
// SOLLENS_PERF_MODELS(X): X(model, family, evaluate, bwd_category, is_bwd_model, ops...)
//   evaluate: ModelResult(Model, const ModelInput&) or ModelResult(const ModelInput&).
//   bwd_category: unified_perf_summary's op category of its sole-backward rows ("": none).
//   is_bwd_model: its own flops() are backward, so its rows go to the _bwd sheet.
//   ops: the op names (tracelens-semantics.md §7) evaluated with this model.

#define SOLLENS_PERF_FAMILIES(X)                                           \
  X(kGemm, "GEMM", kOneSheet, false, true)                                 \
  X(kSdpa, "SDPA", kFwdBwdSheets, true, false)                             \
  X(kConv, "CONV", kFwdBwdSheets, false, false) /* bwd: convolution_backward */ \
  X(kUnaryElementwise, "UnaryElementwise", kOneSheet, false, false)        \
  X(kBinaryElementwise, "BinaryElementwise", kOneSheet, false, false)      \
  X(kNormalization, "Normalization", kOneSheet, false, false)              \
  X(kReduce, "Reduce", kFwdBwdSheets, true, false)                         \
  /* InferenceAttention: TraceLens's first sheet after CONV; here after Reduce */ \
  X(kInferenceAttention, "InferenceAttention", kFwdBwdSheets, true, false) \
  /* GroupedGEMM: TraceLens's sheet order puts it before MoE_comm */         \
  X(kGroupedGemm, "GroupedGEMM", kFwdBwdSheets, true, false)               \
  X(kMoeComm, "MoE_comm", kFwdBwdSheets, true, false)                      \
  X(kSsm, "SSM", kFwdBwdSheets, true, false)                               \
  X(kRope, "RoPE", kFwdBwdSheets, true, false)                             \
  X(kCrossEntropy, "CrossEntropy", kFwdBwdSheets, true, false)            \
  /* Inference extensions, in TraceLens's order: MoE_fused, MoE_unfused, MoE_aux, RMSNorm, */ \
  /* elementwise, GroupQuant, FusedRoPE, CustomCollective, mHC */            \
  X(kMoeFused, "MoE_fused", kFwdBwdSheets, true, false)                    \
  X(kMoeUnfused, "MoE_unfused", kFwdBwdSheets, true, false)                \
  X(kMoeAux, "MoE_aux", kFwdBwdSheets, true, false)                        \
  X(kRmsNormExt, "RMSNorm", kFwdBwdSheets, true, false)                    \
  X(kElementwise, "elementwise", kFwdBwdSheets, true, false)               \
  X(kGroupQuant, "GroupQuant", kFwdBwdSheets, true, false)                 \
  X(kFusedRopeExt, "FusedRoPE", kFwdBwdSheets, true, false)                \
  X(kCustomCollective, "CustomCollective", kFwdBwdSheets, true, false)     \
  X(kMhc, "mHC", kFwdBwdSheets, true, false)                               \
  /* torch.compile Triton ops: matched by name prefix, on no sheet */        \
  X(kTritonCompiled, "triton", kNoSheetPrefixOps, false, false)

#define SOLLENS_PERF_MODELS(X)                                                                          \
  /* GEMM (§6.2) */                                                                                     \
  X(kMm, kGemm, eval_gemm, "", false, "aten::mm")                                                       \
  X(kAddmm, kGemm, eval_gemm, "", false, "aten::addmm")                                                 \
  X(kScaledMm, kGemm, eval_gemm, "", false, "aten::_scaled_mm", "trtllm::cublas_scaled_mm",             \
    "bitsandbytes::int8_linear_matmul")                                                                 \
  X(kBmm, kGemm, eval_gemm, "", false, "aten::bmm")                                                     \
  X(kBaddbmm, kGemm, eval_gemm, "", false, "aten::baddbmm")                                             \
  /* GEMM extension ops (§6.2, §7), their own rows on the GEMM sheet */                   \
  X(kTeGemmTs, kGemm, eval_gemm_extension, "", false, "tex_ts::te_gemm_ts")                             \
  X(kVllmGemmWithDynamicQuant, kGemm, eval_gemm_extension, "", false, "vllm::gemm_with_dynamic_quant")  \
  X(kTev2PseudoGemm, kGemm, eval_gemm_extension, "", false, "_Linear_yfwd_mm", "_LinearBackward_xgrad_mm", \
    "_LinearBackward_wgrad_mm", "_LayerNormLinear_yfwd_mm", "_LayerNormLinearBackward_xgrad_mm",       \
    "_LayerNormLinearBackward_wgrad_mm")                                                                \
  X(kHipblasltGemmFp8, kGemm, eval_gemm_extension, "", false, "primus_turbo_cpp_extension::hipblaslt_gemm_fp8", \
    "primus_turbo::hipblaslt_gemm_fp8")                                                                 \
  X(kHipblasltGemmFp4, kGemm, eval_gemm_extension, "", false, "primus_turbo_cpp_extension::hipblaslt_gemm_fp4", \
    "primus_turbo::hipblaslt_gemm_fp4")                                                                 \
  X(kAiterGemmA4w4, kGemm, eval_gemm_extension, "", false, "aiter::gemm_a4w4", "aiter::_gemm_a4w4_asm") \
  X(kBatchedGemmA16wfp4, kGemm, eval_gemm_extension, "", false, "aiter::batched_gemm_a16wfp4_")         \
  X(kGemmA8w8Blockscale, kGemm, eval_gemm_extension, "", false, "sglang_profiler::fp8_utils_gemm_a8w8_blockscale", \
    "sglang_profiler::gemm_a8w8_blockscale_gemm_a8w8_blockscale", "vllm::rocm_aiter_triton_gemm_a8w8_blockscale", \
    "aiter::gemm_a8w8_blockscale_ck", "aiter::gemm_a8w8_blockscale_cktile",                             \
    "aiter::gemm_a8w8_blockscale_bpreshuffle_ck", "aiter::gemm_a8w8_blockscale_bpreshuffle_cktile",     \
    "aiter::flatmm_a8w8_blockscale_asm", "aiter::gfx950_a8w8_blockscale_asm", "aiter::gemm_a8w8_ck",    \
    "aiter::gemm_a8w8_bpreshuffle_ck", "aiter::gemm_a8w8_bpreshuffle",                                  \
    "vllm::_rocm_aiter_preshuffled_per_token_w8a8_gemm", "aiter::_gemm_a8w8_blockscale_bpreshuffle_asm") \
  X(kVllmRocmUnquantizedGemm, kGemm, eval_gemm_extension, "", false, "vllm::rocm_unquantized_gemm")     \
  X(kGemmA16w16, kGemm, eval_gemm_extension, "", false, "aiter::gemm_a16w16")                           \
  X(kGemmA16w16Atomic, kGemm, eval_gemm_extension, "", false, "aiter::gemm_a16w16_atomic_",             \
    "sglang_profiler::gemm_kernels_flydsl_hgemm")                                                       \
  X(kGemmA16w16Asm, kGemm, eval_gemm_extension, "", false, "aiter::_gemm_a16w16_asm")                   \
  X(kGemmAfp4wfp4, kGemm, eval_gemm_extension, "", false, "aiter::gemm_afp4wfp4_")                      \
  X(kBatchedGemmA8w8, kGemm, eval_gemm_extension, "", false,                                            \
    "sglang_profiler::batched_gemm_a8w8_a_per_token_group_prequant_w_per_batched_tensor_quant_batched_gemm_a8w8_a_per_token_group_prequant_w_per_batched_tensor_quant") \
  /* GroupedGEMM (§6.8) */                                                                 \
  X(kPrimusGroupedGemm, kGroupedGemm, eval_grouped_gemm, "GroupedGEMM_bwd", false, "primus_turbo::grouped_gemm", \
    "primus_turbo::grouped_gemm_impl", "primus_turbo_cpp_extension::grouped_gemm",                      \
    "primus_turbo_cpp_extension::ck_grouped_gemm")                                                      \
  X(kPrimusGroupedGemmVariableK, kGroupedGemm, eval_grouped_gemm, "GroupedGEMM_bwd", false,             \
    "primus_turbo::grouped_gemm_variable_k", "primus_turbo::grouped_gemm_variable_k_impl",              \
    "primus_turbo_cpp_extension::grouped_gemm_variable_k",                                              \
    "primus_turbo_cpp_extension::ck_grouped_gemm_variable_k")                                           \
  /* elementwise extras, Evoformer attention, group quantization, mHC, MoE_aux */        \
  X(kLigerSiluMul, kBinaryElementwise, eval_liger_silu_mul, "", false, "LigerSiLUMulFunction")          \
  X(kAiterSiluAndMul, kUnaryElementwise, eval_gated_activation, "", false, "aiter::silu_and_mul",       \
    "_C::silu_and_mul")                                                                                 \
  X(kSglKernelSiluAndMul, kUnaryElementwise, eval_gated_activation, "", false, "sgl_kernel::silu_and_mul") \
  X(kGeluAndMul, kUnaryElementwise, eval_gated_activation, "", false, "aiter::gelu_and_mul")            \
  X(kGeluTanhAndMul, kUnaryElementwise, eval_gated_activation, "", false, "aiter::gelu_tanh_and_mul")   \
  X(kMixedSampleOuterExponential, kElementwise, eval_mixed_sample, "", false,                           \
    "aiter::mixed_sample_outer_exponential")                                                            \
  X(kEvoformerAttention, kSdpa, eval_evoformer_attention, "SDPA_bwd", false, "EvoformerAttention")      \
  X(kPerGroupQuant, kBinaryElementwise, eval_group_quant, "", false, "aiter::dynamic_per_token_scaled_quant", \
    "aiter::dynamic_per_group_scaled_quant", "aiter::dynamic_per_tensor_quant")                         \
  X(kVllmTritonPerTokenGroupQuantFp8, kBinaryElementwise, eval_group_quant, "", false,                  \
    "vllm::triton_per_token_group_quant_fp8")                                                           \
  X(kFusedDynamicMxQuantMoeSortHip, kGroupQuant, eval_group_quant, "", false,                           \
    "aiter::fused_dynamic_mx_quant_moe_sort_hip")                                                       \
  X(kFusedFlattenMxfp4Quant, kGroupQuant, eval_group_quant, "", false,                                  \
    "sglang_profiler::fused_mxfp4_quant_fused_flatten_mxfp4_quant")                                     \
  X(kSglangQuantDynamicMxfp4Quant, kGroupQuant, eval_group_quant, "", false,                            \
    "sglang_profiler::quant_dynamic_mxfp4_quant")                                                       \
  X(kAiterFusedDynamicMxfp4QuantMoeSortHip, kGroupQuant, eval_group_quant, "", false,                   \
    "aiter::fused_dynamic_mxfp4_quant_moe_sort_hip")                                                    \
  X(kAiterDynamicPerGroupScaledQuantFp4, kGroupQuant, eval_group_quant, "", false,                      \
    "aiter::dynamic_per_group_scaled_quant_fp4")                                                        \
  X(kAiterFusedAllreduceRmsnorm, kCustomCollective, eval_custom_collective, "", false,                   \
    "aiter::fused_allreduce_rmsnorm")                                                                   \
  X(kAiterFusedAllreduceRmsnormWrapper, kCustomCollective, eval_custom_collective, "", false,            \
    "aiter::fused_allreduce_rmsnorm_")                                                                  \
  X(kCustomArAllReduce, kCustomCollective, eval_custom_collective, "", false, "_C_custom_ar::all_reduce") \
  X(kAiterReduceScatter, kCustomCollective, eval_custom_collective, "", false, "aiter::reduce_scatter")  \
  X(kAiterAllGatherReg, kCustomCollective, eval_custom_collective, "", false, "aiter::all_gather_reg")   \
  X(kSglKernelAllReduceReg, kCustomCollective, eval_custom_collective, "", false, "sgl_kernel::all_reduce_reg") \
  X(kSglKernelQrAllReduce, kCustomCollective, eval_custom_collective, "", false, "sgl_kernel::qr_all_reduce") \
  X(kSglKernelRegAllGatherIntoTensor, kCustomCollective, eval_custom_collective, "", false,              \
    "sglang::reg_all_gather_into_tensor")                                                               \
  X(kCustomArQrAllReduce, kCustomCollective, eval_custom_collective, "", false, "_C_custom_ar::qr_all_reduce") \
  X(kMhcPost, kMhc, eval_mhc, "", false, "aiter::mhc_post")                                             \
  X(kMhcPreGemmSqrsum, kMhc, eval_mhc, "", false, "aiter::mhc_pre_gemm_sqrsum")                         \
  X(kMhcPreBigFuseRmsnorm, kMhc, eval_mhc, "", false, "aiter::mhc_pre_big_fuse_rmsnorm")                \
  X(kMhcFusedPostPreGemmSqrsum, kMhc, eval_mhc, "", false, "aiter::mhc_fused_post_pre_gemm_sqrsum")     \
  X(kMoeAiterFusedBlockscale, kMoeFused, eval_moe, "", false, "aiter::fmoe_fp8_blockscale_g1u1",        \
    "aiter::fmoe_g1u1")                                                                                 \
  X(kMoeAiterUnfusedUp, kMoeUnfused, eval_moe, "", false, "aiter::moe_cktile2stages_gemm1_ck")          \
  X(kMoeAiterUnfusedDown, kMoeUnfused, eval_moe, "", false, "aiter::moe_cktile2stages_gemm2_ck")        \
  X(kMoeAiterCkStage1, kMoeUnfused, eval_moe, "", false, "aiter::ck_moe_stage1")                        \
  X(kMoeAiterCkStage2, kMoeUnfused, eval_moe, "", false, "aiter::ck_moe_stage2")                        \
  X(kMoeTritonInvokeGroupedGemm, kMoeUnfused, eval_moe, "", false,                                      \
    "sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel")                                \
  X(kBiasedGroupedTopk, kMoeAux, eval_moe, "", false, "aiter::biased_grouped_topk_hip")                 \
  X(kMoeSortScatterGather, kMoeAux, eval_moe, "", false, "aiter::moe_sorting_fwd", "aiter::mxfp4_moe_sort_hip") \
  X(kSglangFusedAppendSharedExperts, kMoeAux, eval_moe, "", false,                                      \
    "sglang_profiler::fused_moe_triton_kernels_fused_append_shared_experts")                            \
  X(kTopkSoftplus, kMoeAux, eval_mhc, "", false, "aiter::topk_softplus")                                \
  /* MoE pseudo ops (TraceLens's --enable_pseudo_ops pass creates them; modeled where present) */       \
  X(kMoeAiterFused1Stage, kMoeFused, eval_moe, "", false, "pseudo_op::moe_aiter_fused_1stage")          \
  X(kMoeTritonUnfusedUp, kMoeUnfused, eval_moe, "", false, "pseudo_op::moe_triton_unfused_up")          \
  X(kMoeTritonUnfusedDown, kMoeUnfused, eval_moe, "", false, "pseudo_op::moe_triton_unfused_down")      \
  X(kMoeGptqAwqUp, kMoeUnfused, eval_moe, "", false, "pseudo_op::moe_gptq_awq_up")                      \
  X(kMoeGptqAwqDown, kMoeUnfused, eval_moe, "", false, "pseudo_op::moe_gptq_awq_down")                  \
  X(kMoeFlydslStage1, kMoeUnfused, eval_moe, "", false, "pseudo_op::moe_flydsl_stage1")                 \
  X(kMoeFlydslStage2, kMoeUnfused, eval_moe, "", false, "pseudo_op::moe_flydsl_stage2")                 \
  /* InferenceAttention (inference_attention.cpp): vLLM / aiter / SGLang attention */                   \
  X(kVllmUnifiedAttention, kInferenceAttention, eval_inference_attention, "", false,                    \
    "vllm::unified_attention_with_output")                                                              \
  X(kMhaVarlenFwd, kInferenceAttention, eval_inference_attention, "", false, "aiter::mha_varlen_fwd")   \
  X(kAiterFmhaV3VarlenFwd, kInferenceAttention, eval_inference_attention, "", false,                    \
    "aiter::fmha_v3_varlen_fwd")                                                                        \
  X(kAiterMhaBatchPrefill, kInferenceAttention, eval_inference_attention, "", false,                    \
    "aiter::mha_batch_prefill")                                                                         \
  X(kAiterPagedAttentionRagged, kInferenceAttention, eval_inference_attention, "", false,               \
    "sglang_profiler::attention_paged_attention_ragged")                                                \
  X(kMlaDecodeFwd, kInferenceAttention, eval_inference_attention, "", false, "pseudo_mla_decode_fwd")   \
  X(kPseudoMlaPrefillFwd, kInferenceAttention, eval_inference_attention, "", false,                     \
    "pseudo_mla_prefill_fwd")                                                                           \
  X(kPaDecodeGluon, kInferenceAttention, eval_inference_attention, "", false, "aiter::pa_decode_gluon") \
  X(kV4PagedDecodeSwa, kInferenceAttention, eval_inference_attention, "", false,                        \
    "pseudo_v4_paged_decode_swa")                                                                       \
  X(kV4PagedDecodeCsa, kInferenceAttention, eval_inference_attention, "", false,                        \
    "pseudo_v4_paged_decode_csa")                                                                       \
  X(kV4PagedDecodeHca, kInferenceAttention, eval_inference_attention, "", false,                        \
    "pseudo_v4_paged_decode_hca")                                                                       \
  X(kPaSparsePrefillOpusFwd, kInferenceAttention, eval_inference_attention, "", false,                  \
    "aiter::pa_sparse_prefill_opus_fwd")                                                                \
  X(kMlaTilelangSparseFwd, kInferenceAttention, eval_inference_attention, "", false,                    \
    "sglang_profiler::tilelang_kernel_tilelang_sparse_fwd")                                             \
  X(kGdnAttentionCore, kInferenceAttention, eval_inference_attention, "", false,                        \
    "vllm::gdn_attention_core", "aiter::linear_attention_with_output_base")                             \
  X(kSglangStoreCache, kInferenceAttention, eval_inference_attention, "", false, "sglang::store_cache") \
  /* SDPA (§6.4) */                                                                                     \
  X(kSdpaFlash, kSdpa, eval_sdpa, "SDPA_bwd", false, "aten::_scaled_dot_product_flash_attention")       \
  X(kSdpaEfficient, kSdpa, eval_sdpa, "SDPA_bwd", false, "aten::_scaled_dot_product_efficient_attention") \
  X(kSdpaCudnn, kSdpa, eval_sdpa, "SDPA_bwd", false, "aten::_scaled_dot_product_cudnn_attention")       \
  X(kFlashAttnForward, kSdpa, eval_sdpa, "SDPA_bwd", false, "FlashAttnFunc",                            \
    "flash_attn::_flash_attn_forward")                                                                  \
  X(kFlashAttnBackward, kSdpa, eval_sdpa, "SDPA_bwd", true, "flash_attn::_flash_attn_backward")         \
  X(kAiterFlashAttnForward, kSdpa, eval_sdpa, "SDPA_bwd", false, "aiter::_flash_attn_forward")          \
  X(kAiterFlashAttnBackward, kSdpa, eval_sdpa, "SDPA_bwd", true, "aiter::_flash_attn_backward")         \
  X(kAiterFmhaV3Forward, kSdpa, eval_sdpa, "SDPA_bwd", false, "aiter::wrapper_fmha_v3_fwd")             \
  X(kAiterFmhaV3Backward, kSdpa, eval_sdpa, "SDPA_bwd", true, "aiter::wrapper_fmha_v3_bwd")             \
  X(kAiterMhaForward, kSdpa, eval_sdpa, "SDPA_bwd", false, "aiter::mha_fwd", "aiter::fmha_v3_fwd")      \
  X(kAiterMhaBackward, kSdpa, eval_sdpa, "SDPA_bwd", true, "aiter::mha_bwd")                            \
  X(kFlashAttn3Forward, kSdpa, eval_sdpa, "SDPA_bwd", false, "flash_attn_3::fwd")                       \
  X(kFlashAttnVarlenForward, kSdpa, eval_sdpa, "SDPA_bwd", false, "flash_attn::_flash_attn_varlen_forward") \
  X(kFlashAttnVarlenBackward, kSdpa, eval_sdpa, "SDPA_bwd", true, "flash_attn::_flash_attn_varlen_backward") \
  /* CONV (§6.3) */                                                                                     \
  X(kConv, kConv, eval_conv, "CONV_bwd", false, "aten::convolution")                                    \
  X(kConvBwd, kConv, eval_conv, "CONV_bwd", true, "aten::convolution_backward")                         \
  X(kConvBias, kConv, eval_conv_bias, "CONV_bwd", false, "ConvBias_")                                  \
  X(kConvBiasRelu, kConv, eval_conv_bias, "CONV_bwd", false, "ConvBiasReLU_")                           \
  X(kConvBiasBwd, kConv, eval_conv_bias, "CONV_bwd", true, "ConvBias_Backward")                         \
  X(kConvBiasReluBwd, kConv, eval_conv_bias, "CONV_bwd", true, "ConvBiasReLU_Backward")                 \
  /* Elementwise (§6.5) */                                                                              \
  X(kUnary, kUnaryElementwise, eval_unary, "", false, "aten::copy", "aten::copy_", "aten::clamp_min",   \
    "aten::clamp_min_", "aten::clamp_max", "aten::clamp_max_", "aten::sigmoid", "aten::rsqrt",          \
    "aten::silu", "aten::neg", "aten::pow")                                                             \
  X(kBinary, kBinaryElementwise, eval_binary, "", false, "aten::div", "aten::div_", "aten::mul",        \
    "aten::mul_", "aten::add", "aten::add_", "aten::sigmoid_backward", "aten::threshold_backward")      \
  /* Reduce (§6.6) */                                                                                   \
  X(kReduce, kReduce, eval_reduce, "Reduce_bwd", false, "aten::sum", "aten::mean", "aten::max",         \
    "aten::min", "aten::norm", "aten::linalg_norm", "aten::std", "aten::var", "aten::logsumexp",        \
    "aten::cumsum", "aten::cumprod", "aten::amin", "aten::amax")                                        \
  /* Normalization (§6.7) */                                                                            \
  X(kBatchNorm, kNormalization, eval_norm, "NORM_bwd", false, "aten::batch_norm",                       \
    "aten::native_batch_norm", "aten::miopen_batch_norm", "aten::cudnn_batch_norm")                     \
  X(kLayerNorm, kNormalization, eval_norm, "NORM_bwd", false, "aten::layer_norm",                       \
    "aten::native_layer_norm", "aten::miopen_layer_norm", "aten::cudnn_layer_norm")                     \
  X(kGroupNorm, kNormalization, eval_norm, "NORM_bwd", false, "aiter::_groupnorm_run",                  \
    "aten::group_norm", "aten::native_group_norm", "aten::miopen_group_norm", "aten::cudnn_group_norm") \
  X(kInstanceNorm, kNormalization, eval_norm, "NORM_bwd", false, "aten::instance_norm",                 \
    "aten::native_instance_norm", "aten::miopen_instance_norm", "aten::cudnn_instance_norm")            \
  X(kRmsNorm, kNormalization, eval_norm, "NORM_bwd", false, "aten::_fused_rms_norm")                    \
  X(kBatchNormBwd, kNormalization, eval_norm, "NORM_bwd", false, "aten::batch_norm_backward",           \
    "aten::native_batch_norm_backward")                                                                 \
  X(kBatchNormBwdCudnn, kNormalization, eval_norm, "NORM_bwd", false,                                   \
    "aten::miopen_batch_norm_backward", "aten::cudnn_batch_norm_backward")                              \
  X(kLayerNormBwd, kNormalization, eval_norm, "NORM_bwd", false, "aten::layer_norm_backward",           \
    "aten::native_layer_norm_backward", "aten::miopen_layer_norm_backward",                             \
    "aten::cudnn_layer_norm_backward")                                                                  \
  X(kGroupNormBwd, kNormalization, eval_norm, "NORM_bwd", false, "aten::group_norm_backward",           \
    "aten::native_group_norm_backward", "aten::miopen_group_norm_backward",                             \
    "aten::cudnn_group_norm_backward")                                                                  \
  X(kInstanceNormBwd, kNormalization, eval_norm, "NORM_bwd", false, "aten::instance_norm_backward",     \
    "aten::native_instance_norm_backward", "aten::miopen_instance_norm_backward",                       \
    "aten::cudnn_instance_norm_backward")                                                               \
  X(kRmsNormBwd, kNormalization, eval_norm, "NORM_bwd", false, "aten::rms_norm_backward",               \
    "aten::native_rms_norm_backward", "aten::miopen_rms_norm_backward",                                 \
    "aten::cudnn_rms_norm_backward", "aten::_fused_rms_norm_backward")                                  \
  X(kFusedLnModulate, kNormalization, eval_fused_ln_modulate, "NORM_bwd", false, "primus::fused_ln_modulate") \
  X(kFusedLnModulateBwd, kNormalization, eval_fused_ln_modulate, "NORM_bwd", false,                     \
    "primus::fused_ln_modulate_backward")                                                               \
  /* Other built-in models (§6.8) */                                                                    \
  X(kMoeComm, kMoeComm, eval_moe_comm, "MoE_comm_bwd", false, "MoEDispatch", "MoECombine")              \
  X(kCausalConv1d, kSsm, eval_causal_conv1d, "", false, "DaoAILab::_causal_conv1d_fwd_cpp")             \
  X(kMambaSsd, kSsm, eval_mamba_ssd, "SSM_bwd", false, "MambaSplitConv1dScanCombinedFn")                \
  X(kFusedRope, kRope, eval_fused_rope, "", false, "FusedRoPEFunc")                                     \
  X(kCrossEntropy, kCrossEntropy, eval_cross_entropy, "", false, "CrossEntropyFunction")                \
  X(kQuantizeFp8, kUnaryElementwise, eval_quantize, "", false,                                          \
    "primus_turbo_cpp_extension::quantize_fp8_tensorwise", "primus_turbo::quantize_fp8_tensorwise")     \
  X(kQuantizeMxfp4Dual, kUnaryElementwise, eval_quantize, "", false,                                    \
    "primus_turbo_cpp_extension::quantize_mxfp4_dual", "primus_turbo::quantize_mxfp4_dual",             \
    "primus::quantize_mxfp4_dual")                                                                      \
  /* Resampling unary ops (params add input_shape, output_shape) */                                    \
  X(kReplicationPad, kUnaryElementwise, eval_resample, "", false, "aten::replication_pad1d",             \
    "aten::replication_pad2d", "aten::replication_pad3d")                                               \
  X(kUpsampleNearest, kUnaryElementwise, eval_resample, "", false, "aten::upsample_nearest1d",          \
    "aten::upsample_nearest2d", "aten::upsample_nearest3d")                                             \
  /* RMSNorm extension ops (sheet RMSNorm_fwd) */                                                      \
  X(kAiterRmsNorm, kRmsNormExt, eval_rmsnorm_ext, "", false, "aiter::rms_norm", "aiter::rmsnorm2d_fwd_ck") \
  X(kAiterRmsnorm, kRmsNormExt, eval_rmsnorm_ext, "", false, "aiter::rmsnorm")                          \
  X(kAiterRmsNormAdd, kRmsNormExt, eval_rmsnorm_ext, "", false, "aiter::rmsnorm2d_fwd_with_add_ck",     \
    "aiter::add_rmsnorm")                                                                               \
  X(kAiterRmsNormDynamicQuant, kRmsNormExt, eval_rmsnorm_ext, "", false,                                \
    "aiter::rmsnorm2d_fwd_with_dynamicquant_ck")                                                        \
  X(kVllmRmsNormFp8GroupQuant, kRmsNormExt, eval_rmsnorm_ext, "", false,                                \
    "vllm::rocm_aiter_rmsnorm_fp8_group_quant")                                                         \
  X(kVllmRmsNormAddFp8GroupQuant, kRmsNormExt, eval_rmsnorm_ext, "", false,                             \
    "vllm::rocm_aiter_rmsnorm_with_add_fp8_group_quant")                                                \
  X(kFusedRmsMxfp4Quant, kRmsNormExt, eval_rmsnorm_ext, "", false,                                      \
    "sglang_profiler::fused_mxfp4_quant_fused_rms_mxfp4_quant", "aiter::_fuse_rmsnorm_fp4_quant")       \
  X(kAiterRmsNormQuant, kRmsNormExt, eval_rmsnorm_ext, "", false, "aiter::rmsnorm_quant")               \
  X(kRmsNormAddPad, kRmsNormExt, eval_rmsnorm_ext, "", false, "aiter::fused_add_rmsnorm_pad_",          \
    "vllm::rocm_aiter_triton_add_rmsnorm_pad")                                                          \
  /* RoPE extension ops (sheets RoPE_fwd and FusedRoPE_fwd) */                                        \
  X(kAiterRopeCached2c, kRope, eval_rope_ext, "", false, "aiter::rope_cached_positions_2c_fwd_impl")    \
  X(kSglRotaryEmbedding, kRope, eval_rope_ext, "", false, "sgl_kernel::rotary_embedding")               \
  X(kAiterFusedQkRopeCatAndCacheMla, kFusedRopeExt, eval_fused_qk_rope_mla, "", false,                  \
    "aiter::fused_qk_rope_cat_and_cache_mla")                                                           \
  X(kFusedQkRopeConcatAndCacheMla, kFusedRopeExt, eval_fused_qk_rope_mla, "", false,                    \
    "aiter::fused_qk_rope_concat_and_cache_mla")                                                        \
  /* torch.compile Triton kernel ops, matched by name prefix */                                         \
  X(kTritonCompiled, kTritonCompiled, eval_triton_compiled, "", false, "triton_poi_", "triton_red_",    \
    "triton_per_")
