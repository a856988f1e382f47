// Properties of the perf models (analyses/perf) enumerated from the model registry:
// FLOPs and bytes never fall when one shape dimension grows (the others fixed), and
// FLOPs are 0 when a dimension is 0 (an empty tensor).
//
// Each template below writes one model's "Input Dims" (and the Concrete Inputs and
// strides that repeat a dimension, e.g. layer_norm's normalized_shape) with symbols:
// {M} is one dimension wherever it occurs, so growing it keeps the shapes consistent.
// Every model of the registry is either templated or listed, with the reason, in
// not_templated_families() or not_templated_models(), so a new model cannot go
// untested unnoticed. Each template runs for a random op name of its model.
//
// Where growing one dimension alone does not apply, the shapes tie it to others:
//  * a convolution's kernel size is fixed (3 × 3, padding 1: output H × W): with the
//    input fixed, a larger kernel leaves fewer output positions (H − R + 1), so FLOPs
//    rightly go up and down;
//  * a backward attention's KV heads: H_Q = G·Y (G KV heads, Y query heads each). The GQA
//    term (H_Q / H_KV − 1)·N_KV·d counts the adds that sum dK, dV over each group, which
//    rightly falls when H_KV alone grows (smaller groups); G and Y grow instead;
//  * a causal attention needs N_Q = N_KV (TraceLens raises otherwise): one symbol;
//  * varlen attention: its FLOPs estimate is per sequence (quadratic in each length),
//    so splitting the same tokens into more sequences rightly lowers it; the template
//    grows the longest sequence, the others' length or their number, with the totals.
// FLOPs are not always 0 with one dimension 0 either: each template names the
// dimensions whose 0 leaves work (a bias add, P·V with d_qk = 0), with the reason. A
// model that divides by a dimension (N / C in the norms) gives no count at 0, as
// TraceLens's ZeroDivisionError skips the row. Bytes are not 0 with one dimension 0: the
// operands without it are still counted (a GEMM with M = 0 still lists its K × N
// weight), and 0-dimensional operands (scalars, scales, a full reduction's output) hold
// one element whatever the shapes, so only FLOPs are checked at 0.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analyses/perf/model_registry.h"
#include "analyses/perf/models.h"
#include "base/python_literal.h"
#include "support/property.h"

using namespace sollens;
using namespace sollens::perf;
using sollens::test::PropertyRng;

