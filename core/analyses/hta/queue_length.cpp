#include "analyses/hta/queue_length.h"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <string_view>
#include <unordered_map>

namespace sollens::hta {

namespace {

// The runtime calls HTA counts as launches (TraceSymbolTable.get_runtime_launch_events_mask).
bool is_launch_call(std::string_view name) {
  static constexpr std::array<std::string_view, 12> kLaunches = {
      "cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
      "cudaMemcpyAsync", "cudaMemsetAsync", "hipLaunchKernel", "hipExtModuleLaunchKernel",
      "hipMemcpyAsync", "hipMemsetAsync", "hipMemcpyWithStream",
      "runFunction - job_prep_and_submit_for_execution"};
  return std::find(kLaunches.begin(), kLaunches.end(), name) != kLaunches.end();
}

struct QueueChange {
  double ts;
  int64_t stream;
  int delta;
  uint32_t gpu_event;
};

// Launch rows (file order, one per GPU event of the call's correlation), then the GPU
// events that have one (file order): the frame HTA concatenates before sorting.
std::vector<QueueChange> queue_changes(const HtaTrace& trace) {
  const EventStore& s = trace.store();
  std::unordered_map<int64_t, std::vector<uint32_t>> gpu_by_correlation;
  for (uint32_t i = 0; i < s.size(); ++i)
    if (trace.loaded(i) && is_gpu_activity(s.category[i]) && s.phase[i] == Phase::kComplete && trace.stream(i) != -1 &&
        s.correlation[i] != kNoValue)
      gpu_by_correlation[s.correlation[i]].push_back(i);
  std::vector<QueueChange> changes;
  std::unordered_map<int64_t, bool> launched;
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (!trace.loaded(i) || !is_runtime(s.category[i]) || s.phase[i] != Phase::kComplete || !is_launch_call(s.name_of(i)))
      continue;
    const auto it = gpu_by_correlation.find(s.correlation[i]);
    if (it == gpu_by_correlation.end()) continue;
    launched[s.correlation[i]] = true;
    for (uint32_t g : it->second) changes.push_back({trace.ts(i), trace.stream(g), +1, g});
  }
  for (uint32_t i = 0; i < s.size(); ++i)
    if (trace.loaded(i) && is_gpu_activity(s.category[i]) && s.phase[i] == Phase::kComplete && trace.stream(i) != -1 &&
        launched.contains(s.correlation[i]))
      changes.push_back({trace.ts(i), trace.stream(i), -1, i});
  return changes;
}

}  // namespace

std::vector<QueueLengthPoint> queue_length_series(const HtaTrace& trace) {
  const std::vector<QueueChange> changes = queue_changes(trace);
  std::vector<double> keys(changes.size());
  for (size_t k = 0; k < changes.size(); ++k) keys[k] = changes[k].ts;
  std::map<int64_t, std::vector<QueueLengthPoint>> by_stream;
  for (uint32_t k : numpy_quicksort_order(keys)) {
    const QueueChange& c = changes[k];
    std::vector<QueueLengthPoint>& points = by_stream[c.stream];
    const int64_t before = points.empty() ? 0 : points.back().queue_length;
    points.push_back({c.ts, c.stream, before + c.delta, c.gpu_event});
  }
  std::vector<QueueLengthPoint> series;
  series.reserve(changes.size());
  for (auto& [stream, points] : by_stream) series.insert(series.end(), points.begin(), points.end());
  return series;
}

namespace {

// [begin, end) of each stream's run of points.
template <typename F>
void for_each_stream(const std::vector<QueueLengthPoint>& series, F&& f) {
  for (size_t begin = 0; begin < series.size();) {
    size_t end = begin;
    while (end < series.size() && series[end].stream == series[begin].stream) ++end;
    f(begin, end);
    begin = end;
  }
}

}  // namespace

Table queue_length_summary_table(const HtaTrace& trace, const std::vector<QueueLengthPoint>& series) {
  Table t("queue_length_summary", TableKind::kHta);
  Column& rank = t.add_column("rank", ColumnType::kInt);
  Column& stream = t.add_column("stream", ColumnType::kInt);
  DescribeColumns stats(t, Unit::kNone);  // queue lengths are counts
  for_each_stream(series, [&](size_t begin, size_t end) {
    std::vector<double> values;
    values.reserve(end - begin);
    for (size_t k = begin; k < end; ++k) values.push_back(static_cast<double>(series[k].queue_length));
    const Describe d = describe(std::move(values));
    rank.push_int(trace.rank());
    stream.push_int(series[begin].stream);
    stats.push(d);
  });
  return t;
}

Table queue_length_time_series_table(const HtaTrace& trace, const std::vector<QueueLengthPoint>& series) {
  const EventStore& s = trace.store();
  Table t("queue_length_time_series", TableKind::kHta);
  Column& rank = t.add_column("rank", ColumnType::kInt);
  Column& ts = t.add_column("ts", ColumnType::kFloat, Unit::kTimestamp);
  Column& pid = t.add_column("pid", ColumnType::kString);
  Column& tid = t.add_column("tid", ColumnType::kString);
  Column& stream = t.add_column("stream", ColumnType::kInt);
  Column& length = t.add_column("queue_length", ColumnType::kInt);
  for (const QueueLengthPoint& p : series) {
    rank.push_int(trace.rank());
    ts.push_float(p.ts);
    pid.push_string(s.str(s.pid[p.gpu_event]));
    tid.push_string(s.str(s.tid[p.gpu_event]));
    stream.push_int(p.stream);
    length.push_int(p.queue_length);
  }
  return t;
}

namespace {

// Trace.get_trace_duration: last start − first start of the events HTA holds.
double trace_span(const HtaTrace& trace) {
  const EventStore& s = trace.store();
  double first = std::numeric_limits<double>::infinity(), last = -first;
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (!trace.loaded(i) || s.phase[i] != Phase::kComplete) continue;
    first = std::min(first, trace.ts(i));
    last = std::max(last, trace.ts(i));
  }
  return last > first ? last - first : 0;
}

}  // namespace

Table time_blocked_on_full_queue_table(const HtaTrace& trace, const std::vector<QueueLengthPoint>& series,
                                       const HtaOptions& options) {
  Table t("time_blocked_on_full_queue", TableKind::kHta);
  Column& rank = t.add_column("rank", ColumnType::kInt);
  Column& stream = t.add_column("stream", ColumnType::kInt);
  Column& duration = t.add_column("duration_at_max_queue_length", ColumnType::kFloat, Unit::kMicroseconds);
  Column& relative = t.add_column("relative_duration_at_max_queue_length", ColumnType::kFloat);
  const double span = trace_span(trace);
  for_each_stream(series, [&](size_t begin, size_t end) {
    // A point's value holds until the stream's next point; the last one has no length.
    double blocked = 0;
    bool reached = false;
    for (size_t k = begin; k < end; ++k) {
      if (series[k].queue_length < options.max_queue_length) continue;
      reached = true;
      if (k + 1 < end) blocked += series[k + 1].ts - series[k].ts;
    }
    if (!reached) return;
    rank.push_int(trace.rank());
    stream.push_int(series[begin].stream);
    duration.push_float(blocked);
    relative.push_float(span > 0 ? blocked / span : 0);
  });
  return t;
}

}  // namespace sollens::hta
