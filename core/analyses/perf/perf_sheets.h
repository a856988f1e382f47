#pragma once
// The perf-model sheets (tracelens-semantics.md §4.7): GEMM, UnaryElementwise,
// BinaryElementwise, Normalization as single tables; SDPA, CONV, Reduce as
// <Family>_fwd / <Family>_bwd. Rows = every tree cpu_op with a modeled name; bwd rows
// = forward ops with a 1:1 linked autograd evaluate_function event (§2.7), labelled
// with the forward op's name and params. Without roofline columns.
#include <vector>

#include "model/trace_tree.h"
#include "store/event_store.h"
#include "table/table.h"

namespace sollens {

struct PerfSheetOptions {
  // false: TraceLens's FLOPs/bytes in the default columns and the corrected ones in
  // extra "… (corrected)" columns; true: the other way round, the extra columns named
  // "… (TraceLens)". The extra columns exist only in sheets with a corrected value.
  bool corrected = false;
};

// Non-empty sheets only, in a fixed order (GEMM, SDPA_fwd, SDPA_bwd, CONV_fwd, CONV_bwd,
// UnaryElementwise, BinaryElementwise, Normalization, Reduce_fwd, Reduce_bwd).
std::vector<Table> perf_model_tables(const EventStore& store, const TraceTree& tree,
                                     const PerfSheetOptions& options = {});

// bwd.fwd_event links (§2.7): per event, the one 1:1-linked backward event
// (autograd::engine::evaluate_function:*) of a forward op, or -1.
std::vector<int32_t> linked_backward_events(const EventStore& store);

}  // namespace sollens
