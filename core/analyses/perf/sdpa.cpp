// SDPA models (tracelens-semantics.md §6.4): aten::_scaled_dot_product_{flash,efficient,
// cudnn}_attention and flash_attn::_flash_attn_forward / FlashAttnFunc.
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

}  // namespace

ModelResult eval_sdpa(Model m, const ModelInput& in) {
  ModelResult r;
  r.maf_type = "matrix";
  const EventArgs& g = in.args;
  const bool bnhd = m == Model::kFlashAttnForward;
  auto q = int_list(at(g.dims, 0)), k = int_list(at(g.dims, 1)), v = int_list(at(g.dims, 2));
  if (!q || !k || !v || q->size() != 4 || k->size() != 4 || v->size() != 4) return r;
  // (B, H, N, d) through the layout permutation.
  auto bhnd = [&](const std::vector<int64_t>& t) {
    return bnhd ? std::vector<int64_t>{t[0], t[2], t[1], t[3]} : t;
  };
  const auto Q = bhnd(*q), K = bhnd(*k), V = bhnd(*v);
  if (Q[0] != K[0] || Q[0] != V[0] || K[1] != V[1] || K[2] != V[2] || Q[3] != K[3]) return r;
  const int64_t B = Q[0], HQ = Q[1], NQ = Q[2], NKV = K[2], HKV = K[1], dqk = Q[3], dv = V[3];

  std::optional<double> dropout;
  bool causal = false;
  const bool flash_impl = m == Model::kSdpaFlash || m == Model::kFlashAttnForward;
  const PyValue& c = g.concrete;
  auto text_bool = [](const PyValue& p) {
    if (p.kind == PyValue::Kind::kBool) return p.b;
    return p.kind == PyValue::Kind::kStr && lower(p.s) == "true";
  };
  switch (m) {
    case Model::kSdpaFlash: dropout = concrete_float(at(c, 3)); causal = text_bool(at(c, 4)); break;
    case Model::kSdpaEfficient:
    case Model::kSdpaCudnn: dropout = concrete_float(at(c, 5)); causal = text_bool(at(c, 6)); break;
    case Model::kFlashAttnForward: {
      dropout = concrete_float(at(c, 3));
      const PyValue& cv = at(c, 5);  // eval(Concrete[5]): "True" / "False"
      if (cv.kind != PyValue::Kind::kStr || (cv.s != "True" && cv.s != "False")) return r;
      causal = cv.s == "True";
      break;
    }
    default: return r;
  }
  if (!dropout) return r;
  r.param("B", PyValue::integer(B));
  r.param("N_Q", PyValue::integer(NQ));
  r.param("H_Q", PyValue::integer(HQ));
  r.param("N_KV", PyValue::integer(NKV));
  r.param("H_KV", PyValue::integer(HKV));
  r.param("d_h_qk", PyValue::integer(dqk));
  r.param("d_h_v", PyValue::integer(dv));
  if (m == Model::kFlashAttnForward) {
    r.param("q_stride", at(g.strides, 0).as_tuple());
    r.param("k_stride", at(g.strides, 1).as_tuple());
    r.param("v_stride", at(g.strides, 2).as_tuple());
  }
  r.param("dropout", PyValue::real(*dropout));
  r.param("causal", PyValue::boolean(causal));
  r.param("flash_impl", PyValue::boolean(flash_impl));
  r.param("dtype_A_B", PyValue::tuple({at(g.types, 0), at(g.types, 1)}));
  r.precision_dtype = at(g.types, 0);
  r.status = Status::kOk;

  const int64_t pairs_full = NQ * NKV;
  const int64_t pairs_exact = causal ? causal_pairs(NQ, NKV, m == Model::kFlashAttnForward) : pairs_full;
  const auto bpe = bytes_per_element(at(g.types, 0));

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
  return r;
}

}  // namespace sollens::perf
