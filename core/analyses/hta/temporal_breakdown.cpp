#include "analyses/hta/temporal_breakdown.h"

#include <algorithm>

namespace sollens::hta {

namespace {

TemporalBreakdown breakdown_of(const HtaTrace& trace, const BreakdownEvents& events, bool empty_inverted) {
  std::vector<Interval> all, compute;
  auto add = [&](uint32_t e, bool is_compute) {
    const Interval i{trace.ts(e), empty_inverted ? std::max(trace.end(e), trace.ts(e)) : trace.end(e)};
    all.push_back(i);
    if (is_compute) compute.push_back(i);
  };
  for (uint32_t e : events.gpu) add(e, trace.kernel_type(e) == KernelType::kComputation);
  for (uint32_t e : events.syncs) add(e, false);
  TemporalBreakdown b;
  const std::vector<Interval> merged = merge_like_hta(std::move(all));
  if (merged.empty()) return b;
  b.kernel_us = merged.back().end - merged.front().start;
  b.idle_us = b.kernel_us - merged_length(merged);
  b.compute_us = merged_length(merge_like_hta(std::move(compute)));
  b.non_compute_us = b.kernel_us - b.compute_us - b.idle_us;
  b.inverted_events_emptied = empty_inverted;
  return b;
}

// HTA's own checks (idle ≤ kernel time, compute ≤ kernel time, non-compute ≥ 0).
bool valid(const TemporalBreakdown& b) {
  return b.idle_us <= b.kernel_us && b.compute_us <= b.kernel_us && b.non_compute_us >= 0;
}

}  // namespace

TemporalBreakdown temporal_breakdown(const HtaTrace& trace, const BreakdownEvents& events) {
  const TemporalBreakdown as_hta = breakdown_of(trace, events, false);
  return valid(as_hta) ? as_hta : breakdown_of(trace, events, true);
}

Table temporal_breakdown_table(const HtaTrace& trace, const TraceTree&, const HtaOptions&) {
  Table t("temporal_breakdown", TableKind::kHta);
  Column& rank = t.add_column("rank", ColumnType::kInt);
  Column& idle = t.add_column("idle_time(us)", ColumnType::kFloat, Unit::kMicroseconds);
  Column& compute = t.add_column("compute_time(us)", ColumnType::kFloat, Unit::kMicroseconds);
  Column& non_compute = t.add_column("non_compute_time(us)", ColumnType::kFloat, Unit::kMicroseconds);
  Column& kernel = t.add_column("kernel_time(us)", ColumnType::kFloat, Unit::kMicroseconds);
  Column& idle_pct = t.add_column("idle_time_pctg", ColumnType::kFloat, Unit::kPercent);
  Column& compute_pct = t.add_column("compute_time_pctg", ColumnType::kFloat, Unit::kPercent);
  Column& non_compute_pct = t.add_column("non_compute_time_pctg", ColumnType::kFloat, Unit::kPercent);
  const BreakdownEvents events = breakdown_events(trace);
  if (events.gpu.empty() && events.syncs.empty()) return t;
  const TemporalBreakdown b = temporal_breakdown(trace, events);
  rank.push_int(trace.rank());
  idle.push_float(b.idle_us);
  compute.push_float(b.compute_us);
  non_compute.push_float(b.non_compute_us);
  kernel.push_float(b.kernel_us);
  auto pct = [&](Column& c, double us) {
    if (b.kernel_us > 0) c.push_float(round_like_pandas(100 * (us / b.kernel_us), 2));
    else c.push_null();
  };
  pct(idle_pct, b.idle_us);
  pct(compute_pct, b.compute_us);
  pct(non_compute_pct, b.non_compute_us);
  return t;
}

}  // namespace sollens::hta
