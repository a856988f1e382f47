#include "analyses/hta/idle_time.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "base/stats.h"

namespace sollens::hta {

namespace {

GapStats gap_stats(std::vector<double> gaps) {
  const Describe d = describe(std::move(gaps));
  GapStats s{d.count, d.mean, d.min, d.q25, d.q50, d.q75, d.max, std::nullopt};
  if (d.count > 1) s.std = d.std;
  return s;
}

// HTA joins a GPU event without a launching call to its table's row 0 (index_correlation
// 0): the trace's first complete event in file order stands in for the launch.
double stand_in_launch_ts(const HtaTrace& trace) {
  const EventStore& s = trace.store();
  for (uint32_t i = 0; i < s.size(); ++i)
    if (s.phase[i] == Phase::kComplete) return trace.ts(i);
  return 0;
}

IdleCategory category_of(const HtaTrace& trace, uint32_t e, double previous_end, double delay,
                         double unlinked_launch_ts) {
  const int32_t launch = trace.launch_of(e);
  const double launch_ts = launch == kNoLaunch ? unlinked_launch_ts : trace.ts(static_cast<uint32_t>(launch));
  if (launch_ts > previous_end) return kHostWait;
  return trace.ts(e) - previous_end < delay ? kKernelWait : kOtherIdle;
}

StreamIdle idle_of_stream(const HtaTrace& trace, int64_t stream, const std::vector<uint32_t>& events, double delay,
                          double unlinked_launch_ts) {
  StreamIdle out;
  out.stream = stream;
  out.categories[kOtherIdle].present = true;  // the first event: no gap, category other
  std::array<std::vector<double>, 3> gaps;
  for (size_t k = 1; k < events.size(); ++k) {
    const double previous_end = trace.end(events[k - 1]);
    const IdleCategory c = category_of(trace, events[k], previous_end, delay, unlinked_launch_ts);
    out.categories[c].present = true;
    gaps[c].push_back(trace.ts(events[k]) - previous_end);
  }
  for (size_t c = 0; c < 3; ++c) {
    for (double g : gaps[c]) out.categories[c].idle_us += g;
    out.categories[c].gaps = gap_stats(std::move(gaps[c]));
  }
  return out;
}

void push_optional(Column& c, const std::optional<double>& v) {
  if (v) c.push_float(round_like_pandas(*v, 2));
  else c.push_null();
}

}  // namespace

double StreamIdle::total_idle_us() const {
  double total = 0;
  for (const CategoryIdle& c : categories) total += c.idle_us;
  return total;
}

std::vector<StreamIdle> idle_time_by_stream(const HtaTrace& trace, const BreakdownEvents& events,
                                            double consecutive_kernel_delay_us) {
  std::vector<int64_t> order;                          // streams by first event
  std::map<int64_t, std::vector<uint32_t>> by_stream;  // each stream's events by start
  for (uint32_t e : events.gpu) {
    auto [it, added] = by_stream.try_emplace(trace.stream(e));
    if (added) order.push_back(trace.stream(e));
    it->second.push_back(e);
  }
  const double unlinked_launch_ts = stand_in_launch_ts(trace);
  std::vector<StreamIdle> out;
  out.reserve(order.size());
  for (int64_t stream : order)
    out.push_back(idle_of_stream(trace, stream, by_stream[stream], consecutive_kernel_delay_us, unlinked_launch_ts));
  return out;
}

Table make_idle_time_table(TableKind kind) {
  Table t("idle_time_breakdown", kind);
  t.add_column("rank", ColumnType::kInt);
  t.add_column("stream", ColumnType::kInt);
  t.add_column("idle_category", ColumnType::kString);
  t.add_column("idle_time", ColumnType::kFloat, Unit::kMicroseconds);
  t.add_column("idle_time_ratio", ColumnType::kFloat);
  return t;
}

void append_idle_time_rows(Table& t, int64_t rank, const std::vector<StreamIdle>& streams) {
  for (const StreamIdle& s : streams) {
    const double total = s.total_idle_us();
    for (size_t c = 0; c < 3; ++c) {
      const CategoryIdle& idle = s.categories[c];
      if (!idle.present) continue;
      t.column(0).push_int(rank);
      t.column(1).push_int(s.stream);
      t.column(2).push_string(kIdleCategoryNames[c]);
      t.column(3).push_float(round_like_pandas(idle.idle_us, 2));
      if (total != 0) t.column(4).push_float(round_like_pandas(idle.idle_us / total, 2));
      else t.column(4).push_null();
    }
  }
}

Table make_idle_interval_stats_table() {
  Table t("idle_time_interval_stats", TableKind::kHta);
  t.add_column("idle_category", ColumnType::kString);
  t.add_column("rank", ColumnType::kInt);
  t.add_column("stream", ColumnType::kInt);
  t.add_column("count", ColumnType::kFloat);
  for (const char* name : {"mean", "std", "min", "25%", "50%", "75%", "max"})
    t.add_column(name, ColumnType::kFloat, Unit::kMicroseconds);
  return t;
}

void append_idle_interval_rows(Table& t, int64_t rank, const std::vector<StreamIdle>& streams) {
  for (const StreamIdle& s : streams)
    for (size_t c = 0; c < 3; ++c) {
      if (!s.categories[c].present) continue;
      const GapStats& g = s.categories[c].gaps;
      t.column(0).push_string(kIdleCategoryNames[c]);
      t.column(1).push_int(rank);
      t.column(2).push_int(s.stream);
      t.column(3).push_float(static_cast<double>(g.count));
      const bool any = g.count > 0;
      push_optional(t.column(4), any ? std::optional(g.mean) : std::nullopt);
      push_optional(t.column(5), g.std);
      push_optional(t.column(6), any ? std::optional(g.min) : std::nullopt);
      push_optional(t.column(7), any ? std::optional(g.q25) : std::nullopt);
      push_optional(t.column(8), any ? std::optional(g.q50) : std::nullopt);
      push_optional(t.column(9), any ? std::optional(g.q75) : std::nullopt);
      push_optional(t.column(10), any ? std::optional(g.max) : std::nullopt);
    }
}

Table idle_time_breakdown_table(const HtaTrace& trace, const TraceTree&, const HtaOptions& options) {
  Table t = make_idle_time_table(TableKind::kHta);
  append_idle_time_rows(t, trace.rank(),
                        idle_time_by_stream(trace, breakdown_events(trace), options.consecutive_kernel_delay_us));
  return t;
}

Table idle_time_interval_stats_table(const HtaTrace& trace, const TraceTree&, const HtaOptions& options) {
  Table t = make_idle_interval_stats_table();
  append_idle_interval_rows(t, trace.rank(),
                            idle_time_by_stream(trace, breakdown_events(trace), options.consecutive_kernel_delay_us));
  return t;
}

}  // namespace sollens::hta
