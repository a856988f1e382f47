// Two vector ops of tracelens-semantics.md §6.8 with one-tensor models, bytes per
// element of Input type[0] (2 when unknown):
// FusedRoPEFunc: t = Input Dims[0] (seq_len, batch, heads, head_dim), n = prod(t);
//   flops = 3·n (4 multiplies and 2 adds per rotated pair), bytes = 2·n·bpe.
// CrossEntropyFunction: logits = Input Dims[0], batch = logits[0], vocab = logits[-1];
//   flops = 5·batch·vocab, bytes = prod(logits)·bpe + batch·8 (int64 targets) + batch·4
//   (float32 loss). Neither has a backward model.
// The RoPE extension ops count 3 FLOPs and a read plus a write per rotated element:
// aiter::rope_cached_positions_2c_fwd_impl rotates input_x (Input Dims[2]) and input_y
//   ([3]): n = their elements, bytes = 2·n·bpe (Input type[0]).
// sgl_kernel::rotary_embedding (positions, query, key, head_size, cos_sin_cache, ...):
//   n = tokens·(q heads + k heads)·rot_dim, heads = width / head_size (Concrete[3], else
//   q's last dim), rot_dim = cos_sin_cache's second dim; bytes = 2·n·bpe (query's type).
// The fused MLA ops (sheet FusedRoPE) rotate only the pe slices of Q and K and write Q
// and T KV-cache rows: q_nope (T, QH, D_lora), q_pe (T, QH, D_pe), k_nope (T, KH, D_lora)
// (concat_and_cache_mla: a single latent head, KH = 1, and a q_out dtype at [5]);
//   flops = 3·T·(QH + KH)·D_pe
//   bytes = T·QH·(D_lora + D_pe)·(bpe_in + bpe_out) + T·KH·(D_lora + D_pe)·(bpe_in + bpe_kv).
#include <string>

#include "analyses/perf/models.h"

namespace sollens::perf {

namespace {

int64_t bpe_or_2(const PyValue& dtype) {
  if (dtype.kind != PyValue::Kind::kStr || dtype.s.empty()) return 2;
  return bytes_per_element(dtype).value_or(2);
}

// name2bpe, or None for a missing or empty dtype string.
std::optional<int64_t> bpe_of(const PyValue& dtype) {
  if (dtype.kind != PyValue::Kind::kStr || dtype.s.empty()) return std::nullopt;
  return bytes_per_element(dtype);
}

// types[k] if present and non-empty, else `fallback`.
PyValue type_or(const PyValue& types, size_t k, const PyValue& fallback) {
  const PyValue& t = at(types, k);
  return t.kind == PyValue::Kind::kStr && !t.s.empty() ? t : fallback;
}

ModelResult eval_rope_cached_2c(const ModelInput& in) {
  ModelResult r;
  r.maf_type = "vector";
  r.bwd.status = Status::kNotImplemented;
  const auto x = int_list(at(in.args.dims, 2)), y = int_list(at(in.args.dims, 3));
  if (!x || !y) return r;
  const int64_t n = prod(*x) + prod(*y);
  r.param("x_shape", int_tuple(*x));
  r.param("y_shape", int_tuple(*y));
  r.param("num_elements", PyValue::integer(n));
  r.precision_dtype = at(in.args.types, 0);
  r.status = Status::kOk;
  r.fwd.status = Status::kOk;
  r.fwd.flops = Count::of(3 * n);
  r.fwd.bytes = Count::of(2 * n * bpe_or_2(at(in.args.types, 0)));
  return r;
}

ModelResult eval_sgl_rotary_embedding(const ModelInput& in) {
  ModelResult r;
  r.maf_type = "vector";
  r.bwd.status = Status::kNotImplemented;
  const EventArgs& g = in.args;
  const auto q = int_list(at(g.dims, 1)), k = int_list(at(g.dims, 2));
  if (!q || !k || q->size() < 2 || k->size() < 2) return r;
  int64_t head_size = q->back();
  const PyValue& hs = at(g.concrete, 3);
  if (hs.kind == PyValue::Kind::kStr && hs.s.find_first_not_of(" \t") != std::string::npos) {
    try {
      size_t used = 0;
      head_size = std::stoll(hs.s, &used);
      if (used != hs.s.size()) return r;
    } catch (...) {
      return r;  // ValueError
    }
  }
  if (head_size == 0) return r;  // ZeroDivisionError
  int64_t rot_dim = head_size;
  const auto cache = int_list(at(g.dims, 4));
  if (cache && cache->size() > 1) rot_dim = (*cache)[1];
  const auto floor_div = [](int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); };
  const int64_t n = (*q)[0] * (floor_div((*q)[1], head_size) + floor_div((*k)[1], head_size)) * rot_dim;
  r.param("num_elements", PyValue::integer(n));
  r.precision_dtype = at(g.types, 1);
  r.status = Status::kOk;
  r.fwd.status = Status::kOk;
  r.fwd.flops = Count::of(3 * n);
  r.fwd.bytes = Count::of(2 * n * bpe_or_2(at(g.types, 1)));
  return r;
}

}  // namespace

