// SDPA models (tracelens-semantics.md §6.4): aten::_scaled_dot_product_{flash,efficient,
// cudnn}_attention, flash_attn::_flash_attn_forward / FlashAttnFunc / _flash_attn_backward,
// the aiter variants (_flash_attn_forward/_backward, wrapper_fmha_v3_fwd/_bwd, mha_fwd,
// mha_bwd, fmha_v3_fwd), flash_attn_3::fwd and flash_attn::_flash_attn_varlen_forward/
// _backward. Each op differs only in where q, k, v, dropout and causal sit (kSpecs);
// backward ops count flops_bwd/bytes_bwd as their own. dtype_A_B is Input type[:2].
// TraceLens quirks kept by default: causal FLOPs are the full count / 2 (a float, and
// an error when N_Q != N_KV); bytes use 2 bytes per element whatever the dtype.
// Corrected (CORRECTIONS.md): the exact number of unmasked (query, key) pairs, and the
// dtype's bytes per element.
#include <algorithm>
#include <cctype>
#include <cmath>
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
enum class Layout : uint8_t { kBHND, kBNHD, kHND /* varlen: (total tokens, H, d), B = 1 */ };

struct SdpaSpec {
  Model model;
  size_t q_slot;          // q, k, v at q_slot, q_slot + 1, q_slot + 2
  Layout layout;
  int dropout_index;      // Concrete index; -1: fixed 0.0
  int causal_index;
  CausalText causal_text;
  bool flash_impl;
  bool strides_params;    // flash_attn models carry q/k/v_stride
  bool dtype_param;       // dtype_A_B (and a Compute Spec)
  bool backward;          // flops()/bytes() are the backward formulas
  bool bwd_bytes_dtype;   // backward bytes at name2bpe(type[0]), else 2
};

constexpr Layout BHND = Layout::kBHND, BNHD = Layout::kBNHD, HND = Layout::kHND;
constexpr SdpaSpec kSpecs[] = {
    {Model::kSdpaFlash, 0, BHND, 3, 4, CausalText::kLowerTrue, true, false, true, false, false},
    {Model::kSdpaEfficient, 0, BHND, 5, 6, CausalText::kLowerTrue, false, false, true, false, false},
    {Model::kSdpaCudnn, 0, BHND, 5, 6, CausalText::kLowerTrue, false, false, true, false, false},
    {Model::kFlashAttnForward, 0, BNHD, 3, 5, CausalText::kEval, true, true, true, false, false},
    {Model::kFlashAttnBackward, 1, BNHD, 8, 10, CausalText::kEvalDefaultTrue, true, true, true, true, true},
    {Model::kFlashAttnVarlenForward, 0, HND, 7, 9, CausalText::kEval, true, true, true, false, false},
    {Model::kFlashAttnVarlenBackward, 1, HND, 13, 15, CausalText::kEval, true, true, true, true, false},
    // aiter::_flash_attn_forward/_backward have no dtype_A_B in TraceLens's parser (so no
    // Compute Spec), like mha_fwd/fmha_v3_fwd and flash_attn_3::fwd.
    {Model::kAiterFlashAttnForward, 0, BNHD, 3, 5, CausalText::kLowerTrue, true, false, false, false, false},
    {Model::kAiterFlashAttnBackward, 0, BNHD, 10, 12, CausalText::kLowerTrue, true, false, false, true, false},
    {Model::kAiterFmhaV3Forward, 1, BNHD, 4, 6, CausalText::kLowerTrue, true, false, true, false, false},
    {Model::kAiterFmhaV3Backward, 1, BNHD, 7, 9, CausalText::kLowerTrue, true, false, true, true, false},
    {Model::kAiterMhaBackward, 1, BNHD, 6, 8, CausalText::kLowerTrue, true, false, true, true, false},
    {Model::kAiterMhaForward, 0, BNHD, 3, 5, CausalText::kLowerTrue, true, false, false, false, false},
    {Model::kFlashAttn3Forward, 0, BNHD, -1, 24, CausalText::kLowerTrue, true, false, false, false, false},
};

// SDPA.flops_func / flops_bwd_func in floating point (varlen lengths are floats);
// nullopt: causal with N_Q != N_KV (ValueError).
std::optional<double> fwd_flops_f(double B, double NQ, double HQ, double NKV, double dqk, double dv, bool causal) {
  if (causal && NQ != NKV) return std::nullopt;
  const double f = B * HQ * (2 * NQ * NKV * dqk) + B * HQ * (2 * NQ * dv * NKV);
  return causal ? f / 2 : f;
}
std::optional<double> bwd_flops_f(double B, double NQ, double HQ, double NKV, double HKV, double dqk, double dv,
                                  bool causal, bool flash) {
  if (causal && NQ != NKV) return std::nullopt;
  const double gqa = HKV != 0 ? std::floor(HQ / HKV) - 1 : 0;
  const double f = (flash ? B * HQ * 2 * NQ * NKV * dqk : 0) + B * HQ * 2 * NKV * NQ * dv + B * NKV * dv * gqa +
                   B * HQ * 2 * NQ * NKV * dv + B * HQ * 2 * NQ * NKV * dqk + B * HQ * 2 * NKV * NQ * dqk +
                   B * NKV * dqk * gqa;
  return causal ? f / 2 : f;
}

}  // namespace

