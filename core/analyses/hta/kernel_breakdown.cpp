#include "analyses/hta/kernel_breakdown.h"

#include <algorithm>
#include <map>
#include <string>

#include "base/stats.h"

namespace sollens::hta {

namespace {

std::vector<KernelType> analysed_types(const HtaOptions& options) {
  std::vector<KernelType> types = {KernelType::kComputation, KernelType::kCommunication};
  if (options.include_memory_kernels) types.push_back(KernelType::kMemory);
  return types;
}

NamedStats stats_of(std::string name, const std::vector<double>& values) {
  NamedStats s;
  s.name = std::move(name);
  s.sum = stats::pandas_sum(values);
  s.max = *std::max_element(values.begin(), values.end());
  s.min = *std::min_element(values.begin(), values.end());
  s.mean = stats::pandas_mean(values);
  s.stddev = stats::pandas_std(values).value_or(0);
  return s;
}

// A combination of running types (a bit per type, in `types` order) as HTA names it.
std::string combination_name(int running, const std::vector<KernelType>& types) {
  std::string name;
  for (size_t k = 0; k < types.size(); ++k) {
    if (!(running & (1 << k))) continue;
    if (!name.empty()) name += " overlapping ";
    name += kernel_type_name(types[k]);
  }
  return name;
}

// Time per combination of kernel types running at once (HTA's _get_gpu_kernel_type_time).
std::map<std::string, double> type_combination_time(const HtaTrace& trace, const std::vector<uint32_t>& gpu,
                                                    const std::vector<KernelType>& types) {
  struct Edge {
    double time;
    int delta;
  };
  std::vector<Edge> edges;
  for (size_t k = 0; k < types.size(); ++k) {
    std::vector<Interval> of_type;
    for (uint32_t e : gpu)
      if (trace.kernel_type(e) == types[k]) of_type.push_back({trace.ts(e), trace.end(e)});
    for (const Interval& i : merge_like_hta(std::move(of_type))) {
      edges.push_back({i.start, 1 << k});
      edges.push_back({i.end, -(1 << k)});
    }
  }
  std::stable_sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.time < b.time; });
  std::map<std::string, double> time;
  int running = 0;
  for (size_t i = 0; i + 1 < edges.size(); ++i) {
    running += edges[i].delta;
    const double length = edges[i + 1].time - edges[i].time;
    if (running <= 0 || length == 0) continue;
    time[combination_name(running, types)] += length;
  }
  return time;
}

}  // namespace

std::vector<NamedStats> aggregate_like_hta(const std::vector<NamedDurations>& groups, double duration_ratio,
                                           int64_t max_names) {
  std::vector<NamedStats> rows;
  for (const NamedDurations& g : groups) rows.push_back(stats_of(std::string(g.name), g.durations));
  if (static_cast<int64_t>(rows.size()) <= max_names) return rows;
  std::vector<double> sums;
  for (const NamedStats& r : rows) sums.push_back(r.sum);
  const std::vector<size_t> by_sum = stats::pandas_argsort_desc(sums);
  std::vector<double> running(by_sum.size());
  double total = 0;
  for (size_t k = 0; k < by_sum.size(); ++k) running[k] = total += sums[by_sum[k]];
  std::vector<double> sorted_running = running;
  std::sort(sorted_running.begin(), sorted_running.end());
  const double cut = quantile_like_numpy(sorted_running, duration_ratio);
  std::map<std::string, std::vector<double>> regrouped;  // name → the names' sums
  for (size_t k = 0; k < by_sum.size(); ++k) {
    const bool beyond = running[k] > cut || static_cast<int64_t>(k) >= max_names;
    const bool other = beyond && sums[by_sum[k]] >= 0;  // HTA keeps a negative total by name
    regrouped[other ? std::string("others") : rows[by_sum[k]].name].push_back(sums[by_sum[k]]);
  }
  std::vector<NamedStats> out;
  for (const auto& [name, values] : regrouped) out.push_back(stats_of(name, values));
  return out;
}

NamedStatsColumns::NamedStatsColumns(Table& t)
    : name_(&t.add_column("name", ColumnType::kString)),
      sum_(&t.add_column("sum (us)", ColumnType::kFloat, Unit::kMicroseconds)),
      max_(&t.add_column("max (us)", ColumnType::kFloat, Unit::kMicroseconds)),
      min_(&t.add_column("min (us)", ColumnType::kFloat, Unit::kMicroseconds)),
      stddev_(&t.add_column("stddev", ColumnType::kFloat, Unit::kMicroseconds)),
      mean_(&t.add_column("mean (us)", ColumnType::kFloat, Unit::kMicroseconds)) {}

void NamedStatsColumns::push(const NamedStats& s) {
  name_->push_string(s.name);
  sum_->push_float(s.sum);
  max_->push_float(s.max);
  min_->push_float(s.min);
  stddev_->push_float(s.stddev);
  mean_->push_float(s.mean);
}

Table gpu_kernel_type_breakdown_table(const HtaTrace& trace, const TraceTree&, const HtaOptions& options) {
  Table t("gpu_kernel_type_breakdown", TableKind::kHta);
  Column& type = t.add_column("kernel_type", ColumnType::kString);
  Column& sum = t.add_column("sum", ColumnType::kInt, Unit::kMicroseconds);
  Column& percentage = t.add_column("percentage", ColumnType::kFloat, Unit::kPercent);
  const std::map<std::string, double> time =
      type_combination_time(trace, breakdown_events(trace).gpu, analysed_types(options));
  std::vector<double> sums;
  double total = 0;
  for (const auto& [name, us] : time) {
    sums.push_back(us);
    total += us;
  }
  std::vector<const std::string*> names;
  for (const auto& entry : time) names.push_back(&entry.first);
  for (size_t k : stats::pandas_argsort_desc(sums)) {
    type.push_string(*names[k]);
    sum.push_int(static_cast<int64_t>(sums[k]));
    percentage.push_float(round_like_pandas(sums[k] / total * 100, 1));
  }
  return t;
}

Table gpu_kernel_breakdown_table(const HtaTrace& trace, const TraceTree&, const HtaOptions& options) {
  Table t("gpu_kernel_breakdown", TableKind::kHta);
  NamedStatsColumns stats(t);
  Column& kernel_type = t.add_column("kernel_type", ColumnType::kString);
  Column& rank = t.add_column("rank", ColumnType::kInt);
  const std::vector<uint32_t> gpu = breakdown_events(trace).gpu;
  std::vector<KernelType> types = analysed_types(options);
  std::sort(types.begin(), types.end(),  // rows by type name
            [](KernelType a, KernelType b) { return kernel_type_name(a) < kernel_type_name(b); });
  for (KernelType kt : types) {
    std::map<std::string_view, std::vector<double>> by_name;
    for (uint32_t e : gpu)
      if (trace.kernel_type(e) == kt) by_name[trace.store().name_of(e)].push_back(trace.dur(e));
    std::vector<NamedDurations> groups;
    for (auto& [n, durations] : by_name) groups.push_back({n, std::move(durations)});
    for (const NamedStats& s : aggregate_like_hta(groups, options.kernel_duration_ratio, options.num_kernels)) {
      stats.push(s);
      kernel_type.push_string(kernel_type_name(kt));
      rank.push_int(trace.rank());
    }
  }
  return t;
}

}  // namespace sollens::hta
