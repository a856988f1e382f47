#pragma once
// What each compared run is and how long it took, so a comparison reads itself: the
// device each trace names, its wall time as the user feels it, and its GPU time split
// by where it was launched from. GPU events with no launch in the trace are left out of
// TraceLens's sheets (gpu_timeline, ops_summary); here they are counted, and added to
// the compared ops as a row of their own, so the ops add up to the run's GPU time.
#include <optional>
#include <string>
#include <vector>

#include "analyses/diff/table_compare.h"
#include "model/trace_tree.h"
#include "store/event_store.h"
#include "table/table.h"

namespace sollens {

// The ops_summary rows that stand for GPU time no op's row counts.
inline constexpr const char* kNoLaunchRow = "(kernels with no launch in the trace)";
inline constexpr const char* kOutsideOpsRow = "(kernels launched outside any op)";

struct RunFacts {
  std::string device;        // deviceProperties' name as the trace wrote it; "" unknown
  bool from_trace = false;   // false: a stored report (its sheets alone)
  // Every GPU event (kernel, memcpy, memset), launched or not. A stored report knows
  // only its gpu_timeline: wall and busy from it, the rest unknown.
  double wall_us = 0;        // first GPU event's start to the last one's end, idle included
  double busy_us = 0;        // the union of the GPU events' intervals
  std::optional<double> gpu_time_us;      // Σ durations
  std::optional<double> no_launch_us;     // Σ durations of GPU events with no launch
  size_t no_launch_events = 0;
  std::optional<double> ops_us;           // Σ ops_summary's direct kernel time
};

// A loaded trace's facts; `device` as the trace names it ("" when it names none).
RunFacts trace_run_facts(const EventStore& store, const TraceTree& tree, std::string device,
                         const std::vector<Table>& sheets);
// A stored report's facts, from its gpu_timeline (and ops_summary when there).
RunFacts stored_run_facts(const std::vector<Table>& sheets);

// GPU time launched, but by no op ops_summary counts (e.g. a launch from Python code
// with no aten op around it): gpu time − no-launch time − the ops' time, never below 0.
std::optional<double> outside_ops_us(const RunFacts& run);

// The run's ops_summary with a row per GPU time no op counts (kNoLaunchRow,
// kOutsideOpsRow, each only when above zero), so the op comparison adds up.
void add_unattributed_op_rows(std::vector<Table>& sheets, const RunFacts& run);

// compare_runs: one row per run (name, role, device, wall, busy, GPU time and its split).
Table compare_runs_table(const RunFacts& baseline, const RunFacts& variant, const CompareTags& tags);

// compare_verdict: one row, the headline in words by the runs' names ("mi300x is 10.5 %
// faster than h100: …") and its figures: which run is faster, the wall times, the change.
Table compare_verdict_table(const RunFacts& baseline, const RunFacts& variant, const CompareTags& tags);

}  // namespace sollens
