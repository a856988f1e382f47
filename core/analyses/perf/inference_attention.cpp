// The inference attention models (TraceLens's InferenceAttention extensions, sheet
// InferenceAttention_fwd): vLLM / aiter / SGLang paged, varlen, MLA and unified
// attention. Most read the request aggregates of the step annotation the op lies in
// (iteration_annotation.h: c_ context, g_ generation; Σsq, Σsk, Σsq², Σsq·sk) and the
// head shapes from the op's args:
//   flops = H_Q·(2·c_sqsk·d_qk) + H_Q·(2·c_sqsk·d_v) − H_Q·c_sqsq·d_qk − H_Q·c_sqsq·d_v
//         + H_Q·(2·g_sqsk·d_qk) + H_Q·(2·g_sqsk·d_v)
//   bytes = [c_sq·(H_Q·d_qk + H_Q·d_v + H_KV·d_qk + H_KV·d_v) + g_sq·(same)]·bpe_Q
//         + [(c_sk − c_sq) + (g_sk − g_sq)]·H_KV·(d_qk + d_v)·bpe_KV
// (B = 1; bpe_Q from dtype_Q, else 2; bpe_KV from dtype_KV, else bpe_Q). A sliding
// window W caps g_sqsk and g_sk at g_sq·W. An op whose annotation TraceLens cannot read
// gets no params and no metrics (its "no perf" placeholder); a step with neither
// context nor generation tokens raises NotImplementedError in flops(). The sparse MLA
// prefill, GDN linear attention and SGLang's KV-cache store have their own formulas
// (below). Written from TraceLens's extension sources as stored (see TRACELENS_COMPAT.md).
#include <algorithm>
#include <cmath>
#include <string>

#include "analyses/perf/iteration_annotation.h"
#include "analyses/perf/models.h"