ModelResult eval_rope_ext(Model m, const ModelInput& in) {
  return m == Model::kAiterRopeCached2c ? eval_rope_cached_2c(in) : eval_sgl_rotary_embedding(in);
}

ModelResult eval_fused_qk_rope_mla(Model m, const ModelInput& in) {
  ModelResult r;
  r.maf_type = "vector";
  r.bwd.status = Status::kNotImplemented;
  const EventArgs& g = in.args;
  const auto q_nope = int_list(at(g.dims, 0)), q_pe = int_list(at(g.dims, 1)), k_nope = int_list(at(g.dims, 2));
  const bool concat = m == Model::kFusedQkRopeConcatAndCacheMla;
  if (!q_nope || q_nope->size() != 3 || !q_pe || q_pe->size() < 3) return r;
  if (!concat && (!k_nope || k_nope->size() < 2)) return r;
  const int64_t T = (*q_nope)[0], QH = (*q_nope)[1], D_lora = (*q_nope)[2], D_pe = (*q_pe)[2];
  const int64_t KH = concat ? 1 : (*k_nope)[1];
  const PyValue dtype_in = at(g.types, 0);
  const PyValue dtype_kv = type_or(g.types, 4, dtype_in);
  r.param("T", PyValue::integer(T));
  r.param("QH", PyValue::integer(QH));
  r.param("KH", PyValue::integer(KH));
  r.param("D_lora", PyValue::integer(D_lora));
  r.param("D_pe", PyValue::integer(D_pe));
  r.param("dtype_in", dtype_in);
  r.param("dtype_kv", dtype_kv);
  PyValue dtype_out = dtype_in;
  if (concat) {
    dtype_out = type_or(g.types, 5, dtype_in);
    r.param("dtype_out", dtype_out);
  }
  r.precision_dtype = dtype_in;
  r.status = Status::kOk;
  r.fwd.status = Status::kOk;
  r.fwd.flops = Count::of(3 * (T * QH * D_pe + T * KH * D_pe));
  const auto bpe_in = bpe_of(dtype_in);
  if (!bpe_in) return r;
  // bpe_out: the q_out dtype's (or bpe_in when unknown or 0); bpe_kv likewise.
  const int64_t bpe_out = concat ? bpe_of(dtype_out).value_or(*bpe_in) : *bpe_in;
  const int64_t bpe_kv = bpe_of(dtype_kv).value_or(*bpe_in);
  r.fwd.bytes = Count::of((T * QH * D_lora + T * QH * D_pe) * *bpe_in + (T * KH * D_lora + T * KH * D_pe) * *bpe_in +
                          T * QH * (D_lora + D_pe) * bpe_out + T * KH * (D_lora + D_pe) * bpe_kv);
  return r;
}

ModelResult eval_fused_rope(const ModelInput& in) {
  ModelResult r;
  r.maf_type = "vector";
  r.bwd.status = Status::kNotImplemented;
  const auto t = int_list(at(in.args.dims, 0));
  if (!t || t->size() < 4) return r;
  const int64_t n = prod(*t);
  r.param("seq_len", PyValue::integer((*t)[0]));
  r.param("batch", PyValue::integer((*t)[1]));
  r.param("heads", PyValue::integer((*t)[2]));
  r.param("head_dim", PyValue::integer((*t)[3]));
  r.param("num_elements", PyValue::integer(n));
  r.precision_dtype = at(in.args.types, 0);
  r.status = Status::kOk;
  r.fwd.status = Status::kOk;
  r.fwd.flops = Count::of(3 * n);
  r.fwd.bytes = Count::of(2 * n * bpe_or_2(at(in.args.types, 0)));
  return r;
}

ModelResult eval_cross_entropy(const ModelInput& in) {
  ModelResult r;
  r.maf_type = "vector";
  r.bwd.status = Status::kNotImplemented;
  const auto logits = int_list(at(in.args.dims, 0));
  if (!logits || logits->empty()) return r;
  const int64_t batch = logits->front(), vocab = logits->back();
  r.param("batch", PyValue::integer(batch));
  r.param("vocab_size", PyValue::integer(vocab));
  r.param("logits_shape", at(in.args.dims, 0));  // the raw list: printed [4, 1, 32000]
  r.precision_dtype = at(in.args.types, 0);
  r.status = Status::kOk;
  r.fwd.status = Status::kOk;
  r.fwd.flops = Count::of(5 * batch * vocab);
  r.fwd.bytes = Count::of(prod(*logits) * bpe_or_2(at(in.args.types, 0)) + batch * 8 + batch * 4);
  return r;
}

}  // namespace sollens::perf
