#include "analyses/ops/short_kernels.h"

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>

#include "analyses/ops/kernel_launchers.h"
#include "analyses/ops/kernel_rows.h"
#include "analyses/ops/op_args.h"
#include "base/stats.h"

namespace sollens {

void numpy_histogram(std::span<const double> a, int bins, std::vector<double>& edges,
                     std::vector<int64_t>& counts) {
  edges.clear();
  counts.clear();
  if (a.empty() || bins <= 0) return;
  double first = *std::min_element(a.begin(), a.end());
  double last = *std::max_element(a.begin(), a.end());
  if (first == last) {
    first -= 0.5;
    last += 0.5;
  }
  // np.linspace(first, last, bins + 1)
  const double div = bins, delta = last - first, step = delta / div;
  edges.resize(static_cast<size_t>(bins) + 1);
  for (int i = 0; i <= bins; ++i)
    edges[static_cast<size_t>(i)] = (step == 0 ? i / div * delta : i * step) + first;
  edges.back() = last;
  // np.histogram's uniform-bin path, with its one-ulp corrections against the edges.
  counts.assign(static_cast<size_t>(bins), 0);
  for (double x : a) {
    if (!(x >= first && x <= last)) continue;
    auto index = static_cast<int64_t>((x - first) / delta * bins);
    if (index == bins) --index;
    if (x < edges[static_cast<size_t>(index)]) --index;
    if (index != bins - 1 && x >= edges[static_cast<size_t>(index) + 1]) ++index;
    ++counts[static_cast<size_t>(index)];
  }
}

namespace {

// How many rows pandas' head(n) keeps of `rows`: n of them, or all but the last -n.
size_t pandas_head_size(size_t rows, int64_t n) {
  const auto size = static_cast<int64_t>(rows);
  return static_cast<size_t>(n >= 0 ? std::min(n, size) : std::max<int64_t>(size + n, 0));
}

std::vector<KernelRow> short_kernel_rows(const EventStore& s, const TraceTree& tree, double threshold) {
  std::vector<KernelRow> rows = kernel_rows(s, tree);
  std::erase_if(rows, [&](const KernelRow& r) { return !(s.dur[r.event] < threshold); });
  return rows;
}

}  // namespace

Table short_kernel_histogram_table(const EventStore& s, const TraceTree& tree,
                                   const ShortKernelOptions& options) {
  std::vector<double> durations;
  for (const KernelRow& r : short_kernel_rows(s, tree, options.threshold_us))
    durations.push_back(s.dur[r.event]);
  std::vector<double> edges;
  std::vector<int64_t> counts;
  numpy_histogram(durations, options.histogram_bins, edges, counts);
  Table t("short_kernel_histogram", TableKind::kHistogram);
  Column& start = t.add_column("bin_start", ColumnType::kFloat, Unit::kMicroseconds);
  Column& end = t.add_column("bin_end", ColumnType::kFloat, Unit::kMicroseconds);
  Column& count = t.add_column("count", ColumnType::kInt);
  for (size_t i = 0; i < counts.size(); ++i) {
    start.push_float(edges[i]);
    end.push_float(edges[i + 1]);
    count.push_int(counts[i]);
  }
  return t;
}

Table short_kernels_summary_table(const EventStore& s, const TraceTree& tree, double total_time_us,
                                  const ShortKernelOptions& options, const OpArgsSource& args) {
  Table t("short_kernels_summary", TableKind::kSummary);
  const std::vector<KernelRow> rows = short_kernel_rows(s, tree, options.threshold_us);
  if (rows.empty()) return t;  // pd.DataFrame(): a CSV of one empty line

  const bool gpu_only = is_gpu_only_trace(s);
  struct Group {
    std::string_view cpu_op;
    std::string dims, strides, concrete;
    std::string_view name;
    std::vector<double> durations;
    double sum = 0, mean = 0, pct = 0;
  };
  std::vector<Group> groups;
  std::unordered_map<std::string, size_t> index;
  std::unordered_map<uint32_t, OpArgs> args_of;  // per cpu_op, read once
  OpArgsLookup read_args(s, args);
  std::string key;
  for (const KernelRow& r : rows) {
    Group g;
    g.name = s.name_of(r.event);
    key.assign(g.name);
    if (!gpu_only) {
      if (r.cpu_op == kNoParent) continue;  // NaN key: dropped by groupby
      const auto op = static_cast<uint32_t>(r.cpu_op);
      auto it = args_of.find(op);
      if (it == args_of.end()) it = args_of.emplace(op, read_args(op)).first;
      const OpArgs& a = it->second;
      if (!a.input_dims || !a.input_strides || !a.concrete_inputs) continue;
      g.cpu_op = s.name_of(op);
      g.dims = *a.input_dims;
      g.strides = *a.input_strides;
      g.concrete = *a.concrete_inputs;
      for (std::string_view part : {g.cpu_op, std::string_view(g.dims), std::string_view(g.strides),
                                    std::string_view(g.concrete)}) {
        key += '\x1f';
        key += part;
      }
    }
    auto [it, inserted] = index.try_emplace(key, groups.size());
    if (inserted) groups.push_back(std::move(g));
    groups[it->second].durations.push_back(s.dur[r.event]);
  }

  if (groups.empty()) {
    // Every row had a missing key: pandas leaves the empty result's two-level
    // columns, which to_csv writes as two header lines.
    const char* second[] = {"sum", "count", "mean"};
    for (const char* s2 : second) t.add_column("Kernel duration (µs)", ColumnType::kString).push_string(s2);
    return t;
  }

  const double total_us = total_time_us / 1e3 * 1e3;
  for (Group& g : groups) {
    g.sum = stats::pandas_sum(g.durations);
    g.mean = stats::pandas_mean(g.durations);
    g.pct = g.sum / total_us * 100;
  }
  // Sum descending, then the other value columns ascending; ties keep first occurrence.
  std::vector<size_t> order(groups.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const Group &x = groups[a], &y = groups[b];
    if (x.sum != y.sum) return x.sum > y.sum;
    if (x.durations.size() != y.durations.size()) return x.durations.size() < y.durations.size();
    if (x.mean != y.mean) return x.mean < y.mean;
    return x.pct < y.pct;
  });
  if (options.topk) order.resize(pandas_head_size(order.size(), *options.topk));

