#include "analyses/hta/memory_bandwidth.h"

#include <array>
#include <map>

#include "store/raw_args.h"

namespace sollens::hta {

std::string_view memory_kernel_kind(std::string_view name) {
  if (name.starts_with("Memset")) return "Memset";
  if (!name.starts_with("Memcpy")) return "Memcpy Unknown";
  return name.substr(0, 11);
}

namespace {

struct Change {
  double ts;
  std::string_view kind;
  double bw;
  uint32_t gpu_event;
};

// Kineto's bandwidth of the operation; HTA reads −1 where the arg is absent.
double recorded_bandwidth(ArgsReader& args, uint32_t event) {
  static constexpr std::array<std::string_view, 1> kKey = {"memory bandwidth (GB/s)"};
  std::array<PyValue, 1> value;
  args.read(event, kKey, value);
  if (value[0].kind == PyValue::Kind::kFloat) return value[0].f;
  if (value[0].kind == PyValue::Kind::kInt) return static_cast<double>(value[0].i);
  return -1;
}

// Starts (file order), then ends (file order): the frame HTA concatenates before sorting.
std::vector<Change> bandwidth_changes(const HtaTrace& trace) {
  const EventStore& s = trace.store();
  ArgsReader args(s);
  std::vector<Change> starts, ends;
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (!trace.loaded(i) || !is_gpu_activity(s.category[i]) || s.phase[i] != Phase::kComplete || trace.stream(i) == -1 ||
        trace.kernel_type(i) != KernelType::kMemory)
      continue;
    const std::string_view kind = memory_kernel_kind(s.name_of(i));
    const double bw = recorded_bandwidth(args, i);
    // HTA lengthens 0 µs operations (after rounding) to 1 µs.
    const double dur = trace.dur(i) == 0 ? 1 : trace.dur(i);
    starts.push_back({trace.ts(i), kind, bw, i});
    ends.push_back({trace.ts(i) + dur, kind, -bw, i});
  }
  starts.insert(starts.end(), ends.begin(), ends.end());
  return starts;
}

}  // namespace

std::vector<MemoryBwPoint> memory_bw_series(const HtaTrace& trace) {
  const std::vector<Change> changes = bandwidth_changes(trace);
  std::vector<double> keys(changes.size());
  for (size_t k = 0; k < changes.size(); ++k) keys[k] = changes[k].ts;
  std::map<std::string_view, std::vector<MemoryBwPoint>> by_kind;
  std::map<std::string_view, double> running;
  for (uint32_t k : numpy_quicksort_order(keys)) {
    const Change& c = changes[k];
    double& sum = running[c.kind];
    sum += c.bw;
    by_kind[c.kind].push_back({c.ts, c.kind, sum < 0 ? 0 : sum, c.gpu_event});
  }
  std::vector<MemoryBwPoint> series;
  series.reserve(changes.size());
  for (auto& [kind, points] : by_kind) series.insert(series.end(), points.begin(), points.end());
  return series;
}

Table memory_bw_summary_table(const HtaTrace& trace, const std::vector<MemoryBwPoint>& series) {
  Table t("memory_bw_summary", TableKind::kHta);
  Column& rank = t.add_column("rank", ColumnType::kInt);
  Column& name = t.add_column("name", ColumnType::kString);
  DescribeColumns stats(t, Unit::kGigabytesPerSecond);
  for (size_t begin = 0; begin < series.size();) {
    size_t end = begin;
    std::vector<double> values;
    for (; end < series.size() && series[end].kind == series[begin].kind; ++end)
      if (series[end].memory_bw_gbps > 0) values.push_back(series[end].memory_bw_gbps);
    if (!values.empty()) {
      const Describe d = describe(std::move(values));
      rank.push_int(trace.rank());
      name.push_string(series[begin].kind);
      stats.push(d);
    }
    begin = end;
  }
  return t;
}

Table memory_bw_time_series_table(const HtaTrace& trace, const std::vector<MemoryBwPoint>& series) {
  const EventStore& s = trace.store();
  Table t("memory_bw_time_series", TableKind::kHta);
  Column& rank = t.add_column("rank", ColumnType::kInt);
  Column& ts = t.add_column("ts", ColumnType::kFloat, Unit::kTimestamp);
  Column& pid = t.add_column("pid", ColumnType::kString);
  Column& name = t.add_column("name", ColumnType::kString);
  Column& bw = t.add_column("memory_bw_gbps", ColumnType::kFloat, Unit::kGigabytesPerSecond);
  for (const MemoryBwPoint& p : series) {
    rank.push_int(trace.rank());
    ts.push_float(p.ts);
    pid.push_string(s.str(s.pid[p.gpu_event]));
    name.push_string(p.kind);
    bw.push_float(p.memory_bw_gbps);
  }
  return t;
}

}  // namespace sollens::hta
