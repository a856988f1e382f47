#pragma once
// Speed of light of PyTorch's attention ops, forward and backward, as the matmul work
// they are. The perf models (TraceLens's) cover only the forward composites; the SOL
// tables need every name PyTorch emits, and they must not change TraceLens's sheets, so
// this model lives here and is read only by the SOL ops.
//
// MACs per (batch, query head) are those of QKᵀ and PV over the unmasked (query, key)
// pairs: pairs · (d_qk + d_v). A backward op runs five matmuls, QKᵀ recomputed, dP, dV,
// dQ and dK: pairs · (3 d_qk + 2 d_v), 2.5× the forward when d_qk = d_v. K and V heads
// may be fewer than query heads (GQA): MACs follow the query heads, bytes the K/V heads.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analyses/perf/event_args.h"
#include "analyses/perf/modeled_ops.h"
#include "analyses/sol/sol_ops.h"
#include "model/trace_tree.h"
#include "store/event_store.h"

namespace sollens {

struct AttentionShape {
  int64_t batch = 0, heads_q = 0, heads_kv = 0, seq_q = 0, seq_kv = 0, d_qk = 0, d_v = 0;
  int64_t sequences = 0;  // varlen: sequences packed in the batch (0: not varlen)
};

struct AttentionWork {
  bool ok = false;
  std::string why_not;  // when !ok
  bool backward = false;
  bool causal = false;
  AttentionShape shape;
  double pairs = 0;  // unmasked (query, key) pairs per (batch, query head)
  double macs = 0;
  double flops = 0;  // 2 · macs
  double bytes = 0;  // q, k, v read and the output written (backward: with dO, dQ, dK, dV)
  std::string compute_spec;  // "matrix_bf16", ...
  std::string note;          // what the row should say: causal, backward, varlen
};

// True for the attention op names this model reads (launcher: whether the op launches
// kernels itself; aten::scaled_dot_product_attention counts only then, since its math
// path is bmm and softmax ops with estimates of their own).
bool is_sol_attention_op(std::string_view name, bool launcher);

// The work of one attention op from its recorded args; !ok with the reason when they
// cannot be read.
AttentionWork attention_work(std::string_view name, const perf::EventArgs& args);

// The op a kernel launcher's kernels count for: the outermost attention op above it (a
// composite and the leaf it calls are one op), else the innermost op with a perf model at
// or above it; -1 when there is none. An op with a perf model between the launcher and
// the attention op keeps its own kernels.
class SolOpFinder {
 public:
  SolOpFinder(const EventStore& store, const TraceTree& tree, const ModeledOps& modeled);
  int32_t op_of_launcher(uint32_t launcher);
  bool is_attention(uint32_t event, bool launcher);

 private:
  const EventStore& store_;
  const TraceTree& tree_;
  const ModeledOps& modeled_;
  std::vector<int8_t> attention_name_;  // per StrId: -1 unknown, 0 no, 1 yes, 2 only as a launcher
};

// Roofline estimate of the attention op `op.event` into `op` (compute spec, counts, note,
// estimate or the reason there is none); its args are read through `modeled`'s cache.
void estimate_attention_op(SolOp& op, const AttentionWork& work, const DeviceSpec* device, const SolOptions& options);
void estimate_attention_op(SolOp& op, const ModeledOps& modeled, const DeviceSpec* device, const SolOptions& options);

}  // namespace sollens
