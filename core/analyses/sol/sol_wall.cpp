#include "analyses/sol/sol_wall.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <vector>

#include "analyses/sol/sol_steps.h"
#include "analyses/sol/sol_tables.h"
#include "base/interval_math.h"
#include "base/nan.h"

namespace sollens {

namespace {


double percent(double part, double whole) { return whole > 0 ? part / whole * 100 : kNaN; }

// The GPU events of each GPU (by pid), by start time.
std::map<StrId, std::vector<uint32_t>> gpu_events_by_device(const EventStore& s, const TraceTree& tree) {
  std::map<StrId, std::vector<uint32_t>> by_device;
  for (uint32_t g : tree.gpu_events) by_device[s.pid[g]].push_back(g);
  for (auto& [pid, events] : by_device)
    std::sort(events.begin(), events.end(),
              [&](uint32_t a, uint32_t b) { return s.ts[a] < s.ts[b] || (s.ts[a] == s.ts[b] && a < b); });
  return by_device;
}

// A gap ending where `next` starts: whose wait was it.
void classify_gap(const EventStore& s, const TraceTree& tree, uint32_t next, double gap_start, double gap,
                  SolWall& w) {
  const int32_t launch = tree.parent[next];
  if (launch == kNoParent) w.idle_other_us += gap;
  else if (s.ts[static_cast<size_t>(launch)] > gap_start) w.idle_host_wait_us += gap;
  else if (gap < kKernelWaitThresholdUs) w.idle_kernel_wait_us += gap;
  else w.idle_other_us += gap;
}

// One GPU's wall, busy time and idle split (the events by start time).
void add_device(const EventStore& s, const TraceTree& tree, const std::vector<uint32_t>& events, SolWall& w) {
  double first = s.ts[events.front()], busy_end = s.t_end(events.front()), busy_start = first;
  for (size_t i = 1; i < events.size(); ++i) {
    const uint32_t e = events[i];
    if (s.ts[e] > busy_end) {
      w.busy_us += busy_end - busy_start;
      classify_gap(s, tree, e, busy_end, s.ts[e] - busy_end, w);
      busy_start = s.ts[e];
    }
    busy_end = std::max(busy_end, s.t_end(e));
  }
  w.busy_us += busy_end - busy_start;
  w.wall_us += busy_end - first;
}

// The step-level pattern whose steps cover the most kernels.
const CyclePattern* main_pattern(const CycleReport& cycles, const KernelSequence** seq) {
  const CyclePattern* best = nullptr;
  size_t best_kernels = 0;
  for (const SequenceCycles& sc : cycles.sequences)
    for (const CyclePattern& p : sc.patterns) {
      const size_t kernels = static_cast<size_t>(p.outer.length) * p.outer.repetitions();
      if (kernels > best_kernels) {
        best = &p;
        best_kernels = kernels;
        *seq = &sc.sequence;
      }
    }
  return best;
}

struct OpRun {
  size_t op;
  double first_start, last_end;
};

}  // namespace

double SolWall::efficiency_pct() const { return percent(sol_us, wall_us); }
double SolStepWall::efficiency_pct() const { return percent(sol_us, wall_us); }

SolWall sol_wall(const EventStore& s, const TraceTree& tree, const SolOps& ops) {
  SolWall w;
  for (const auto& [pid, events] : gpu_events_by_device(s, tree)) add_device(s, tree, events, w);
  IntervalList estimated;
  for (const SolOp& op : ops.ops) {
    if (!op.estimated) continue;
    w.sol_us += op.roofline.estimate_us;
    for (uint32_t k : op.kernels) estimated.push_back({s.ts[k], s.t_end(k)});
  }
  w.estimated_kernel_us = total_length(merge_intervals(std::move(estimated)));
  return w;
}

std::optional<SolStepWall> main_step_wall(const EventStore& s, const SolOps& ops, const CycleReport& cycles) {
  const KernelSequence* seq = nullptr;
  const CyclePattern* p = main_pattern(cycles, &seq);
  if (!p || p->outer.starts.empty()) return std::nullopt;
  SolStepWall step;
  // Outside LLM inference a pattern's phase is "step" or "other": both are training or
  // inference steps to the user.
  step.phase = p->phase == CyclePhase::kDecode ? "decode step" : p->phase == CyclePhase::kPrefill ? "prefill" : "step";
  const std::vector<uint32_t>& starts = p->outer.starts;
  const std::vector<SolSpan> spans = sol_spans(s, ops, *seq, p->outer);
  for (size_t i = 0; i < starts.size(); ++i) {
    const SolSpan& span = spans[i];
    const bool followed = i + 1 < starts.size() && starts[i + 1] == starts[i] + p->outer.length;
    step.wall_us += followed ? seq->ts[starts[i + 1]] - seq->ts[starts[i]] : span.span_us;
    step.sol_us += span.sol_latency_us;
    step.busy_us += span.busy_us;
  }
  step.steps = starts.size();
  const double n = static_cast<double>(step.steps);
  step.wall_us /= n;
  step.sol_us /= n;
  step.busy_us /= n;
  return step;
}

Table with_wall_metrics_first(const Table& metrics, const SolWall& w, const std::optional<SolStepWall>& step) {
  Table m(metrics.name(), metrics.kind());
  m.add_column("metric", ColumnType::kString);
  m.add_column("value", ColumnType::kFloat);
  add_metric(m, "sol/wall_time_ms", w.wall_us / 1e3);
  add_metric(m, "sol/wall_efficiency_pct", w.efficiency_pct());
  if (step) {
    add_metric(m, "sol/steps", static_cast<double>(step->steps));
    add_metric(m, "sol/step_wall_time_ms", step->wall_us / 1e3);
    add_metric(m, "sol/step_sol_time_ms", step->sol_us / 1e3);
    add_metric(m, "sol/step_efficiency_pct", step->efficiency_pct());
  }
  add_metric(m, "sol/wall_kernel_inefficiency_ms", w.kernel_inefficiency_us() / 1e3);
  add_metric(m, "sol/wall_unmodeled_ms", w.unmodeled_us() / 1e3);
  add_metric(m, "sol/wall_idle_ms", w.idle_us() / 1e3);
  add_metric(m, "sol/wall_idle_host_wait_ms", w.idle_host_wait_us / 1e3);
  add_metric(m, "sol/wall_idle_kernel_wait_ms", w.idle_kernel_wait_us / 1e3);
  add_metric(m, "sol/wall_idle_other_ms", w.idle_other_us / 1e3);
  const Column& value = metrics.column(1);
  for (size_t r = 0; r < metrics.num_rows(); ++r)
    add_metric(m, metrics.column(0).string_at(r), value.is_null(r) ? kNaN : value.float_at(r));
  return m;
}

void add_phase_wall_columns(Table& by_phase, const EventStore& s, const SolOps& ops) {
  std::vector<OpRun> runs;
  for (size_t i = 0; i < ops.ops.size(); ++i) {
    const SolOp& op = ops.ops[i];
    if (op.kernels.empty()) continue;
    double end = 0;
    for (uint32_t k : op.kernels) end = std::max(end, s.t_end(k));
    runs.push_back({i, s.ts[op.kernels.front()], end});
  }
  std::stable_sort(runs.begin(), runs.end(), [](const OpRun& a, const OpRun& b) { return a.first_start < b.first_start; });
  std::map<std::string, double> wall_of_phase, sol_of_phase;
  double last_end = 0;
  for (size_t i = 0; i < runs.size(); ++i) {
    const SolOp& op = ops.ops[runs[i].op];
    last_end = std::max(last_end, runs[i].last_end);
    const double until = i + 1 < runs.size() ? runs[i + 1].first_start : last_end;
    wall_of_phase[op.phase] += until - runs[i].first_start;
    if (op.estimated) sol_of_phase[op.phase] += op.roofline.estimate_us;
  }
  Column& wall = by_phase.add_column("wall_time_ms", ColumnType::kFloat, Unit::kMilliseconds);
  Column& eff = by_phase.add_column("wall_efficiency_pct", ColumnType::kFloat, Unit::kPercent);
  const Column& key = by_phase.column(0);
  for (size_t r = 0; r < by_phase.num_rows(); ++r) {
    const std::string& phase = key.string_at(r);
    const double w = wall_of_phase.count(phase) ? wall_of_phase[phase] : 0;
    wall.push_float(w / 1e3);
    const double e = percent(sol_of_phase[phase], w);
    if (std::isnan(e)) eff.push_null();
    else eff.push_float(e);
  }
}

}  // namespace sollens
