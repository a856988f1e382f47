#include "analyses/ops/kernel_summary.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <tuple>

#include "analyses/ops/kernel_rows.h"
#include "analyses/ops/op_categories.h"
#include "base/stats.h"

namespace sollens {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  return out;
}

// The category a cpu_op shows as a kernel's parent: with its kernel-name fallback
// only when it is a launcher (only launchers carry kernel_details in TraceLens).
std::string_view cpu_op_category(const EventStore& s, const LauncherTable& lt, uint32_t op) {
  if (const KernelLauncher* l = lt.find(op)) return l->category;
  return categorize_op(s.name_of(op), std::nullopt);
}

// Keys with pandas' groupby order: values ascending, missing (NaN) last.
using OptText = std::optional<std::string_view>;
struct Key {
  OptText category, cpu_op;
  std::string_view name;
  std::optional<int64_t> stream;
};
template <class T>
int cmp_opt(const std::optional<T>& a, const std::optional<T>& b) {
  if (a.has_value() != b.has_value()) return a.has_value() ? -1 : 1;
  if (!a) return 0;
  return *a < *b ? -1 : *b < *a ? 1 : 0;
}
struct KeyLess {
  bool operator()(const Key& a, const Key& b) const {
    if (int c = cmp_opt(a.category, b.category)) return c < 0;
    if (int c = cmp_opt(a.cpu_op, b.cpu_op)) return c < 0;
    if (a.name != b.name) return a.name < b.name;
    return cmp_opt(a.stream, b.stream) < 0;
  }
};

}  // namespace

Table kernel_summary_table(const EventStore& s, const TraceTree& tree, const LauncherTable& lt,
                           double total_time_us) {
  const std::vector<KernelRow> rows = kernel_rows(s, tree);
  bool any_cpu_op = false, any_missing_stream = false;
  for (const KernelRow& r : rows) {
    any_cpu_op |= r.cpu_op != kNoParent;
    any_missing_stream |= s.stream[r.event] == kNoValue;
  }
  std::map<Key, std::vector<double>, KeyLess> groups;
  std::vector<double> all;
  all.reserve(rows.size());
  for (const KernelRow& r : rows) {
    Key k;
    if (r.cpu_op != kNoParent) {
      const auto op = static_cast<uint32_t>(r.cpu_op);
      k.cpu_op = s.name_of(op);
      k.category = cpu_op_category(s, lt, op);
    } else if (r.launcher != kNoParent) {
      const std::string_view launcher = s.name_of(static_cast<uint32_t>(r.launcher));
      if (any_cpu_op) k.cpu_op = launcher;  // fillna from Launcher
      const std::string l = lower(launcher);
      if (l.find("cudagraph") != std::string::npos || l.find("graphlaunch") != std::string::npos)
        k.category = "graph";
      else if (!l.empty() && l != "nan")
        k.category = "runtime";
    }
    k.name = s.name_of(r.event);
    if (s.stream[r.event] != kNoValue) k.stream = s.stream[r.event];
    groups[k].push_back(s.dur[r.event]);
    all.push_back(s.dur[r.event]);
  }

  struct Row {
    const Key* key;
    double sum, mean, min, max;
    size_t count;
  };
  std::vector<Row> out;
  for (const auto& [k, d] : groups)
    out.push_back({&k, stats::pandas_sum(d), stats::pandas_mean(d),
                   *std::min_element(d.begin(), d.end()), *std::max_element(d.begin(), d.end()),
                   d.size()});
  {  // sort_values(sum, ascending=False): NumPy quicksort, ties as pandas leaves them
    std::vector<double> sums;
    for (const Row& r : out) sums.push_back(r.sum);
    std::vector<Row> sorted;
    for (size_t i : stats::pandas_argsort_desc(sums)) sorted.push_back(out[i]);
    out = std::move(sorted);
  }

  const double total_kernels_us = stats::numpy_sum(all);
  const double total_us = total_time_us / 1e3 * 1e3;  // total_time ms * 1e3, as TraceLens
  Table t("kernel_summary", TableKind::kSummary);
  Column& category = t.add_column("Parent op category", ColumnType::kString);
  Column* cpu_op = any_cpu_op ? &t.add_column("Parent cpu_op", ColumnType::kString) : nullptr;
  Column& name = t.add_column("Kernel name", ColumnType::kString);
  Column& stream =
      t.add_column("Kernel stream", any_missing_stream ? ColumnType::kFloat : ColumnType::kInt);
  Column& sum = t.add_column("Kernel duration (µs)_sum", ColumnType::kFloat, Unit::kMicroseconds);
  Column& count = t.add_column("Kernel duration (µs)_count", ColumnType::kInt);
  Column& mean = t.add_column("Kernel duration (µs)_mean", ColumnType::kFloat, Unit::kMicroseconds);
  Column& min = t.add_column("Kernel duration (µs)_min", ColumnType::kFloat, Unit::kMicroseconds);
  Column& max = t.add_column("Kernel duration (µs)_max", ColumnType::kFloat, Unit::kMicroseconds);
  Column& pct_kernels = t.add_column("Percent of kernels time (%)", ColumnType::kFloat, Unit::kPercent);
  Column& pct_total = t.add_column("Percent of total time (%)", ColumnType::kFloat, Unit::kPercent);
  for (const Row& r : out) {
    const Key& k = *r.key;
    if (k.category) category.push_string(*k.category);
    else category.push_null();
    if (cpu_op) {
      if (k.cpu_op) cpu_op->push_string(*k.cpu_op);
      else cpu_op->push_null();
    }
    name.push_string(k.name);
    if (!k.stream) stream.push_null();
    else if (any_missing_stream) stream.push_float(static_cast<double>(*k.stream));
    else stream.push_int(*k.stream);
    sum.push_float(r.sum);
    count.push_int(static_cast<int64_t>(r.count));
    mean.push_float(r.mean);
    min.push_float(r.min);
    max.push_float(r.max);
    if (total_kernels_us > 0) pct_kernels.push_float(r.sum / total_kernels_us * 100);
    else pct_kernels.push_null();
    if (total_us != 0) pct_total.push_float(r.sum / total_us * 100);
    else pct_total.push_null();
  }
  return t;
}

}  // namespace sollens
