#pragma once
// The perf-model sheets (tracelens-semantics.md §4.7): GEMM, UnaryElementwise,
// BinaryElementwise, Normalization as single tables; SDPA, CONV, Reduce as
// <Family>_fwd / <Family>_bwd. Rows = every tree cpu_op with a modeled name; bwd rows
// = forward ops with a 1:1 linked autograd evaluate_function event (§2.7), labelled
// with the forward op's name and params. With a device, the roofline columns of
// TraceLens's arch-file report (§4.7, §6.1) after Compute Spec.
#include <cstdint>
#include <vector>

#include "analyses/ops/process_names.h"
#include "analyses/perf/modeled_ops.h"
#include "devices/device_db.h"
#include "model/trace_tree.h"
#include "store/event_store.h"
#include "table/table.h"

namespace sollens {

struct PerfSheetOptions {
  // false: TraceLens's FLOPs/bytes in the default columns and the corrected ones in
  // extra "… (corrected)" columns; true: the other way round, the extra columns named
  // "… (TraceLens)". The extra columns exist only in sheets with a corrected value.
  bool corrected = false;
  // The GPU of the roofline columns (our dense-peak ceilings, roofline.h); null: no
  // roofline columns, as TraceLens without an arch file.
  const DeviceSpec* device = nullptr;
  // TraceLens --detect_recompute: one flag per event (recompute.h); rows are grouped by
  // their event's flag too, shown in an is_recompute column after the params. Null: none.
  const std::vector<uint8_t>* recompute = nullptr;
  // TraceLens --group_by_num_kernels: rows grouped by their kernel count too (the GPU
  // events of the op's subtree, or of its bwd subtree for bwd rows), shown in a
  // num_kernels column after the params (before is_recompute).
  bool group_by_num_kernels = false;
};

// Non-empty sheets only, in perf_sheet_names()'s order (the families of model_list.h:
// GEMM, SDPA_fwd, SDPA_bwd, CONV_fwd, CONV_bwd, UnaryElementwise, BinaryElementwise,
// Normalization, Reduce_fwd, Reduce_bwd, MoE_comm_fwd, MoE_comm_bwd, SSM_fwd, SSM_bwd,
// RoPE_fwd, RoPE_bwd, CrossEntropy_fwd, CrossEntropy_bwd).
std::vector<Table> perf_model_tables(const EventStore& store, const ModeledOps& ops,
                                     const ProcessThreadNames& names, const PerfSheetOptions& options = {});
// The same, reading the process and thread names first.
std::vector<Table> perf_model_tables(const EventStore& store, const ModeledOps& ops,
                                     const PerfSheetOptions& options = {});
// The same, evaluating the models first.
std::vector<Table> perf_model_tables(const EventStore& store, const TraceTree& tree,
                                     const PerfSheetOptions& options = {});

}  // namespace sollens
