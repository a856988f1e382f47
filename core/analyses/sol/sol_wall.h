#pragma once
// Speed of light against the time a user waits: the wall time of the trace, of its main
// step and of each phase, idle included. Kernel time alone hides a GPU that waits on
// the host (a decode loop can be 94 % idle), so the headline is
//   wall efficiency = Σ estimates / wall time
// and the wall splits exactly into
//   wall = sol + kernel_inefficiency + unmodeled + idle
//   idle = host_wait + kernel_wait + other
// host_wait    the GPU was idle and the next kernel's launch call had not yet started
//              (the CPU was late: launch- or host-bound);
// kernel_wait  the next kernel was already queued and the gap is under 30 µs
//              (launch overhead between back-to-back kernels, HTA's threshold);
// other        longer gaps with the kernel queued (waits on other streams, events,
//              syncs) and gaps before a kernel with no launch in the trace.
#include <optional>
#include <string>

#include "analyses/cycles/cycles.h"
#include "analyses/sol/sol_ops.h"
#include "model/trace_tree.h"
#include "store/event_store.h"
#include "table/table.h"

namespace sollens {

struct SolWall {
  double wall_us = 0;              // per GPU, first GPU event's start to the last one's end; summed over GPUs
  double busy_us = 0;              // union of the GPU events, per GPU, summed
  double sol_us = 0;               // Σ estimates of the estimated ops
  double estimated_kernel_us = 0;  // busy time of the estimated ops' kernels
  double idle_host_wait_us = 0, idle_kernel_wait_us = 0, idle_other_us = 0;

  double efficiency_pct() const;  // sol / wall; NaN without wall time
  double kernel_inefficiency_us() const { return estimated_kernel_us - sol_us; }
  double unmodeled_us() const { return busy_us - estimated_kernel_us; }
  double idle_us() const { return wall_us - busy_us; }
};

inline constexpr double kKernelWaitThresholdUs = 30;

SolWall sol_wall(const EventStore& store, const TraceTree& tree, const SolOps& ops);

// The trace's main step (cycles: the step-level pattern covering the most kernels), a
// step's wall time being its period: from its first kernel to the next step's first
// kernel (the last step, and a step not followed by the next: its own span).
struct SolStepWall {
  std::string phase;  // "step", "decode step" or "prefill"
  size_t steps = 0;
  double sol_us = 0, wall_us = 0, busy_us = 0;  // means per step
  double efficiency_pct() const;
};
std::optional<SolStepWall> main_step_wall(const EventStore& store, const SolOps& ops, const CycleReport& cycles);

// The wall metrics, headline first: sol/wall_time_ms, sol/wall_efficiency_pct,
// sol/step_* (when there is a main step), then where the rest of the wall went (kernel
// inefficiency, unmodeled, idle split in three). The kernel-only efficiency
// (sol/kernel_efficiency_pct: Σ estimates / Σ measured of the estimated ops) comes second.
// Returns `metrics` (sol_metrics_table) with these rows put first.
Table with_wall_metrics_first(const Table& metrics, const SolWall& wall, const std::optional<SolStepWall>& step);

// Adds wall_time_ms and wall_efficiency_pct to a table keyed by phase (sol_by_phase):
// the ops in order of their first kernel are cut into runs of one phase; a run's wall
// time reaches from its first kernel to the next run's first kernel (the last run: to
// its last kernel's end), so the phases' wall times add up to the trace's wall.
void add_phase_wall_columns(Table& by_phase, const EventStore& store, const SolOps& ops);

}  // namespace sollens