  Column* cpu_op = gpu_only ? nullptr : &t.add_column("Parent cpu_op", ColumnType::kString);
  Column* dims = gpu_only ? nullptr : &t.add_column("Input dims", ColumnType::kString);
  Column* strides = gpu_only ? nullptr : &t.add_column("Input strides", ColumnType::kString);
  Column* concrete = gpu_only ? nullptr : &t.add_column("Concrete Inputs", ColumnType::kString);
  Column& name = t.add_column("Kernel name", ColumnType::kString);
  Column& sum = t.add_column("Short Kernel duration (µs) sum", ColumnType::kFloat, Unit::kMicroseconds);
  Column& count = t.add_column("Short Kernel count", ColumnType::kInt);
  Column& mean = t.add_column("Short Kernel duration (µs) mean", ColumnType::kFloat, Unit::kMicroseconds);
  Column& pct = t.add_column("Short Kernel duration (µs) percent of total time", ColumnType::kFloat, Unit::kPercent);
  for (size_t i : order) {
    const Group& g = groups[i];
    if (!gpu_only) {
      cpu_op->push_string(g.cpu_op);
      dims->push_string(g.dims);
      strides->push_string(g.strides);
      concrete->push_string(g.concrete);
    }
    name.push_string(g.name);
    sum.push_float(g.sum);
    count.push_int(static_cast<int64_t>(g.durations.size()));
    mean.push_float(g.mean);
    pct.push_float(g.pct);
  }
  return t;
}

}  // namespace sollens
