// SDPA models (tracelens-semantics.md §6.4): aten::_scaled_dot_product_{flash,efficient,
// cudnn}_attention, flash_attn::_flash_attn_forward / FlashAttnFunc / _flash_attn_backward,
// the aiter variants (_flash_attn_forward/_backward, wrapper_fmha_v3_fwd/_bwd, mha_fwd,
// mha_bwd, fmha_v3_fwd) and flash_attn_3::fwd. Each op differs only in where q, k, v,
// dropout and causal sit (kSpecs); backward ops count flops_bwd/bytes_bwd as their own.
// TraceLens quirks kept by default: causal FLOPs are the full count / 2 (a float, and
// an error when N_Q != N_KV); bytes use 2 bytes per element whatever the dtype.
// Corrected (CORRECTIONS.md): the exact number of unmasked (query, key) pairs, and the
// dtype's bytes per element.
#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "analyses/perf/models.h"

namespace sollens::perf {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// optional_float / float(Concrete[i]): '' or None → 0.0.
std::optional<double> concrete_float(const PyValue& v) {
  if (v.kind == PyValue::Kind::kFloat) return v.f;
  if (v.kind == PyValue::Kind::kInt) return static_cast<double>(v.i);
  if (v.kind == PyValue::Kind::kNone) return 0.0;
  if (v.kind != PyValue::Kind::kStr) return std::nullopt;
  if (v.s.empty()) return 0.0;
  char* end = nullptr;
  const double d = std::strtod(v.s.c_str(), &end);
  if (end != v.s.c_str() + v.s.size()) return std::nullopt;
  return d;
}

// Unmasked (query, key) pairs of a causal mask: query i sees keys j <= i + offset, with
// offset 0 (PyTorch SDPA: top-left) or N_KV - N_Q (flash-attn >= 2.1: bottom-right).
int64_t causal_pairs(int64_t nq, int64_t nkv, bool bottom_right) {
  const int64_t offset = bottom_right ? nkv - nq : 0;
  int64_t pairs = 0;
  for (int64_t i = 0; i < nq; ++i) pairs += std::clamp<int64_t>(i + offset + 1, 0, nkv);
  return pairs;
}

enum class CausalText : uint8_t {
  kLowerTrue,      // causal = str(Concrete[i]).lower() == "true"
  kEval,           // eval(Concrete[i]): "True" / "False", anything else raises
  kEvalDefaultTrue,  // the same, True when absent or empty
};

// Where one op keeps its inputs (tracelens-semantics.md §6.4 table).
struct SdpaSpec {
  Model model;
  size_t q_slot;          // q, k, v at q_slot, q_slot + 1, q_slot + 2
  bool bnhd;              // (B, N, H, d) layout, else (B, H, N, d)
  int dropout_index;      // Concrete index; -1: fixed 0.0
  int causal_index;
  CausalText causal_text;
  bool flash_impl;
  bool strides_params;    // flash_attn models carry q/k/v_stride
  bool dtype_param;       // dtype_A_B (and a Compute Spec)
  bool backward;          // flops()/bytes() are the backward formulas
  bool bwd_bytes_dtype;   // backward bytes at name2bpe(type[0]), else 2
};

constexpr SdpaSpec kSpecs[] = {
    {Model::kSdpaFlash, 0, false, 3, 4, CausalText::kLowerTrue, true, false, true, false, false},
    {Model::kSdpaEfficient, 0, false, 5, 6, CausalText::kLowerTrue, false, false, true, false, false},
    {Model::kSdpaCudnn, 0, false, 5, 6, CausalText::kLowerTrue, false, false, true, false, false},
    {Model::kFlashAttnForward, 0, true, 3, 5, CausalText::kEval, true, true, true, false, false},
    {Model::kFlashAttnBackward, 1, true, 8, 10, CausalText::kEvalDefaultTrue, true, true, true, true, true},
    {Model::kAiterFlashAttnForward, 0, true, 3, 5, CausalText::kLowerTrue, true, false, true, false, false},
    {Model::kAiterFlashAttnBackward, 0, true, 10, 12, CausalText::kLowerTrue, true, false, true, true, false},
    {Model::kAiterFmhaV3Forward, 1, true, 4, 6, CausalText::kLowerTrue, true, false, true, false, false},
    {Model::kAiterFmhaV3Backward, 1, true, 7, 9, CausalText::kLowerTrue, true, false, true, true, false},
    {Model::kAiterMhaBackward, 1, true, 6, 8, CausalText::kLowerTrue, true, false, true, true, false},
    {Model::kAiterMhaForward, 0, true, 3, 5, CausalText::kLowerTrue, true, false, false, false, false},
    {Model::kFlashAttn3Forward, 0, true, -1, 24, CausalText::kLowerTrue, true, false, false, false, false},
};

}  // namespace

