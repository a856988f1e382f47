// MoE token dispatch/combine (tracelens-semantics.md §6.8, class MoEComm): pure data
// movement. Input Dims[0] = (num_tokens, hidden_dim); no FLOPs, bytes = num_tokens ·
// hidden_dim · bpe(Input type[0]) (None when unknown); no Compute Spec; the backward
// (MoEDispatchBackward / MoECombineBackward) moves the same bytes.
#include "analyses/perf/models.h"

namespace sollens::perf {

ModelResult eval_moe_comm(const ModelInput& in) {
  ModelResult r;
  const PyValue& tokens = at(in.args.dims, 0);
  const PyValue num_tokens = at(tokens, 0), hidden_dim = at(tokens, 1);
  const int64_t bpe = bytes_per_element(at(in.args.types, 0)).value_or(0);  // 0: None
  r.param("num_tokens", num_tokens);
  r.param("hidden_dim", hidden_dim);
  r.param("bpe", bpe > 0 ? PyValue::integer(bpe) : PyValue::none());
  r.status = Status::kOk;
  for (Metrics* m : {&r.fwd, &r.bwd}) {
    m->status = Status::kOk;
    m->flops = Count::of(0);
    if (num_tokens.is_int() && hidden_dim.is_int() && bpe > 0) m->bytes = Count::of(num_tokens.i * hidden_dim.i * bpe);
  }
  return r;
}

}  // namespace sollens::perf