ModelResult eval_sdpa(Model m, const ModelInput& in) {
  ModelResult r;
  r.maf_type = "matrix";
  const EventArgs& g = in.args;
  const SdpaSpec* spec = nullptr;
  for (const SdpaSpec& sp : kSpecs)
    if (sp.model == m) spec = &sp;
  if (!spec) return r;
  const size_t qs = spec->q_slot;
  const bool varlen = spec->layout == Layout::kHND;
  auto q = int_list(at(g.dims, qs)), k = int_list(at(g.dims, qs + 1)), v = int_list(at(g.dims, qs + 2));
  const size_t rank = varlen ? 3 : 4;
  if (!q || !k || !v || q->size() != rank || k->size() != rank || v->size() != rank) return r;
  // (B, H, N, d) through the layout permutation.
  auto bhnd = [&](const std::vector<int64_t>& t) {
    if (varlen) return std::vector<int64_t>{1, t[1], t[0], t[2]};
    return spec->layout == Layout::kBNHD ? std::vector<int64_t>{t[0], t[2], t[1], t[3]} : t;
  };
  const auto Q = bhnd(*q), K = bhnd(*k), V = bhnd(*v);
  if (Q[0] != K[0] || Q[0] != V[0] || K[1] != V[1] || K[2] != V[2] || Q[3] != K[3]) return r;
  // varlen: sequences from the cu_seqlens lengths, max lengths as floats (float(...)).
  int64_t num_seqs_q = 0, num_seqs_kv = 0;
  double max_q = 0, max_kv = 0;
  if (varlen) {
    const size_t cu = spec->model == Model::kFlashAttnVarlenForward ? 3 : 9;
    const size_t mx = spec->model == Model::kFlashAttnVarlenForward ? 5 : 11;
    const auto cq = int_list(at(g.dims, cu)), ck = int_list(at(g.dims, cu + 1));
    const auto mq = concrete_float(at(g.concrete, mx)), mk = concrete_float(at(g.concrete, mx + 1));
    if (!cq || !ck || cq->empty() || ck->empty() || !mq || !mk) return r;
    num_seqs_q = cq->front() - 1, num_seqs_kv = ck->front() - 1, max_q = *mq, max_kv = *mk;
  }
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
    r.param("dtype_A_B", PyValue::tuple({at(g.types, 0), at(g.types, 1)}));
    r.precision_dtype = at(g.types, 0);
  }
  if (varlen) {
    r.param("num_seqs_q", PyValue::integer(num_seqs_q));
    r.param("num_seqs_kv", PyValue::integer(num_seqs_kv));
    r.param("max_seqlen_q", PyValue::real(max_q));
    r.param("max_seqlen_kv", PyValue::real(max_kv));
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
  if (varlen) {
    // flops: the longest sequence, plus (num_seqs_q − 1) sequences sharing the rest
    // evenly (floor division), a lower bound as TraceLens estimates it; bytes from the
    // totals at 2 bytes per element. No exact-causal correction (the lengths are unknown).
    const bool bwd_op = spec->backward;
    auto model = [&](double nq, double nkv) {
      return bwd_op ? bwd_flops_f(1, nq, HQ, nkv, HKV, dqk, dv, causal, flash_impl)
                    : fwd_flops_f(1, nq, HQ, nkv, dqk, dv, causal);
    };
    auto total = model(max_q, max_kv);
    if (total && num_seqs_q > 1) {
      const double rest_q = std::floor((NQ - max_q) / static_cast<double>(num_seqs_q - 1));
      const double rest_kv = num_seqs_kv > 1 ? std::floor((NKV - max_kv) / static_cast<double>(num_seqs_kv - 1)) : NKV - max_kv;
      const auto more = num_seqs_kv > 1 ? model(rest_q, rest_kv) : std::nullopt;  // ZeroDivisionError
      total = more ? std::optional<double>(*total + static_cast<double>(num_seqs_q - 1) * *more) : std::nullopt;
    }
    Metrics& own = r.fwd;
    own = Metrics{};
    if (total) {
      own.status = Status::kOk;
      own.flops = Count::real(*total);
      own.bytes = Count::of((bwd_op ? bwd_elems : fwd_elems) * 2);
      if (bpe && *bpe != 2) own.bytes_corrected = Count::of((bwd_op ? bwd_elems : fwd_elems) * *bpe);
    } else {
      own.status = Status::kError;
    }
    if (bwd_op) {
      r.bwd = Metrics{};
      r.bwd.status = Status::kNotImplemented;
    } else {
      r.bwd.flops_corrected.reset();  // the base flops_bwd over the totals, as TraceLens
    }
    return r;
  }
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