namespace sollens::perf {

namespace {

struct Heads {
  int64_t N_Q = 0, H_Q = 0, H_KV = 0, N_KV = 0, d_qk = 0, d_v = 0;
  int64_t H_V = 0, H_K = 0;  // H_KV unless the model says otherwise
};

struct Attention {
  Heads h;
  ChunkStats st;
  PyValue dtype_Q, dtype_KV;
  int64_t sliding_window = 0;  // ≤ 0: no window
};

// A shape of exactly `n` ints (Python's tuple unpacking).
std::optional<std::vector<int64_t>> exact(const PyValue& dims, size_t k, size_t n) {
  auto s = int_list(at(dims, k));
  if (!s || s->size() != n) return std::nullopt;
  return s;
}
// A shape of at least `n` ints (indexing).
std::optional<std::vector<int64_t>> at_least(const PyValue& dims, size_t k, size_t n) {
  auto s = int_list(at(dims, k));
  if (!s || s->size() < n) return std::nullopt;
  return s;
}
bool has(const PyValue& seq, size_t k) { return seq.is_seq() && k < seq.size(); }

PyValue products(double v, bool is_float) {
  return is_float ? PyValue::real(v) : PyValue::integer(static_cast<int64_t>(v));
}

void head_params(ModelResult& r, const Heads& h, bool with_attention_flags = true) {
  r.param("B", PyValue::integer(1));
  r.param("N_Q", PyValue::integer(h.N_Q));
  r.param("H_Q", PyValue::integer(h.H_Q));
  r.param("H_V", PyValue::integer(h.H_V));
  r.param("H_K", PyValue::integer(h.H_K));
  r.param("N_KV", PyValue::integer(h.N_KV));
  r.param("H_KV", PyValue::integer(h.H_KV));
  r.param("d_h_qk", PyValue::integer(h.d_qk));
  r.param("d_h_v", PyValue::integer(h.d_v));
  if (!with_attention_flags) return;
  r.param("dropout", PyValue::real(0.0));
  r.param("causal", PyValue::boolean(false));
  r.param("flash_impl", PyValue::boolean(true));
}

// The c_/g_ aggregates in TraceLens's key order; `kv_unknown_key`: the stats dict is
// spread into the params as is, with its _kv_unknown marker.
void stats_params(ModelResult& r, const ChunkStats& s, bool kv_unknown_key) {
  r.param("c_sq", PyValue::integer(s.c_sq));
  r.param("c_sk", PyValue::integer(s.c_sk));
  r.param("c_sqsq", products(s.c_sqsq, s.c_products_are_float));
  r.param("c_sqsk", products(s.c_sqsk, s.c_products_are_float));
  r.param("g_sq", PyValue::integer(s.g_sq));
  r.param("g_sk", PyValue::integer(s.g_sk));
  r.param("g_sqsq", PyValue::integer(s.g_sqsq));
  r.param("g_sqsk", PyValue::integer(s.g_sqsk));
  if (kv_unknown_key && s.kv_unknown) r.param("_kv_unknown", PyValue::boolean(true));
}

int64_t capped(const Attention& a, int64_t value) {
  const int64_t w = a.sliding_window;
  return w > 0 && a.st.g_sq != 0 ? std::min(value, a.st.g_sq * w) : value;
}

template <typename T>
T attention_flops(const Heads& h, T c_sqsk, T c_sqsq, int64_t g_sqsk) {
  T ctx_qk = static_cast<T>(h.H_Q) * (2 * c_sqsk * static_cast<T>(h.d_qk));
  T ctx_pv = static_cast<T>(h.H_Q) * (2 * c_sqsk * static_cast<T>(h.d_v));
  ctx_qk -= static_cast<T>(h.H_Q) * (1 * c_sqsq * static_cast<T>(h.d_qk));
  ctx_pv -= static_cast<T>(h.H_Q) * (1 * c_sqsq * static_cast<T>(h.d_v));
  const int64_t gen_qk = h.H_Q * (2 * g_sqsk * h.d_qk), gen_pv = h.H_Q * (2 * g_sqsk * h.d_v);
  return ctx_qk + ctx_pv + static_cast<T>(gen_qk) + static_cast<T>(gen_pv);
}

int64_t bpe_or(const PyValue& dtype, int64_t fallback) {
  const auto b = dtype.truthy() ? bytes_per_element(dtype) : std::nullopt;
  return b && *b ? *b : fallback;
}

// InferenceAttention.flops() / bytes(); `no_flops`: flops() returns None (SGLang
// decode, whose KV length is unknown), which sollens cannot carry without bytes.
void attention_metrics(ModelResult& r, const Attention& a, bool no_flops = false) {
  Metrics& f = r.fwd;
  if (no_flops) {
    f.status = Status::kError;
    return;
  }
  const ChunkStats& s = a.st;
  if (s.c_sq == 0 && s.g_sq == 0) {
    f.status = Status::kNotImplemented;  // decode needs the custom annotation
    return;
  }
  const int64_t g_sqsk = capped(a, s.g_sqsk), g_sk = capped(a, s.g_sk);
  if (s.c_products_are_float) f.flops = Count::real(attention_flops<double>(a.h, s.c_sqsk, s.c_sqsq, g_sqsk));
  else
    f.flops = Count::of(attention_flops<int64_t>(a.h, static_cast<int64_t>(s.c_sqsk), static_cast<int64_t>(s.c_sqsq), g_sqsk));
  const int64_t bpe = bpe_or(a.dtype_Q, 2), bpe_kv = bpe_or(a.dtype_KV, bpe);
  const Heads& h = a.h;
  const int64_t per_new_token = h.H_Q * h.d_qk + h.H_Q * h.d_v + h.H_KV * h.d_qk + h.H_KV * h.d_v;
  const int64_t per_cached_token = h.H_KV * h.d_qk + h.H_KV * h.d_v;
  const int64_t q_elems = (s.c_sq + s.g_sq) * per_new_token;
  const int64_t kv_elems = ((s.c_sk - s.c_sq) + (g_sk - s.g_sq)) * per_cached_token;
  f.bytes = Count::of(q_elems * bpe + kv_elems * bpe_kv);
  f.status = Status::kOk;
}

void attention_result(ModelResult& r, const PyValue& precision_dtype) {
  r.status = Status::kOk;
  r.maf_type = "matrix";
  if (precision_dtype.truthy()) r.precision_dtype = precision_dtype;
}

// The params and metrics of the paged models with a sliding window (aiter's paged
// decode, the DeepSeek-V4 pseudo ops): heads, chunk stats, dtypes, window.
ModelResult windowed_paged_result(ModelResult& r, const Attention& a) {
  head_params(r, a.h);
  stats_params(r, a.st, true);
  r.param("dtype_Q", a.dtype_Q);
  r.param("dtype_KV", a.dtype_KV);
  r.param("sliding_window", PyValue::integer(a.sliding_window));
  attention_result(r, a.dtype_Q);
  attention_metrics(r, a);
  return r;
}

// InferenceAttention.get_param_details: q (N_Q, H_Q, d_qk) = dims[0], k = dims[1]
// (its last three: N_KV, H_KV, d_v), dtype_Q = types[0], dtype_KV = types[1].
ModelResult base_attention(const ModelInput& in, bool v_dim_from_dims2, bool v_dim_512) {
  ModelResult r;
  r.bwd.status = Status::kNotImplemented;
  const EventArgs& g = in.args;
  const auto stats = chunk_stats(in.annotation);
  const auto q = exact(g.dims, 0, 3);
  const auto k = at_least(g.dims, 1, 3);
  if (!stats || !q || !k || !has(g.types, 0)) return r;  // the "no perf" placeholder
  Attention a;
  a.st = *stats;
  a.h.N_Q = (*q)[0], a.h.H_Q = (*q)[1], a.h.d_qk = (*q)[2];
  const size_t n = k->size();
  a.h.N_KV = (*k)[n - 3], a.h.H_KV = (*k)[n - 2], a.h.d_v = (*k)[n - 1];
  a.h.H_V = a.h.H_K = a.h.H_KV;
  a.dtype_Q = g.types[0];
  a.dtype_KV = has(g.types, 1) ? g.types[1] : a.dtype_Q;
  const bool kv_unknown = a.st.kv_unknown;
  if (kv_unknown) a.st.g_sk = a.st.g_sq;  // the cached-KV byte term vanishes
  if (v_dim_from_dims2) {
    const auto v = int_list(at(g.dims, 2));
    if (v && !v->empty()) a.h.d_v = v->back();
  }
  if (v_dim_512) a.h.d_v = 512;
  head_params(r, a.h);
  stats_params(r, a.st, false);
  r.param("dtype_Q", a.dtype_Q);
  r.param("dtype_KV", a.dtype_KV);
  if (kv_unknown) {
    r.param("_no_flops", PyValue::boolean(true));
    r.param("_kv_unknown", PyValue::boolean(true));
  }
  attention_result(r, a.dtype_Q);
  attention_metrics(r, a, kv_unknown);
  return r;
}

// aiter paged_attention_ragged (SGLang): q = dims[2], k cache dims[3] (H_KV = [-2]),
// v cache dims[4] (d_v = [-1]), N_KV = c_sk + g_sk, dtype_Q = types[2]; no dtype_KV.
ModelResult paged_attention_ragged(const ModelInput& in) {
  ModelResult r;
  r.bwd.status = Status::kNotImplemented;
  const EventArgs& g = in.args;
  const auto stats = chunk_stats(in.annotation);
  const auto q = exact(g.dims, 2, 3);
  const auto k = at_least(g.dims, 3, 2);
  const auto v = at_least(g.dims, 4, 1);
  if (!stats || !q || !k || !v || !has(g.types, 2)) return r;
  Attention a;
  a.st = *stats;
  a.h.N_Q = (*q)[0], a.h.H_Q = (*q)[1], a.h.d_qk = (*q)[2];
  a.h.H_KV = a.h.H_V = a.h.H_K = (*k)[k->size() - 2];
  a.h.d_v = v->back();
  a.h.N_KV = a.st.c_sk + a.st.g_sk;
  a.dtype_Q = g.types[2];
  head_params(r, a.h);
  stats_params(r, a.st, true);
  r.param("dtype_Q", a.dtype_Q);
  attention_result(r, a.dtype_Q);
  attention_metrics(r, a);
  return r;
}

// Python's int() of a Concrete Inputs string; 0 where it raises.
int64_t concrete_int_or_zero(const PyValue& concrete, size_t k) {
  const PyValue& v = at(concrete, k);
  if (v.kind == PyValue::Kind::kInt) return v.i;
  if (v.kind != PyValue::Kind::kStr) return 0;
  std::string t = v.s;
  t.erase(0, t.find_first_not_of(' '));
  t.erase(t.find_last_not_of(' ') + 1);
  if (t.empty()) return 0;
  size_t used = 0;
  try {
    const long long x = std::stoll(t, &used);
    return used == t.size() ? x : 0;
  } catch (...) {
    return 0;
  }
}

// aiter pa_decode_gluon: decode only (c_ aggregates zeroed), q = dims[0], H_KV =
// dims[2][1], d_v = d_qk, dtype_KV = types[2], the sliding window from Concrete[19].
ModelResult pa_decode_gluon(const ModelInput& in) {
  ModelResult r;
  r.bwd.status = Status::kNotImplemented;
  const EventArgs& g = in.args;
  const auto stats = chunk_stats(in.annotation);
  const auto q = at_least(g.dims, 0, 3);
  const auto k = at_least(g.dims, 2, 2);
  if (!stats || !q || !k || !has(g.types, 0)) return r;
  Attention a;
  a.st = *stats;
  a.st.c_sq = a.st.c_sk = 0;
  a.st.c_sqsq = a.st.c_sqsk = 0;
  a.st.c_products_are_float = false;
  a.h.N_Q = (*q)[0], a.h.H_Q = (*q)[1], a.h.d_qk = (*q)[2];
  a.h.H_KV = a.h.H_V = a.h.H_K = (*k)[1];
  a.h.d_v = a.h.d_qk;
  a.h.N_KV = a.st.g_sk;
  a.dtype_Q = g.types[0];
  a.dtype_KV = has(g.types, 2) ? g.types[2] : g.types[0];
  a.sliding_window = concrete_int_or_zero(g.concrete, 19);
  return windowed_paged_result(r, a);
}

// DeepSeek-V4 paged decode (pseudo ops): one latent KV head, bf16, decode only. Its
// per-model settings come from args the pseudo-op pass writes (v4_*); without them,
// TraceLens's DeepSeek-V4-Flash defaults: 64 query heads, head dim 512, window 128,
// index top-k 512. The KV span each query attends to: swa the window; csa the window
// + min(⌈mean ctx / 4⌉, top-k); hca the window + ⌈mean ctx / 128⌉ (mean ctx = g_sk/g_sq).
ModelResult v4_paged_decode(Model m, const ModelInput& in) {
  constexpr int64_t kHeads = 64, kHeadDim = 512, kWindow = 128, kIndexTopk = 512;
  ModelResult r;
  r.bwd.status = Status::kNotImplemented;
  const auto stats = chunk_stats(in.annotation);
  if (!stats) return r;
  Attention a;
  a.st = *stats;
  a.st.c_sq = a.st.c_sk = 0;
  a.st.c_sqsq = a.st.c_sqsk = 0;
  a.st.c_products_are_float = false;
  a.h.H_Q = kHeads, a.h.d_qk = a.h.d_v = kHeadDim;
  a.h.H_KV = a.h.H_V = a.h.H_K = 1;
  a.h.N_Q = a.st.g_sq;
  const PyValue& q = at(in.args.dims, 0);
  if (q.is_seq() && q.size() >= 1 && q[0].is_int() && q[0].i != 0) a.h.N_Q = q[0].i;
  a.h.N_KV = a.st.g_sk;
  const double mean_ctx = a.st.g_sq > 0 ? static_cast<double>(a.st.g_sk) / static_cast<double>(a.st.g_sq) : 0;
  if (m == Model::kV4PagedDecodeCsa)
    a.sliding_window = a.st.g_sq <= 0 ? kWindow + kIndexTopk
                                      : kWindow + std::min(static_cast<int64_t>(std::ceil(mean_ctx / 4)), kIndexTopk);
  else if (m == Model::kV4PagedDecodeHca)
    a.sliding_window = a.st.g_sq <= 0 ? 0 : kWindow + static_cast<int64_t>(std::ceil(mean_ctx / 128));
  else
    a.sliding_window = kWindow;
  a.dtype_Q = a.dtype_KV = PyValue::str("c10::bfloat16");
  return windowed_paged_result(r, a);
}

// int() of an int or a digit string (IndexError/ValueError: nullopt).
std::optional<int64_t> first_dim(const PyValue& dims, size_t k) {
  const PyValue& d = at(dims, k);
  if (!d.is_seq() || d.size() == 0 || !d[0].is_int()) return std::nullopt;
  return d[0].i;
}

// aiter pa_sparse_prefill_opus_fwd (DeepSeek-V4 sparse prefill), no annotation:
// pairs = dims[2][0] + dims[5][0] (query-token, KV-slot) pairs;
// flops = pairs·H_Q·2·(d_qk + d_v); bytes = 2·N_Q·H_Q·d_qk·bpe_Q + pairs·d_v·bpe_KV.
ModelResult pa_sparse_prefill(const ModelInput& in) {
  ModelResult r;
  r.bwd.status = Status::kNotImplemented;
  const EventArgs& g = in.args;
  const auto q = at_least(g.dims, 0, 3);
  const auto prefix = first_dim(g.dims, 2), extend = first_dim(g.dims, 5);
  if (!q || !prefix || !extend || !has(g.types, 0)) return r;
  Heads h;
  h.N_Q = (*q)[0], h.H_Q = (*q)[1], h.d_qk = h.d_v = (*q)[2];
  h.H_KV = h.H_V = h.H_K = 1;
  const int64_t pairs = *prefix + *extend;
  h.N_KV = pairs;
  const PyValue dtype_Q = g.types[0];
  const PyValue dtype_KV = has(g.types, 1) ? g.types[1] : dtype_Q;
  head_params(r, h);
  r.param("prefill_pairs", PyValue::integer(pairs));
  r.param("dtype_Q", dtype_Q);
  r.param("dtype_KV", dtype_KV);
  attention_result(r, dtype_Q.truthy() ? dtype_Q : PyValue::str("c10::bfloat16"));
  const int64_t bpe = bpe_or(dtype_Q, 2), bpe_kv = bpe_or(dtype_KV, bpe);
  r.fwd.flops = Count::of(pairs * h.H_Q * 2 * (h.d_qk + h.d_v));
  r.fwd.bytes = Count::of(2 * h.N_Q * h.H_Q * h.d_qk * bpe + pairs * h.d_v * bpe_kv);
  r.fwd.status = Status::kOk;
  return r;
}


// vLLM gdn_attention_core (Gated Delta Network linear attention): mixed_qkv dims[0] =
// (T, 2·H_K·d_k + H_V·d_v), b dims[1] = (T, H_V), out dims[3] = (T, H_V, d_v), H_K =
// H_V // 2. Per token and value head: 7·d_v·d_k FLOPs; H_V·(d_k + 2·d_v + 2) elements
// of 2 bytes per token; tokens = c_sq + g_sq of the annotation (which must carry the
// aggregates: otherwise the model cannot be built).
ModelResult gdn_attention_core(const ModelInput& in) {
  ModelResult r;
  r.bwd.status = Status::kNotImplemented;
  const EventArgs& g = in.args;
  const auto stats = chunk_stats(in.annotation);
  const auto mixed = at_least(g.dims, 0, 2), b = at_least(g.dims, 1, 2), out = at_least(g.dims, 3, 3);
  if (!stats || stats->kv_unknown || stats->c_products_are_float || !mixed || !b || !out || !has(g.types, 0))
    return r;
  const int64_t D = (*mixed)[1], H_V = (*b)[1], d_v = (*out)[2];
  const int64_t H_K = floor_div(H_V, 2);
  if (H_K == 0) return r;  // ZeroDivisionError
  const int64_t d_k = floor_div(floor_div(D - H_V * d_v, 2), H_K);
  const int64_t c_sq = stats->c_sq, g_sq = stats->g_sq;
  r.param("B", PyValue::integer(1));
  r.param("N_Q", PyValue::integer(c_sq + g_sq));
  r.param("H_Q", PyValue::integer(H_K));
  r.param("N_KV", PyValue::integer(0));
  r.param("H_KV", PyValue::integer(H_K));
  r.param("H_V", PyValue::integer(H_V));
  r.param("H_K", PyValue::integer(H_K));
  r.param("d_h_qk", PyValue::integer(d_k));
  r.param("d_h_v", PyValue::integer(d_v));
  ChunkStats s;
  s.c_sq = s.c_sk = c_sq;
  s.g_sq = s.g_sk = g_sq;
  stats_params(r, s, false);
  r.param("dtype_Q", g.types[0]);
  attention_result(r, g.types[0]);
  const int64_t tokens = c_sq + g_sq;
  if (tokens == 0) {
    r.fwd.status = Status::kNotImplemented;
    return r;
  }
  r.fwd.flops = Count::of(tokens * H_V * 7 * d_v * d_k);
  r.fwd.bytes = Count::of(tokens * H_V * (d_k + 2 * d_v + 2) * 2);
  r.fwd.status = Status::kOk;
  return r;
}

// SGLang store_cache: k and v rows scattered into the paged KV cache, no math;
// k = dims[0]: bytes = 4·prod(k)·bpe (read k, v; write their cache rows), bpe 2 where
// the dtype has none.
ModelResult sglang_store_cache(const ModelInput& in) {
  ModelResult r;
  r.bwd.status = Status::kNotImplemented;
  const EventArgs& g = in.args;
  const auto k = int_list(at(g.dims, 0));
  if (!k || !has(g.types, 0)) return r;
  const PyValue& dtype = g.types[0];
  const int64_t nelems = prod(*k);
  r.param("op_shape", int_tuple(*k));
  r.param("nelems", PyValue::integer(nelems));
  r.param("dtype", dtype);
  r.status = Status::kOk;
  r.maf_type = "vector";
  if (dtype.truthy()) r.precision_dtype = dtype;
  const auto bpe = dtype.truthy() ? bytes_per_element(dtype) : std::nullopt;
  r.fwd.flops = Count::of(0);
  r.fwd.bytes = Count::of(4 * nelems * (bpe ? *bpe : 2));
  r.fwd.status = Status::kOk;
  return r;
}

}  // namespace

ModelResult eval_inference_attention(Model m, const ModelInput& in) {
  switch (m) {
    case Model::kAiterFmhaV3VarlenFwd:
    case Model::kAiterMhaBatchPrefill:
    case Model::kPseudoMlaPrefillFwd: return base_attention(in, true, false);
    case Model::kMlaTilelangSparseFwd: return base_attention(in, false, true);
    case Model::kAiterPagedAttentionRagged: return paged_attention_ragged(in);
    case Model::kPaDecodeGluon: return pa_decode_gluon(in);
    case Model::kV4PagedDecodeSwa:
    case Model::kV4PagedDecodeCsa:
    case Model::kV4PagedDecodeHca: return v4_paged_decode(m, in);
    case Model::kPaSparsePrefillOpusFwd: return pa_sparse_prefill(in);
    case Model::kGdnAttentionCore: return gdn_attention_core(in);
    case Model::kSglangStoreCache: return sglang_store_cache(in);
    default: return base_attention(in, false, false);
  }
}

}  // namespace sollens::perf