namespace {

struct Template {
  Model model;
  const char* dims;
  const char* types;
  const char* concrete = nullptr;
  const char* strides = nullptr;
  // Symbols whose 0 leaves FLOPs that are rightly not 0, and why.
  const char* zero_exempt = "";
  const char* why = "";
};

// In braces: a sum of products of symbols (one capital letter) and integers, e.g.
// {G*Y} or {R+X+P*R}. Every symbol grows and is set to 0 in turn.
const std::vector<Template>& templates() {
  static const char* kBias = "K = 0 still adds the bias to each of the outputs";
  static const char* kHeadDims = "d_qk = 0 still leaves P·V, and d_v = 0 still Q·Kᵀ and the softmax";
  static const char* kGqa =
      "as above; and the GQA term (H_Q / H_KV − 1)·N_KV·d sums dK, dV over each group's query heads "
      "whatever N_Q is; H_Q = 0 (Y = 0) is no GQA shape, H_Q is a positive multiple of H_KV, and the "
      "term is negative there";
  static const char* kPerChannel =
      "TraceLens's norm formula counts 6·C FLOPs per channel (statistics, affine) whatever the "
      "element count N, so an empty input still has them; the corrected count (CORRECTIONS.md) keeps them";
  static const char* kVarlen =
      "as above; and one sequence of R + X tokens is left when the others (P of R tokens) are 0 or empty";
  static const std::vector<Template> t = {
      // GEMM
      {Model::kMm, "[[{M}, {K}], [{K}, {N}]]", "['c10::BFloat16', 'c10::BFloat16']"},
      {Model::kAddmm, "[[{N}], [{M}, {K}], [{K}, {N}], [], []]",
       "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'Scalar', 'Scalar']", nullptr, nullptr, "K", kBias},
      {Model::kBmm, "[[{B}, {M}, {K}], [{B}, {K}, {N}]]", "['float', 'float']"},
      {Model::kBaddbmm, "[[{B}, {M}, {N}], [{B}, {M}, {K}], [{B}, {K}, {N}], [], []]",
       "['float', 'float', 'float', 'Scalar', 'Scalar']", nullptr, nullptr, "K", kBias},
      {Model::kScaledMm, "[[{M}, {K}], [{K}, {N}], [], [], [{N}], [], [], []]",
       "['c10::Float8_e4m3fn', 'c10::Float8_e4m3fn', 'float', 'float', 'c10::BFloat16', '', 'Scalar', 'Scalar']",
       "['', '', '', '', '', '', '6', 'False']", nullptr, "K", kBias},
      // SDPA: (B, H, N, d) or (B, N, H, d) at each model's slots; non-causal with N_Q (N)
      // and N_KV (S) apart, causal with one N.
      {Model::kSdpaFlash, "[[{B}, {H}, {N}, {D}], [{B}, {H}, {S}, {D}], [{B}, {H}, {S}, {E}], [], [], [], []]",
       "['float', 'float', 'float', '', '', '', '']", "['', '', '', '0.', 'False', 'False', '']", nullptr, "DE",
       kHeadDims},
      {Model::kSdpaFlash, "[[{B}, {H}, {N}, {D}], [{B}, {H}, {N}, {D}], [{B}, {H}, {N}, {E}], [], [], [], []]",
       "['float', 'float', 'float', '', '', '', '']", "['', '', '', '0.', 'True', 'False', '']", nullptr, "DE",
       kHeadDims},
      {Model::kSdpaEfficient,
       "[[{B}, {H}, {N}, {D}], [{B}, {H}, {S}, {D}], [{B}, {H}, {S}, {E}], [], [], [], [], []]",
       "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', '', '', '', '', '']",
       "['', '', '', '', '', '0.', 'False', '']", nullptr, "DE", kHeadDims},
      {Model::kSdpaCudnn,
       "[[{B}, {H}, {N}, {D}], [{B}, {H}, {N}, {D}], [{B}, {H}, {N}, {E}], [], [], [], [], []]",
       "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', '', '', '', '', '']",
       "['', '', '', '', '', '0.', 'True', '']", nullptr, "DE", kHeadDims},
      {Model::kFlashAttnForward, "[[{B}, {N}, {H}, {D}], [{B}, {S}, {H}, {D}], [{B}, {S}, {H}, {E}], [], [], [], []]",
       "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'Scalar', 'Scalar', 'Scalar', '']",
       "['', '', '', '0.0', '0.125', 'False', '']", nullptr, "DE", kHeadDims},
      {Model::kAiterFlashAttnForward, "[[{B}, {N}, {H}, {D}], [{B}, {S}, {H}, {D}], [{B}, {S}, {H}, {E}], [], [], [], []]",
       "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'Scalar', 'Scalar', 'Scalar', '']",
       "['', '', '', '0.0', '0.125', 'False', '']", nullptr, "DE", kHeadDims},
      {Model::kAiterMhaForward, "[[{B}, {N}, {H}, {D}], [{B}, {N}, {H}, {D}], [{B}, {N}, {H}, {E}], [], [], []]",
       "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'Scalar', 'Scalar', 'Scalar']",
       "['', '', '', '0.0', '0.35', 'True']", nullptr, "DE", kHeadDims},
      // Backward: G KV heads, each shared by Y query heads.
      {Model::kFlashAttnBackward,
       "[[{B}, {N}, {G*Y}, {E}], [{B}, {N}, {G*Y}, {D}], [{B}, {S}, {G}, {D}], [{B}, {S}, {G}, {E}], "
       "[{B}, {N}, {G*Y}, {E}], [{B}, {G*Y}, {N}], [], [], [], [], [], [], []]",
       "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'float', '', '', "
       "'Scalar', 'Scalar', 'Scalar', '', '']",
       "['', '', '', '', '', '', '', '', '0.0', '0.17', 'False', '', '']", nullptr, "DENY", kGqa},
      {Model::kAiterMhaBackward,
       "[[{B}, {N}, {G*Y}, {E}], [{B}, {N}, {G*Y}, {D}], [{B}, {S}, {G}, {D}], [{B}, {S}, {G}, {E}], "
       "[], [], [], [], []]",
       "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', '', '', 'Scalar', 'Scalar', 'Scalar']",
       "['', '', '', '', '', '', '0.0', '0.1', 'False']", nullptr, "DENY", kGqa},
      // Varlen: one sequence of R + X tokens (the longest) and P more of R tokens each.
      {Model::kFlashAttnVarlenForward,
       "[[{R+X+P*R}, {H}, {D}], [{R+X+P*R}, {H}, {D}], [{R+X+P*R}, {H}, {E}], [{P+2}], [{P+2}], [], [], [], [], [], []]",
       "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'int', 'int', 'Scalar', 'Scalar', 'Scalar', "
       "'Scalar', 'Scalar', '']",
       "['', '', '', '', '', '{R+X}', '{R+X}', '0.0', '0.125', 'False', '']", nullptr, "DEPRX", kVarlen},
      // CONV: 3 × 3 kernels, padding 1 (see above)
      {Model::kConv, "[[{N}, {C}, {H}, {W}], [{K}, {C}, 3, 3], [{K}], [], [], [], [], [], []]",
       "['float', 'float', 'float', 'ScalarList', 'ScalarList', 'ScalarList', 'Scalar', 'ScalarList', 'Scalar']",
       "['', '', '', '[1, 1]', '[1, 1]', '[1, 1]', 'False', '[0, 0]', '1']", nullptr, "C",
       "C = 0 still adds the bias to every output (the corrected count has the bias)"},
      {Model::kConv, "[[{N}, {C}, {H}, {W}], [{C}, {K}, 3, 3], [], [], [], [], [], [], []]",
       "['float', 'float', '', 'ScalarList', 'ScalarList', 'ScalarList', 'Scalar', 'ScalarList', 'Scalar']",
       "['', '', '', '[1, 1]', '[1, 1]', '[1, 1]', 'True', '[0, 0]', '1']"},
      {Model::kConvBwd,
       "[[{N}, {K}, {H}, {W}], [{N}, {C}, {H}, {W}], [{K}, {C}, 3, 3], [{K}], [], [], [], [], [], [], []]",
       "['float', 'float', 'float', 'ScalarList', 'ScalarList', 'ScalarList', 'ScalarList', 'Scalar', "
       "'ScalarList', 'Scalar', 'ScalarList']",
       "['', '', '', '[{K}]', '[1, 1]', '[1, 1]', '[1, 1]', 'False', '[0, 0]', '1', '[True, True, True]']", nullptr,
       "C", "C = 0 still sums the bias gradient over the output gradient"},
      // Elementwise
      {Model::kUnary, "[[{A}, {B}, {C}]]", "['c10::BFloat16']", nullptr, "[[{B*C}, {C}, 1]]"},
      {Model::kUnary, "[[{A}, {B}], [{A}, {B}]]", "['float', 'c10::BFloat16']", nullptr, "[[{B}, 1], [{B}, 1]]"},
      {Model::kBinary, "[[{A}, {B}], [{A}, {B}]]", "['c10::BFloat16', 'c10::BFloat16']", nullptr,
       "[[{B}, 1], [{B}, 1]]"},
      {Model::kBinary, "[[{A}, 1, {B}], [{C}, 1]]", "['float', 'float']", nullptr, "[[{B}, {B}, 1], [1, 1]]"},
      {Model::kBinary, "[[{A}, {B}], [], []]", "['float', 'Scalar', 'Scalar']", nullptr, "[[{B}, 1], [], []]"},
      // Reduce
      {Model::kReduce, "[[{A}, {B}], [], [], []]", "['float', 'ScalarList', 'Scalar', '']",
       "['', '[0]', 'False', '']"},
      {Model::kReduce, "[[{A}, {B}, {C}], [], [], []]", "['c10::BFloat16', 'ScalarList', 'Scalar', '']",
       "['', '[-1]', 'True', '']"},
      // Normalization
      {Model::kLayerNorm, "[[{A}, {B}, {D}], [], [{D}], [{D}], [], []]",
       "['c10::BFloat16', '', 'c10::BFloat16', 'c10::BFloat16', 'Scalar', 'Scalar']",
       "['', '[{D}]', '', '', '1e-05', 'True']", nullptr, "AB", kPerChannel},
      {Model::kBatchNorm, "[[{N}, {C}, {H}, {W}], [{C}], [{C}], [{C}], [{C}], [], [], [], []]",
       "['float', 'float', 'float', 'float', 'float', 'Scalar', 'Scalar', 'Scalar', 'Scalar']",
       "['', '', '', '', '', 'True', '0.1', '1e-05', 'True']", nullptr, "NHW", kPerChannel},
      {Model::kInstanceNorm, "[[{N}, {C}, {H}, {W}], [{C}], [{C}], [], [], [], [], [], []]",
       "['float', 'float', 'float', '', '', 'Scalar', 'Scalar', 'Scalar', 'Scalar']",
       "['', '', '', '', '', 'True', '0.1', '1e-05', 'True']", nullptr, "NHW", kPerChannel},
      {Model::kGroupNorm, "[[{N}, {C}, {H}, {W}], [], [{C}], [{C}], [], []]",
       "['c10::BFloat16', 'Scalar', 'c10::BFloat16', 'c10::BFloat16', 'Scalar', 'Scalar']",
       "['', '4', '', '', '1e-05', 'True']", nullptr, "NHW", kPerChannel},
      {Model::kRmsNorm, "[[{A}, {B}, {D}], [], [{D}], []]", "['c10::BFloat16', '', 'c10::BFloat16', 'Scalar']",
       "['', '[{D}]', '', '1e-06']"},
      {Model::kLayerNormBwd, "[[{A}, {B}, {D}], [{A}, {B}, {D}], [], [{A}, {B}, 1], [{A}, {B}, 1], [{D}], [{D}], []]",
       "['float', 'float', '', 'float', 'float', 'float', 'float', '']",
       "['', '', '[{D}]', '', '', '', '', '[True, True, True]']"},
      {Model::kRmsNormBwd, "[[{A}, {D}], [{A}, {D}], [], [{A}, 1], [{D}], []]",
       "['float', 'float', '', 'float', 'float', '']", "['', '', '[{D}]', '', '', '[True, True]']"},
      {Model::kBatchNormBwd, "[[{N}, {C}, {H}, {W}], [{N}, {C}, {H}, {W}], [{C}], [{C}], [{C}], [{C}], [{C}], [], [], []]",
       "['float', 'float', 'float', 'float', 'float', 'float', 'float', 'Scalar', 'Scalar', '']",
       "['', '', '', '', '', '', '', 'True', '1e-05', '[True, True, True]']"},
  };
  return t;
}

// Registry models without a template here, and why.
const std::map<Family, const char*>& not_templated_families() {
  static const std::map<Family, const char*> m = {
      {Family::kInferenceAttention, "vendor attention ops: paged KV and annotation-driven params"},
      {Family::kGroupedGemm, "grouped GEMM: group sizes are tensor values"},
      {Family::kMoeComm, "MoE dispatch / combine: token counts from routing"},
      {Family::kSsm, "SSM: head counts and chunk sizes in Concrete Inputs"},
      {Family::kRope, "RoPE: not templated yet"},
      {Family::kCrossEntropy, "cross entropy: not templated yet"},
      {Family::kMoeFused, "MoE: expert counts and top-k in extra args"},
      {Family::kMoeUnfused, "MoE: expert counts and top-k in extra args"},
      {Family::kMoeAux, "MoE: expert counts and top-k in extra args"},
      {Family::kRmsNormExt, "vendor RMSNorm ops: not templated yet"},
      {Family::kElementwise, "vendor elementwise ops: not templated yet"},
      {Family::kGroupQuant, "group quantization: group sizes in Concrete Inputs"},
      {Family::kFusedRopeExt, "fused RoPE + KV-cache ops: not templated yet"},
      {Family::kCustomCollective, "collectives: bytes depend on the world size"},
      {Family::kMhc, "mHC: not templated yet"},
      {Family::kTritonCompiled, "Triton ops: shapes from the kernel's own args"},
  };
  return m;
}

// Models of the templated families that have no template, and why.
const std::map<Model, const char*>& not_templated_models() {
  static const std::map<Model, const char*> m = {
      {Model::kTeGemmTs, "GEMM extension: vendor layout"},
      {Model::kVllmGemmWithDynamicQuant, "GEMM extension: vendor layout"},
      {Model::kTev2PseudoGemm, "GEMM extension: vendor layout"},
      {Model::kHipblasltGemmFp8, "GEMM extension: vendor layout"},
      {Model::kHipblasltGemmFp4, "GEMM extension: vendor layout"},
      {Model::kAiterGemmA4w4, "GEMM extension: vendor layout"},
      {Model::kBatchedGemmA16wfp4, "GEMM extension: vendor layout"},
      {Model::kGemmA8w8Blockscale, "GEMM extension: vendor layout"},
      {Model::kVllmRocmUnquantizedGemm, "GEMM extension: vendor layout"},
      {Model::kGemmA16w16, "GEMM extension: vendor layout"},
      {Model::kGemmA16w16Atomic, "GEMM extension: vendor layout"},
      {Model::kGemmA16w16Asm, "GEMM extension: vendor layout"},
      {Model::kGemmAfp4wfp4, "GEMM extension: vendor layout"},
      {Model::kBatchedGemmA8w8, "GEMM extension: vendor layout"},
      {Model::kLigerSiluMul, "vendor elementwise op"},
      {Model::kAiterSiluAndMul, "vendor elementwise op"},
      {Model::kSglKernelSiluAndMul, "vendor elementwise op"},
      {Model::kGeluAndMul, "vendor elementwise op"},
      {Model::kGeluTanhAndMul, "vendor elementwise op"},
      {Model::kEvoformerAttention, "Evoformer: five-dimensional layout with bias tensors"},
      {Model::kPerGroupQuant, "quantization: group sizes in Concrete Inputs"},
      {Model::kVllmTritonPerTokenGroupQuantFp8, "quantization: group sizes in Concrete Inputs"},
      {Model::kAiterFlashAttnBackward, "attention backward: same formula as flash_attn's, other slots"},
      {Model::kAiterFmhaV3Forward, "attention: same formula as mha_fwd, other slots"},
      {Model::kAiterFmhaV3Backward, "attention backward: same formula as mha_bwd, other slots"},
      {Model::kFlashAttn3Forward, "attention: same formula as flash_attn's, 25 slots"},
      {Model::kFlashAttnVarlenBackward, "varlen backward: same formula as the forward's, other slots"},
      {Model::kConvBias, "ConvBias: fused op with its own slots"},
      {Model::kConvBiasRelu, "ConvBias: fused op with its own slots"},
      {Model::kConvBiasBwd, "ConvBias backward: params from the forward op"},
      {Model::kConvBiasReluBwd, "ConvBias backward: params from the forward op"},
      {Model::kBatchNormBwdCudnn, "same formula as batch_norm_backward"},
      {Model::kGroupNormBwd, "group norm backward: groups in Concrete Inputs"},
      {Model::kInstanceNormBwd, "not implemented (TraceLens raises)"},
      {Model::kFusedLnModulate, "fused LayerNorm + modulate: not templated yet"},
      {Model::kFusedLnModulateBwd, "fused LayerNorm + modulate: not templated yet"},
      {Model::kQuantizeFp8, "quantization: not templated yet"},
      {Model::kQuantizeMxfp4Dual, "quantization: not templated yet"},
      {Model::kReplicationPad, "resampling: output sizes in Concrete Inputs"},
      {Model::kUpsampleNearest, "resampling: output sizes in Concrete Inputs"},
  };
  return m;
}

// The symbols of a template, in order of first appearance.
std::vector<char> symbols_of(const Template& t) {
  std::vector<char> out;
  for (const char* text : {t.dims, t.concrete, t.strides}) {
    if (!text) continue;
    bool braced = false;
    for (const char* p = text; *p; ++p) {
      braced = *p == '{' || (braced && *p != '}');
      if (braced && *p >= 'A' && *p <= 'Z' && std::find(out.begin(), out.end(), *p) == out.end()) out.push_back(*p);
    }
  }
  return out;
}

// A sum of products of symbols and integers.
int64_t evaluated(std::string_view expr, const std::map<char, int64_t>& values) {
  int64_t sum = 0, product = 1, number = -1;
  auto close_factor = [&] {
    if (number >= 0) product *= number;
    number = -1;
  };
  for (char ch : expr) {
    if (ch >= '0' && ch <= '9') {
      number = (number < 0 ? 0 : number * 10) + (ch - '0');
    } else if (ch >= 'A' && ch <= 'Z') {
      product *= values.at(ch);
    } else if (ch == '*') {
      close_factor();
    } else if (ch == '+') {
      close_factor();
      sum += product;
      product = 1;
    }
  }
  close_factor();
  return sum + product;
}

std::string substituted(const char* text, const std::map<char, int64_t>& values) {
  std::string out;
  for (const char* p = text; *p; ++p) {
    if (*p != '{') {
      out += *p;
      continue;
    }
    const char* end = p;
    while (*end != '}') ++end;
    out += std::to_string(evaluated(std::string_view(p + 1, static_cast<size_t>(end - p - 1)), values));
    p = end;
  }
  return out;
}

PyValue literal(const std::string& text) {
  auto v = literal_eval(text);
  REQUIRE(v.has_value());
  return *v;
}

ModelResult run(const Template& t, std::string_view op, const std::map<char, int64_t>& values) {
  EventArgs a;
  a.dims = literal(substituted(t.dims, values));
  a.types = literal(t.types);
  if (t.concrete) a.concrete = literal(substituted(t.concrete, values));
  if (t.strides) a.strides = literal(substituted(t.strides, values));
  return evaluate(t.model, ModelInput{op, a, {}});
}

struct Counts {
  std::vector<std::pair<std::string, double>> named;  // every count the model gives
};

// Every FLOP and byte count of a result: TraceLens's and the corrected ones, forward and
// (when evaluated) backward.
Counts counts_of(const ModelResult& r) {
  Counts c;
  auto add = [&](const char* side, const Metrics& m) {
    if (m.status != perf::Status::kOk) return;
    c.named.emplace_back(std::string(side) + " flops", m.flops.value());
    c.named.emplace_back(std::string(side) + " flops corrected", (m.flops_corrected ? *m.flops_corrected : m.flops).value());
    if (m.bytes) c.named.emplace_back(std::string(side) + " bytes", m.bytes->value());
    if (m.bytes && !m.bytes_corrected_is_none)
      c.named.emplace_back(std::string(side) + " bytes corrected", (m.bytes_corrected ? *m.bytes_corrected : *m.bytes).value());
  };
  add("fwd", r.fwd);
  add("bwd", r.bwd);
  return c;
}

std::string values_text(const std::map<char, int64_t>& values) {
  std::string s;
  for (const auto& [k, v] : values) s += std::string(1, k) + "=" + std::to_string(v) + " ";
  return s;
}

constexpr int kCasesPerTemplate = 40;

}  // namespace

