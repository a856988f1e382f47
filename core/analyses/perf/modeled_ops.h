#pragma once
// Every tree cpu_op with a perf model, evaluated once and shared by the perf-model
// sheets and unified_perf_summary. Events with the same op name, the same model args
// and (for GEMM, whose transpose flags come from kernel names) the same kernel names
// share one evaluation.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "analyses/perf/args_cache.h"
#include "analyses/perf/model_registry.h"
#include "model/row_map.h"
#include "model/trace_tree.h"
#include "store/event_store.h"

namespace sollens {

struct ModelEval {
  const perf::PerfModelEntry* entry = nullptr;
  uint32_t args = 0;  // ArgsCache id
  perf::ModelResult result;
  std::string compute_spec;
};

// One row of a perf-model sheet before grouping (§4.7).
struct PerfRow {
  uint32_t event = 0;  // the op the row is labelled with (the forward op for bwd rows)
  uint32_t eval = 0;
  bool bwd = false;    // metrics of flops_bwd()/bytes_bwd() over the linked bwd subtree
  uint32_t kernels_begin = 0, kernels_end = 0;  // into ModeledOps::kernels, by ts
  double kernel_us = 0;  // busy time of those kernels
};

struct ModeledOps {
  explicit ModeledOps(const EventStore& store) : args(store) {}
  // A cache: later analyses intern more events' args through a const ModeledOps.
  mutable perf::ArgsCache args;
  std::vector<ModelEval> evals;
  std::vector<PerfRow> rows;       // fwd rows in event order, each bwd row after its fwd row
  std::vector<uint32_t> kernels;   // the rows' kernel lists, back to back
  RowMap eval_of_event;     // per event: index into evals, or -1
  RowMap fwd_row_of_event;  // per event: its fwd row, or -1 (model failed)
  RowMap forward_of_backward;  // forward_events_of_backward()
  RowMap bwd_link;             // linked_backward_events()

  std::span<const uint32_t> kernels_of(const PerfRow& r) const {
    return {kernels.data() + r.kernels_begin, r.kernels_end - r.kernels_begin};
  }
  const perf::Metrics& metrics_of(const PerfRow& r) const {
    const perf::ModelResult& m = evals[r.eval].result;
    return r.bwd ? m.bwd : m.fwd;
  }
};

ModeledOps evaluate_modeled_ops(const EventStore& store, const TraceTree& tree);

// bwd.fwd_event (§2.7): per backward event (autograd::engine::evaluate_function:*), the
// latest-ts op with its Sequence number on another (pid, tid); -1 elsewhere.
RowMap forward_events_of_backward(const EventStore& store);
// Per forward op, its backward event when exactly one links to it (the perf sheets'
// bwd rows), or -1.
RowMap linked_backward_events(const EventStore& store);

// The GPU events below `event` (TraceLens's gpu_events), each once, by ts (ties by
// row), appended to `out`; `stack` is scratch.
void append_subtree_kernels(const EventStore& store, const TraceTree& tree, uint32_t event,
                            std::vector<uint32_t>& out, std::vector<uint32_t>& stack);
// busy_time_us without allocating for the common one-kernel case.
double kernels_busy_us(const EventStore& store, std::span<const uint32_t> kernels);

}  // namespace sollens
