#include "analyses/sol/sol_steps.h"

#include <algorithm>
#include <limits>

#include "base/interval_math.h"

namespace sollens {

namespace {

std::vector<double> kernel_time_per_op(const EventStore& s, const SolOps& ops) {
  std::vector<double> t(ops.ops.size(), 0);
  for (size_t i = 0; i < ops.ops.size(); ++i)
    for (uint32_t k : ops.ops[i].kernels) t[i] += s.dur[k];
  return t;
}

SolSpan span_of(const EventStore& s, const SolOps& ops, const std::vector<double>& op_kernel_us,
                const KernelSequence& seq, uint32_t first, uint32_t length) {
  IntervalList all, estimated;
  SolSpan r;
  double start = std::numeric_limits<double>::infinity(), end = -start;
  for (uint32_t i = first; i < first + length && i < seq.size(); ++i) {
    const uint32_t k = seq.rows[i];
    const Interval iv{s.ts[k], s.t_end(k)};
    start = std::min(start, iv.start);
    end = std::max(end, iv.end);
    all.push_back(iv);
    const int32_t op = ops.op_of_gpu_event[k];
    if (op < 0) continue;
    const SolOp& o = ops.ops[static_cast<size_t>(op)];
    if (!o.estimated) continue;
    estimated.push_back(iv);
    const double total = op_kernel_us[static_cast<size_t>(op)];
    r.sol_latency_us += total > 0 ? o.roofline.estimate_us * (s.dur[k] / total)
                                  : o.roofline.estimate_us / static_cast<double>(o.kernels.size());
  }
  if (all.empty()) return r;
  r.span_us = end - start;
  r.busy_us = total_length(merge_intervals(std::move(all)));
  r.estimated_kernel_us = total_length(merge_intervals(std::move(estimated)));
  return r;
}

// A step's wall time: first kernel to the first kernel after it (the next repetition's,
// or what follows, as a prefill runs up to the first decode step, and as sol_by_phase
// cuts its runs); the sequence's last step, its own span.
std::vector<double> walls_us(const KernelSequence& seq, const Cycle& cycle, const std::vector<SolSpan>& reps) {
  std::vector<double> walls;
  for (size_t r = 0; r < reps.size(); ++r) {
    const uint32_t next = cycle.starts[r] + cycle.length;
    walls.push_back(next < seq.size() ? seq.ts[next] - seq.ts[cycle.starts[r]] : reps[r].span_us);
  }
  return walls;
}

// NumPy's default (linear) quantile of sorted values, q in [0, 1].
double quantile(const std::vector<double>& sorted, double q) {
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(pos);
  if (lo + 1 >= sorted.size()) return sorted.back();
  return sorted[lo] + (sorted[lo + 1] - sorted[lo]) * (pos - static_cast<double>(lo));
}

// The steps' wall times: mean, p50, p90 (µs); zeros without steps.
struct WallStats {
  double mean = 0, p50 = 0, p90 = 0;
};
WallStats wall_stats(std::vector<double> walls) {
  if (walls.empty()) return {};
  double sum = 0;
  for (double w : walls) sum += w;
  std::sort(walls.begin(), walls.end());
  return {sum / static_cast<double>(walls.size()), quantile(walls, 0.5), quantile(walls, 0.9)};
}

// The walls, then the mean SOL latency over the mean wall (idle included).
void push_walls(Table& t, size_t& c, const WallStats& w, double sol_latency_us) {
  for (double v : {w.mean, w.p50, w.p90}) {
    if (w.mean > 0) t.column(c++).push_float(v);
    else t.column(c++).push_null();
  }
  if (w.mean > 0) t.column(c++).push_float(sol_latency_us / w.mean * 100);
  else t.column(c++).push_null();
}

// Tokens per step and per second of step wall time, where inferred forwards give them.
void push_tokens(Table& t, size_t& c, int64_t tokens, double wall_us) {
  if (tokens <= 0) {
    t.column(c++).push_null();
    t.column(c++).push_null();
    return;
  }
  t.column(c++).push_int(tokens);
  if (wall_us > 0) t.column(c++).push_float(static_cast<double>(tokens) / wall_us * 1e6);
  else t.column(c++).push_null();
}

void add_row(Table& t, const std::string& sequence, size_t pattern, const char* level, const char* llm_phase,
             const std::vector<SolSpan>& reps, uint32_t kernels, const WallStats& wall, int64_t tokens = 0) {
  SolSpan mean;
  for (const SolSpan& r : reps) {
    mean.sol_latency_us += r.sol_latency_us;
    mean.span_us += r.span_us;
    mean.busy_us += r.busy_us;
    mean.estimated_kernel_us += r.estimated_kernel_us;
  }
  const double n = reps.empty() ? 1 : static_cast<double>(reps.size());
  mean.sol_latency_us /= n;
  mean.span_us /= n;
  mean.busy_us /= n;
  mean.estimated_kernel_us /= n;
  size_t c = 0;
  t.column(c++).push_string(sequence);
  t.column(c++).push_int(static_cast<int64_t>(pattern));
  t.column(c++).push_string(level);
  t.column(c++).push_string(llm_phase);
  t.column(c++).push_int(static_cast<int64_t>(reps.size()));
  t.column(c++).push_int(kernels);
  t.column(c++).push_float(mean.sol_latency_us);
  t.column(c++).push_float(mean.span_us);
  if (mean.span_us > 0) t.column(c++).push_float(mean.sol_latency_us / mean.span_us * 100);
  else t.column(c++).push_null();
  t.column(c++).push_float(mean.inefficiency_us());
  t.column(c++).push_float(mean.unmodeled_us());
  t.column(c++).push_float(mean.idle_us());
  t.column(c++).push_float(mean.busy_us);
  push_tokens(t, c, tokens, wall.mean);
  push_walls(t, c, wall, mean.sol_latency_us);
}

std::vector<SolSpan> spans_of(const EventStore& s, const SolOps& ops, const std::vector<double>& op_kernel_us,
                              const KernelSequence& seq, const Cycle& cycle) {
  std::vector<SolSpan> reps;
  for (uint32_t start : cycle.starts) reps.push_back(span_of(s, ops, op_kernel_us, seq, start, cycle.length));
  return reps;
}

}  // namespace

SolSpan sol_span(const EventStore& s, const SolOps& ops, const KernelSequence& seq, uint32_t first,
                 uint32_t length) {
  return span_of(s, ops, kernel_time_per_op(s, ops), seq, first, length);
}

std::vector<SolSpan> sol_spans(const EventStore& s, const SolOps& ops, const KernelSequence& seq, const Cycle& cycle) {
  return spans_of(s, ops, kernel_time_per_op(s, ops), seq, cycle);
}

Table sol_by_step_table(const EventStore& s, const SolOps& ops, const CycleReport& cycles) {
  Table t("sol_by_step", TableKind::kSpeedOfLight);
  t.add_column("sequence", ColumnType::kString);
  t.add_column("pattern", ColumnType::kInt);
  t.add_column("level", ColumnType::kString);
  t.add_column("llm_phase", ColumnType::kString);
  t.add_column("repetitions", ColumnType::kInt);
  t.add_column("kernels", ColumnType::kInt);
  t.add_column("sol_latency_us", ColumnType::kFloat, Unit::kMicroseconds);
  t.add_column("measured_span_us", ColumnType::kFloat, Unit::kMicroseconds);
  t.add_column("efficiency_pct", ColumnType::kFloat, Unit::kPercent);
  t.add_column("kernel_inefficiency_us", ColumnType::kFloat, Unit::kMicroseconds);
  t.add_column("unmodeled_us", ColumnType::kFloat, Unit::kMicroseconds);
  t.add_column("idle_us", ColumnType::kFloat, Unit::kMicroseconds);
  t.add_column("busy_us", ColumnType::kFloat, Unit::kMicroseconds);
  t.add_column("tokens", ColumnType::kInt);
  t.add_column("tokens_per_s", ColumnType::kFloat);
  // Each repetition's wall time (first kernel to the next one's first kernel; the last:
  // its span), so steps' wall with the idle between them: mean, median, 90th percentile.
  t.add_column("wall_us", ColumnType::kFloat, Unit::kMicroseconds);
  t.add_column("wall_p50_us", ColumnType::kFloat, Unit::kMicroseconds);
  t.add_column("wall_p90_us", ColumnType::kFloat, Unit::kMicroseconds);
  t.add_column("wall_efficiency_pct", ColumnType::kFloat, Unit::kPercent);  // sol_latency_us / wall_us
  const std::vector<double> op_kernel_us = kernel_time_per_op(s, ops);
  size_t pattern = 0;
  for (const SequenceCycles& sc : cycles.sequences) {
    for (const CyclePattern& p : sc.patterns) {
      ++pattern;
      const char* phase = cycle_phase_name(p.phase);
      const std::vector<SolSpan> steps = spans_of(s, ops, op_kernel_us, sc.sequence, p.outer);
      add_row(t, sc.sequence.label, pattern, "step", phase, steps, p.outer.length,
              wall_stats(walls_us(sc.sequence, p.outer, steps)), p.tokens_per_step);
      if (!p.layer) continue;
      const std::vector<SolSpan> layers = spans_of(s, ops, op_kernel_us, sc.sequence, *p.layer);
      add_row(t, sc.sequence.label, pattern, "layer", phase, layers, p.layer->length,
              wall_stats(walls_us(sc.sequence, *p.layer, layers)));
    }
  }
  return t;
}

}  // namespace sollens