TEST_CASE("every registry model is templated or says why not", "[property][perf]") {
  std::set<Model> templated;
  for (const Template& t : templates()) templated.insert(t.model);
  for (const PerfModelEntry& e : perf_models()) {
    INFO(e.name);
    const bool skipped_family = not_templated_families().count(e.family) != 0;
    const bool skipped_model = not_templated_models().count(e.model) != 0;
    CHECK(int(templated.count(e.model)) + int(skipped_family) + int(skipped_model) == 1);
  }
}

TEST_CASE("perf models: FLOPs and bytes grow with every dimension, FLOPs are 0 for an empty tensor", "[property][perf]") {
  const uint64_t seed = sollens::test::property_seed();
  uint64_t case_number = 0;
  size_t evaluations = 0;
  for (const Template& t : templates()) {
    const PerfModelEntry& entry = perf_model(t.model);
    const std::vector<char> symbols = symbols_of(t);
    for (int c = 0; c < kCasesPerTemplate; ++c) {
      PropertyRng rng(seed, case_number++);
      const std::string_view op = entry.ops[static_cast<size_t>(rng.between(0, static_cast<int64_t>(entry.ops.size()) - 1))];
      std::map<char, int64_t> values;
      for (char s : symbols) values[s] = rng.between(1, 48);
      INFO("SOLLENS_PROPERTY_SEED=" << seed << " case " << case_number - 1 << ": " << op << " dims "
                                    << t.dims << " with " << values_text(values));
      const ModelResult base = run(t, op, values);
      ++evaluations;
      PROPERTY_REQUIRE(base.status == perf::Status::kOk);
      PROPERTY_REQUIRE(base.fwd.status == perf::Status::kOk);
      const Counts before = counts_of(base);
      for (char s : symbols) {
        std::map<char, int64_t> grown = values;
        grown[s] += rng.between(1, 48);
        const ModelResult r = run(t, op, grown);
        ++evaluations;
        const Counts after = counts_of(r);
        if (r.status != perf::Status::kOk || after.named.size() != before.named.size()) {
          INFO("grown: " << values_text(grown));
          REQUIRE(r.status == perf::Status::kOk);
          REQUIRE(after.named.size() == before.named.size());
        }
        for (size_t i = 0; i < before.named.size(); ++i)
          if (after.named[i].second < before.named[i].second) {
            INFO("grown: " << values_text(grown) << "; " << before.named[i].first);
            CHECK(after.named[i].second >= before.named[i].second);
          }

        std::map<char, int64_t> empty = values;
        empty[s] = 0;
        const ModelResult z = run(t, op, empty);
        ++evaluations;
        if (z.status != perf::Status::kOk) {
          INFO("empty: " << values_text(empty));
          REQUIRE(z.status == perf::Status::kOk);
        }
        if (std::string_view(t.zero_exempt).find(s) != std::string_view::npos) continue;  // t.why
        for (const auto& [name, value] : counts_of(z).named)
          if (name.find("flops") != std::string::npos && value != 0) {
            INFO("empty: " << values_text(empty) << "; " << name);
            CHECK(value == 0);
          }
      }
      std::map<char, int64_t> nothing = values;
      for (auto& [k, v] : nothing) v = 0;
      const ModelResult z = run(t, op, nothing);
      ++evaluations;
      PROPERTY_REQUIRE(z.status == perf::Status::kOk);
      for (const auto& [name, value] : counts_of(z).named)
        if (name.find("flops") != std::string::npos && value != 0) {
          INFO("all dimensions 0: " << name);
          CHECK(value == 0);
        }
    }
  }
  CHECK(evaluations > 10000);
}

