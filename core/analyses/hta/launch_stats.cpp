#include "analyses/hta/launch_stats.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace sollens::hta {

namespace {

// The launch calls HTA's cuda_kernel_launch_stats reads (with include_memory_events).
bool is_hta_launch_name(std::string_view name) {
  static constexpr std::array<std::string_view, 5> kNames = {
      "cudaLaunchKernel", "cudaLaunchKernelExC", "cudaMemcpyAsync", "cudaMemsetAsync",
      "runFunction - job_prep_and_submit_for_execution"};
  return std::find(kNames.begin(), kNames.end(), name) != kNames.end();
}

// The rows HTA's frame holds: complete events with a category other than its "Trace" spans.
bool in_hta_frame(const EventStore& s, uint32_t i) {
  return s.phase[i] == Phase::kComplete && s.category[i] != Category::kTrace && s.cat[i] != kEmptyStr;
}

LaunchRow launch_row(const HtaTrace& trace, uint32_t runtime, uint32_t gpu) {
  LaunchRow r;
  r.runtime = runtime;
  r.gpu = gpu;
  r.correlation = trace.store().correlation[runtime];
  r.cpu_duration = trace.dur(runtime);
  r.gpu_duration = trace.dur(gpu);
  r.launch_delay = std::max(0.0, trace.ts(gpu) - trace.end(runtime));
  return r;
}

using GpuByCorrelation = std::unordered_map<int64_t, std::vector<uint32_t>>;

// Correlation ids of HTA's launch calls among the kept rows.
std::unordered_set<int64_t> hta_launch_correlations(const HtaTrace& trace) {
  const EventStore& s = trace.store();
  std::unordered_set<int64_t> ids;
  for (uint32_t i = 0; i < s.size(); ++i)
    if (trace.loaded(i) && in_hta_frame(s, i) && s.correlation[i] != kNoValue && is_hta_launch_name(s.name_of(i)))
      ids.insert(s.correlation[i]);
  return ids;
}

Table launch_table(std::string name, const HtaTrace& trace, const std::vector<LaunchRow>& rows) {
  Table t(std::move(name), TableKind::kHta);
  Column& rank = t.add_column("rank", ColumnType::kInt);
  Column& correlation = t.add_column("correlation", ColumnType::kInt);
  Column& cpu = t.add_column("cpu_duration", ColumnType::kFloat, Unit::kMicroseconds);
  Column& gpu = t.add_column("gpu_duration", ColumnType::kFloat, Unit::kMicroseconds);
  Column& delay = t.add_column("launch_delay", ColumnType::kFloat, Unit::kMicroseconds);
  for (const LaunchRow& r : rows) {
    rank.push_int(trace.rank());
    correlation.push_int(r.correlation);
    cpu.push_float(r.cpu_duration);
    gpu.push_float(r.gpu_duration);
    delay.push_float(r.launch_delay);
  }
  return t;
}

template <typename Keep>
Table filtered_table(std::string name, const HtaTrace& trace, const std::vector<LaunchRow>& rows, Keep keep) {
  std::vector<LaunchRow> picked;
  for (const LaunchRow& r : rows)
    if (keep(r)) picked.push_back(r);
  return launch_table(std::move(name), trace, picked);
}

}  // namespace

std::vector<LaunchRow> hta_launch_rows(const HtaTrace& trace) {
  const EventStore& s = trace.store();
  const std::unordered_set<int64_t> ids = hta_launch_correlations(trace);
  GpuByCorrelation gpu_side;
  for (uint32_t i = 0; i < s.size(); ++i)
    if (trace.loaded(i) && in_hta_frame(s, i) && trace.stream(i) != -1 && ids.contains(s.correlation[i]))
      gpu_side[s.correlation[i]].push_back(i);
  std::vector<LaunchRow> rows;
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (!trace.loaded(i) || !in_hta_frame(s, i) || trace.stream(i) != -1 || !ids.contains(s.correlation[i])) continue;
    const auto it = gpu_side.find(s.correlation[i]);
    if (it == gpu_side.end()) continue;
    for (uint32_t g : it->second) rows.push_back(launch_row(trace, i, g));
  }
  return rows;
}

std::vector<LaunchRow> other_api_launch_rows(const HtaTrace& trace) {
  const EventStore& s = trace.store();
  const std::unordered_set<int64_t> hta_ids = hta_launch_correlations(trace);
  GpuByCorrelation gpu_events;
  for (uint32_t i = 0; i < s.size(); ++i)
    if (s.phase[i] == Phase::kComplete && is_gpu_activity(s.category[i]) && s.correlation[i] != kNoValue)
      gpu_events[s.correlation[i]].push_back(i);
  std::vector<LaunchRow> rows;
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (s.phase[i] != Phase::kComplete || !is_runtime(s.category[i]) || !trace.loaded(i) ||
        s.correlation[i] == kNoValue || hta_ids.contains(s.correlation[i]))
      continue;
    const auto it = gpu_events.find(s.correlation[i]);
    if (it == gpu_events.end()) continue;
    for (uint32_t g : it->second) rows.push_back(launch_row(trace, i, g));
  }
  return rows;
}

Table cuda_kernel_launch_stats_table(const HtaTrace& trace, const std::vector<LaunchRow>& rows) {
  return launch_table("cuda_kernel_launch_stats", trace, rows);
}

Table other_api_launch_stats_table(const HtaTrace& trace, const std::vector<LaunchRow>& rows) {
  Table t = launch_table("cuda_kernel_launch_stats_other_apis", trace, rows);
  Column& api = t.add_column("launch_api", ColumnType::kString);
  for (const LaunchRow& r : rows) api.push_string(trace.store().name_of(r.runtime));
  return t;
}

std::vector<Table> launch_outlier_tables(const HtaTrace& trace, const std::vector<LaunchRow>& rows,
                                         const HtaOptions& options) {
  const double runtime_cutoff = options.runtime_cutoff_us;
  const double delay_cutoff = options.launch_delay_cutoff_us;
  std::vector<Table> tables;
  tables.push_back(filtered_table("cuda_kernel_launch_short_kernels", trace, rows, [&](const LaunchRow& r) {
    return r.cpu_duration <= runtime_cutoff && r.gpu_duration < r.cpu_duration;
  }));
  tables.push_back(filtered_table("cuda_kernel_launch_runtime_outliers", trace, rows,
                                  [&](const LaunchRow& r) { return r.cpu_duration > runtime_cutoff; }));
  tables.push_back(filtered_table("cuda_kernel_launch_delay_outliers", trace, rows,
                                  [&](const LaunchRow& r) { return r.launch_delay > delay_cutoff; }));
  return tables;
}

std::vector<Table> launch_stats_tables(const HtaTrace& trace, const HtaOptions& options) {
  const std::vector<LaunchRow> hta_rows = hta_launch_rows(trace);
  const std::vector<LaunchRow> other_rows = other_api_launch_rows(trace);
  std::vector<LaunchRow> all = hta_rows;
  all.insert(all.end(), other_rows.begin(), other_rows.end());
  std::vector<Table> tables;
  tables.push_back(cuda_kernel_launch_stats_table(trace, hta_rows));
  tables.push_back(other_api_launch_stats_table(trace, other_rows));
  for (Table& t : launch_outlier_tables(trace, all, options)) tables.push_back(std::move(t));
  return tables;
}

}  // namespace sollens::hta
