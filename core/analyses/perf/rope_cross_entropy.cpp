// Two vector ops of tracelens-semantics.md §6.8 with one-tensor models, bytes per
// element of Input type[0] (2 when unknown):
// FusedRoPEFunc: t = Input Dims[0] (seq_len, batch, heads, head_dim), n = prod(t);
//   flops = 3·n (4 multiplies and 2 adds per rotated pair), bytes = 2·n·bpe.
// CrossEntropyFunction: logits = Input Dims[0], batch = logits[0], vocab = logits[-1];
//   flops = 5·batch·vocab, bytes = prod(logits)·bpe + batch·8 (int64 targets) + batch·4
//   (float32 loss). Neither has a backward model.
#include "analyses/perf/models.h"

namespace sollens::perf {

namespace {

int64_t bpe_or_2(const PyValue& dtype) {
  if (dtype.kind != PyValue::Kind::kStr || dtype.s.empty()) return 2;
  return bytes_per_element(dtype).value_or(2);
}

}  // namespace

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