TEST_CASE("a norm over zero channels divides by zero: no count, as TraceLens skips it", "[property][perf]") {
  // aten::_fused_rms_norm on (8, 0), normalized_shape [0]: N = 0, C = 0. TraceLens's
  // flops = (N / C)·(2·C + 2) + 2·N raises ZeroDivisionError on 0 / 0 and the row is
  // skipped; computed in doubles it was 0 / 0 = nan FLOPs in the report.
  const Template rms{Model::kRmsNorm, "[[8, 0], [], [0], []]", "['c10::BFloat16', '', 'c10::BFloat16', 'Scalar']",
                     "['', '[0]', '', '1e-06']"};
  const ModelResult r = run(rms, "aten::_fused_rms_norm", {});
  CHECK(r.status == perf::Status::kOk);  // the params are read
  CHECK(r.fwd.status == perf::Status::kError);
  // aten::native_layer_norm_backward on (4, 0), normalized_shape [0]: flops_bwd =
  // C·(4·N/C + …) divides 0 by 0 as well.
  const Template ln{Model::kLayerNormBwd, "[[4, 0], [4, 0], [], [4, 1], [4, 1], [0], [0], []]",
                    "['float', 'float', '', 'float', 'float', 'float', 'float', '']",
                    "['', '', '[0]', '', '', '', '', '[True, True, True]']"};
  CHECK(run(ln, "aten::native_layer_norm_backward", {}).fwd.status == perf::Status::kError);
  // One channel more and both count again: rms_norm on (8, 1): N = 8, C = 1,
  // flops = 8·(2 + 2) + 2·8 = 48.
  const Template one{Model::kRmsNorm, "[[8, 1], [], [1], []]", "['c10::BFloat16', '', 'c10::BFloat16', 'Scalar']",
                     "['', '[1]', '', '1e-06']"};
  const ModelResult r1 = run(one, "aten::_fused_rms_norm", {});
  REQUIRE(r1.fwd.status == perf::Status::kOk);
  CHECK(r1.fwd.flops.value() == 48);
}
