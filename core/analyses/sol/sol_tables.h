#pragma once
// The SOL tables over the ops of sol_ops.h. Every grouping table partitions the ops:
// each op is in exactly one row, so the rows' measured times sum to the total.
// Prefix totals of phases are a table of their own for that reason.
#include <cstddef>
#include <string>

#include "analyses/sol/sol_ops.h"
#include "table/table.h"

namespace sollens {

// Estimated ops only: count, estimated/measured time, Σ estimate / Σ measured,
// FLOPs and bytes, ops faster than their estimate; unmodeled ops apart.
struct SolTotals {
  size_t ops = 0;
  double estimated_us = 0, measured_us = 0, flops = 0;
  double bytes = 0;       // DRAM bytes of the compute and memory ops
  double link_bytes = 0;  // bytes sent over links by the communication ops
  size_t faster_than_estimate = 0;
  // Ops that ran faster than their DRAM roofline, by cause (sol_faster.h): on_chip ones
  // are explained (their estimate is the on-chip bound), the others still count above.
  size_t faster_on_chip = 0, faster_model = 0, faster_device = 0;
  size_t unmodeled_ops = 0;
  double unmodeled_us = 0;
  double efficiency_pct() const;  // NaN when nothing was measured
};
SolTotals sol_totals(const SolOps& ops);

// "metrics": metric, value — the Megatron tracker's sol/* names, then sollens's.
// A row of a (metric, value) table such as sol_metrics: NaN is a null value.
void add_metric(Table& metrics, const std::string& name, double value);
Table sol_metrics_table(const SolOps& ops, double efficiency_factor);

// One row per group, by estimated time (descending): key, count, estimated_time_ms,
// measured_time_ms, efficiency_pct, share_of_estimate_pct, tflop,
// faster_than_estimate_ops, unmodeled_ops, unmodeled_time_ms.
Table sol_by_layer_type_table(const SolOps& ops);
Table sol_by_layer_instance_table(const SolOps& ops);  // + layer_type
Table sol_by_function_table(const SolOps& ops);
Table sol_by_phase_table(const SolOps& ops);           // innermost phases only
// "P (total)" for every proper '/'-prefix P of a phase: Σ over the phases equal to P or
// under "P/". Rows overlap each other and the leaf phases: never add them up.
Table sol_by_phase_prefix_table(const SolOps& ops);
// The layer breakdown of each phase: one row per (phase, layer_type, pass), phases in
// the order they first ran, rows within a phase by estimated time (descending);
// share_of_phase_estimate_pct is the row's share of its phase's estimate. Empty when no
// op has a phase (it would repeat sol_by_layer_type). Partitions the ops like
// sol_by_phase: a phase's rows sum to its sol_by_phase row.
Table sol_by_phase_layer_table(const SolOps& ops);

// Every module instance with all the ops inside it (its own and its submodules'), e.g.
// one row per Qwen2DecoderLayer_<n>: the per-layer view from module frames. Rows nest:
// never add them up. Columns: module (instance path), layer_type, depth, then as above.
Table sol_by_module_table(const SolOps& ops);

// The estimated ops with the largest estimates (per op event), then every other op that
// ran faster than its DRAM roofline, so that each such op says why in its row.
Table sol_top_operations_table(const SolOps& ops, size_t limit = 50);

// Unmodeled time by function and reason (collectives included), then the kernels
// without a launch.
Table sol_unmodeled_table(const SolOps& ops);

}  // namespace sollens