ModelResult eval_sdpa(Model m, const ModelInput& in) {
  ModelResult r;
  r.maf_type = "matrix";
  const EventArgs& g = in.args;
  const SdpaSpec* spec = nullptr;
  for (const SdpaSpec& sp : kSpecs)
    if (sp.model == m) spec = &sp;
  if (!spec) return r;
  const bool bnhd = spec->bnhd;
  const size_t qs = spec->q_slot;
  auto q = int_list(at(g.dims, qs)), k = int_list(at(g.dims, qs + 1)), v = int_list(at(g.dims, qs + 2));
  if (!q || !k || !v || q->size() != 4 || k->size() != 4 || v->size() != 4) return r;
  // (B, H, N, d) through the layout permutation.
  auto bhnd = [&](const std::vector<int64_t>& t) {
    return bnhd ? std::vector<int64_t>{t[0], t[2], t[1], t[3]} : t;
  };
  const auto Q = bhnd(*q), K = bhnd(*k), V = bhnd(*v);
  if (Q[0] != K[0] || Q[0] != V[0] || K[1] != V[1] || K[2] != V[2] || Q[3] != K[3]) return r;
  const int64_t B = Q[0], HQ = Q[1], NQ = Q[2], NKV = K[2], HKV = K[1], dqk = Q[3], dv = V[3];

  const bool flash_impl = spec->flash_impl;
  const PyValue& c = g.concrete;
  const std::optional<double> dropout =
      spec->dropout_index < 0 ? std::optional<double>(0.0) : concrete_float(at(c, static_cast<size_t>(spec->dropout_index)));
  if (!dropout) return r;
  bool causal = false;
  const PyValue& cv = at(c, static_cast<size_t>(spec->causal_index));
  switch (spec->causal_text) {
    case CausalText::kLowerTrue:
      causal = cv.kind == PyValue::Kind::kBool ? cv.b : cv.kind == PyValue::Kind::kStr && lower(cv.s) == "true";
      break;
    case CausalText::kEvalDefaultTrue:
      if (cv.is_none() || (cv.kind == PyValue::Kind::kStr && cv.s.empty())) {
        causal = true;
        break;
      }
      [[fallthrough]];
    case CausalText::kEval:
      if (cv.kind != PyValue::Kind::kStr || (cv.s != "True" && cv.s != "False")) return r;
      causal = cv.s == "True";
      break;
  }
  r.param("B", PyValue::integer(B));
  r.param("N_Q", PyValue::integer(NQ));
  r.param("H_Q", PyValue::integer(HQ));
  r.param("N_KV", PyValue::integer(NKV));
  r.param("H_KV", PyValue::integer(HKV));
  r.param("d_h_qk", PyValue::integer(dqk));
  r.param("d_h_v", PyValue::integer(dv));
  if (spec->strides_params) {
    r.param("q_stride", at(g.strides, qs).as_tuple());
    r.param("k_stride", at(g.strides, qs + 1).as_tuple());
    r.param("v_stride", at(g.strides, qs + 2).as_tuple());
  }
  r.param("dropout", PyValue::real(*dropout));
  r.param("causal", PyValue::boolean(causal));
  r.param("flash_impl", PyValue::boolean(flash_impl));
  if (spec->dtype_param) {
    r.param("dtype_A_B", PyValue::tuple({at(g.types, qs), at(g.types, qs + 1)}));
    r.precision_dtype = at(g.types, qs);
  }
  r.status = Status::kOk;

  const int64_t pairs_full = NQ * NKV;
  // PyTorch SDPA aligns the causal mask top-left; flash-attn >= 2.1, aiter and FA3 bottom-right.
  const bool bottom_right = m != Model::kSdpaFlash && m != Model::kSdpaEfficient && m != Model::kSdpaCudnn;
  const int64_t pairs_exact = causal ? causal_pairs(NQ, NKV, bottom_right) : pairs_full;
  const auto bpe = bytes_per_element(at(g.types, qs));

  // forward
  auto fwd_flops = [&](int64_t pairs) { return B * HQ * (2 * pairs * dqk) + B * HQ * (2 * pairs * dv); };
  const int64_t fwd_elems = B * NQ * HQ * dqk + B * NKV * HKV * dqk + B * NKV * HKV * dv + B * NQ * HQ * dv;
  if (causal && NQ != NKV) {
    r.fwd.status = Status::kError;  // TraceLens: ValueError
  } else {
    r.fwd.status = Status::kOk;
    r.fwd.flops = causal ? Count::real(static_cast<double>(fwd_flops(pairs_full)) / 2) : Count::of(fwd_flops(pairs_full));
    r.fwd.bytes = Count::of(fwd_elems * 2);
  }
  if (causal) r.fwd.flops_corrected = Count::of(fwd_flops(pairs_exact));
  if (bpe) r.fwd.bytes_corrected = Count::of(fwd_elems * *bpe);
  else r.fwd.bytes_corrected_is_none = true;

  // backward
  auto bwd_flops = [&](int64_t pairs) {
    const int64_t gqa = HKV != 0 ? HQ / HKV - 1 : 0;
    return (flash_impl ? B * HQ * 2 * pairs * dqk : 0) + B * HQ * 2 * pairs * dv + B * NKV * dv * gqa +
           B * HQ * 2 * pairs * dv + B * HQ * 2 * pairs * dqk + B * HQ * 2 * pairs * dqk + B * NKV * dqk * gqa;
  };
  const int64_t bwd_elems = fwd_elems + B * NQ * HQ * dqk + B * NKV * HKV * dqk + B * NKV * HKV * dv;
  if (causal && NQ != NKV) {
    r.bwd.status = Status::kError;
  } else {
    r.bwd.status = Status::kOk;
    r.bwd.flops = causal ? Count::real(static_cast<double>(bwd_flops(pairs_full)) / 2) : Count::of(bwd_flops(pairs_full));
    r.bwd.bytes = Count::of(bwd_elems * 2);
  }
  if (causal) r.bwd.flops_corrected = Count::of(bwd_flops(pairs_exact));
  if (bpe) r.bwd.bytes_corrected = Count::of(bwd_elems * *bpe);
  else r.bwd.bytes_corrected_is_none = true;
  if (spec->backward) {
    // A backward op: its own flops()/bytes() are the backward formulas, bytes at
    // name2bpe(type[0]) (flash_attn) or 2 (aiter); it has no further backward.
    r.fwd = r.bwd;
    if (spec->bwd_bytes_dtype && r.fwd.status == Status::kOk) {
      const auto bpe0 = bytes_per_element(at(g.types, 0));
      if (bpe0) r.fwd.bytes = Count::of(bwd_elems * *bpe0);
      else r.fwd.bytes.reset();
      if (r.fwd.bytes_corrected && r.fwd.bytes && *r.fwd.bytes_corrected == *r.fwd.bytes) r.fwd.bytes_corrected.reset();
    }
    r.bwd = Metrics{};
    r.bwd.status = Status::kNotImplemented;
  }
  return r;
}

}  // namespace sollens::perf
