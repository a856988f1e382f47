#include "analyses/ops/ops_sheets.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

#include "analyses/ops/kernel_details.h"
#include "analyses/ops/op_args.h"
#include "analyses/ops/percentage_columns.h"
#include "analyses/ops/process_names.h"
#include "base/stats.h"
#include "base/python_repr.h"

namespace sollens {

namespace {

// sort_values(by=sum, ascending=False) on groups in key order; ties as pandas leaves them.
template <class Group>
std::vector<size_t> order_by_sum_desc(const std::vector<Group>& groups) {
  std::vector<double> sums;
  for (const Group& g : groups) sums.push_back(g.direct_sum);
  return stats::pandas_argsort_desc(sums);
}

void push_optional(Column& c, const std::optional<std::string>& v) {
  if (v) c.push_string(*v);
  else c.push_null();
}

}  // namespace

Table ops_summary_by_category_table(const LauncherTable& lt, const OpsSheetOptions& options) {
  const bool recompute_column = options.recompute_column;
  struct Group {
    std::string_view category;
    bool recompute = false;
    std::vector<double> direct;
    double direct_sum = 0;
  };
  // groupby sorts its keys; every launcher is non-recompute unless the column is asked for.
  std::map<std::pair<std::string_view, bool>, std::vector<double>> by_category;
  for (const auto& l : lt.launchers)
    by_category[{l.category, recompute_column && l.is_recompute}].push_back(l.direct_time_us);
  std::vector<Group> groups;
  for (auto& [key, direct] : by_category) {
    groups.push_back({key.first, key.second, std::move(direct), 0});
    groups.back().direct_sum = stats::pandas_sum(groups.back().direct);
  }
  Table t("ops_summary_by_category", TableKind::kSummary);
  Column& category = t.add_column("op category", ColumnType::kString);
  Column* recompute = recompute_column ? &t.add_column("is_recompute", ColumnType::kBool) : nullptr;
  Column& count = t.add_column("Count", ColumnType::kInt);
  Column& ms = t.add_column("total_direct_kernel_time_ms", ColumnType::kFloat, Unit::kMilliseconds);
  std::vector<double> ms_values;
  for (size_t i : order_by_sum_desc(groups)) {
    category.push_string(groups[i].category);
    if (recompute) recompute->push_bool(groups[i].recompute);
    count.push_int(static_cast<int64_t>(groups[i].direct.size()));
    ms_values.push_back(groups[i].direct_sum / 1000);
    ms.push_float(ms_values.back());
  }
  add_percentage_columns(t, ms_values);
  return t;
}

Table ops_summary_table(const EventStore& s, const LauncherTable& lt, const OpsSheetOptions& options) {
  const bool recompute_column = options.recompute_column;
  struct Group {
    std::string_view name;
    bool recompute = false;
    std::vector<double> direct, subtree;
    std::set<std::string_view> categories;
    double direct_sum = 0, subtree_sum = 0;
  };
  std::map<std::pair<std::string_view, bool>, Group> by_name;
  for (const auto& l : lt.launchers) {
    const bool recompute = recompute_column && l.is_recompute;
    Group& g = by_name[{s.name_of(l.event), recompute}];
    g.name = s.name_of(l.event);
    g.recompute = recompute;
    g.direct.push_back(l.direct_time_us);
    g.subtree.push_back(l.subtree_time_us);
    g.categories.insert(l.category);
  }
  std::vector<Group> groups;
  for (auto& [name, g] : by_name) {
    g.direct_sum = stats::pandas_sum(g.direct);
    g.subtree_sum = stats::pandas_sum(g.subtree);
    groups.push_back(std::move(g));
  }
  Table t("ops_summary", TableKind::kSummary);
  Column& name = t.add_column("name", ColumnType::kString);
  Column* recompute = recompute_column ? &t.add_column("is_recompute", ColumnType::kBool) : nullptr;
  Column& direct_sum = t.add_column("total_direct_kernel_time_sum", ColumnType::kFloat, Unit::kMicroseconds);
  Column& subtree_sum = t.add_column("total_subtree_kernel_time_sum", ColumnType::kFloat, Unit::kMicroseconds);
  Column& direct_ms = t.add_column("total_direct_kernel_time_ms", ColumnType::kFloat, Unit::kMilliseconds);
  Column& subtree_ms = t.add_column("total_subtree_kernel_time_ms", ColumnType::kFloat, Unit::kMilliseconds);
  Column& count = t.add_column("Count", ColumnType::kInt);
  Column& categories = t.add_column("Categories", ColumnType::kString);
  std::vector<double> ms_values;
  for (size_t i : order_by_sum_desc(groups)) {
    const Group& g = groups[i];
    name.push_string(g.name);
    if (recompute) recompute->push_bool(g.recompute);
    direct_sum.push_float(g.direct_sum);
    subtree_sum.push_float(g.subtree_sum);
    ms_values.push_back(g.direct_sum / 1000);
    direct_ms.push_float(ms_values.back());
    subtree_ms.push_float(g.subtree_sum / 1000);
    count.push_int(static_cast<int64_t>(g.direct.size()));
    PythonReprBuilder list(PythonReprBuilder::Kind::kList);  // sorted(set(categories))
    for (std::string_view c : g.categories) append_python_str_repr(list.element(), c);
    categories.push_string(list.finish());
  }
  add_percentage_columns(t, ms_values);
  return t;
}

Table ops_unique_args_table(const EventStore& s, const LauncherTable& lt, const ProcessThreadNames& names,
                            const OpsSheetOptions& options, const OpArgsSource& op_args) {
  const bool recompute_column = options.recompute_column;
  struct Group {
    std::string_view name, category, process_name, process_label, thread_name;
    OpArgs args;
    size_t num_kernels = 0;  // the first launcher's, as pandas' "first"
    bool recompute = false;
    uint32_t ex_uid = 0;
    double first_ts = 0;  // earliest launcher ts
    std::vector<double> direct, subtree;
    std::vector<std::span<const uint32_t>> kernels;
    double direct_sum = 0;
  };
  OpArgsLookup read_args(s, op_args);
  std::vector<Group> groups;
  std::unordered_map<std::string, size_t> index;  // str() of the 9 key columns
  std::string key;
  auto append_key = [&](std::string_view v) {
    key += v;
    key += '\x1f';
  };
  for (const auto& l : lt.launchers) {
    const uint32_t e = l.event;
    OpArgs args = read_args(e);
    key.clear();
    append_key(s.name_of(e));
    append_key(l.category);
    append_key(names.process_name(s.pid[e]));
    append_key(names.process_label(s.pid[e]));
    append_key(names.thread_name(s.pid[e], s.tid[e]));
    for (const auto* a : {&args.input_dims, &args.input_type, &args.input_strides, &args.concrete_inputs})
      append_key(*a ? std::string_view(**a) : std::string_view("None"));
    if (options.num_kernels_column) append_key(std::to_string(l.kernels.size()));
    const bool recompute = recompute_column && l.is_recompute;
    append_key(recompute ? "True" : "False");
    auto [it, inserted] = index.try_emplace(key, groups.size());
    if (inserted) {
      groups.push_back({s.name_of(e), l.category, names.process_name(s.pid[e]),
                        names.process_label(s.pid[e]), names.thread_name(s.pid[e], s.tid[e]),
                        std::move(args), l.kernels.size(), recompute, e, s.ts[e], {}, {}, {}, 0});
    }
    Group& g = groups[it->second];
    g.first_ts = std::min(g.first_ts, s.ts[e]);
    g.direct.push_back(l.direct_time_us);
    g.subtree.push_back(l.subtree_time_us);
    g.kernels.emplace_back(l.kernels);
  }
  std::vector<double> direct_sums;
  std::vector<uint32_t> ex_uids;
  for (Group& g : groups) {
    g.direct_sum = stats::pandas_sum(g.direct);
    direct_sums.push_back(g.direct_sum);
    ex_uids.push_back(g.ex_uid);
  }
  const std::vector<size_t> order = stats::argsort_sum_desc_ex_uid_asc(direct_sums, ex_uids);

  Table t("ops_unique_args", TableKind::kSummary);
  Column& name = t.add_column("name", ColumnType::kString);
  Column& category = t.add_column("op category", ColumnType::kString);
  Column& process_name = t.add_column("process_name", ColumnType::kString);
  Column& process_label = t.add_column("process_label", ColumnType::kString);
  Column& thread_name = t.add_column("thread_name", ColumnType::kString);
  Column& dims = t.add_column("Input Dims", ColumnType::kString);
  Column& types = t.add_column("Input type", ColumnType::kString);
  Column& strides = t.add_column("Input Strides", ColumnType::kString);
  Column& concrete = t.add_column("Concrete Inputs", ColumnType::kString);
  Column* num_kernels = options.num_kernels_column ? &t.add_column("num_kernels", ColumnType::kInt) : nullptr;
  Column* recompute = recompute_column ? &t.add_column("is_recompute", ColumnType::kBool) : nullptr;
  Column& count = t.add_column("operation_count", ColumnType::kInt);
  Column* first_occurrence = options.first_occurrence_time
                                 ? &t.add_column("first_occurrence_time", ColumnType::kFloat, Unit::kMicroseconds)
                                 : nullptr;
  double earliest = std::numeric_limits<double>::infinity();
  for (const Group& g : groups) earliest = std::min(earliest, g.first_ts);
  const char* kStats[] = {"mean", "median", "std", "min", "max", "sum"};
  Column* metric[6][2];
  for (int m = 0; m < 6; ++m)
    for (int k = 0; k < 2; ++k)
      metric[m][k] = &t.add_column(std::string(k ? "total_subtree_kernel_time_" : "total_direct_kernel_time_") +
                                       kStats[m],
                                   ColumnType::kFloat, Unit::kMicroseconds);
  Column& ex_uid = t.add_column("ex_UID", ColumnType::kInt);
  Column& summary = t.add_column("kernel_details_summary", ColumnType::kString);
  Column& trunc = t.add_column("trunc_kernel_details", ColumnType::kString);
  std::vector<double> sums;
  for (size_t i : order) {
    const Group& g = groups[i];
    name.push_string(g.name);
    category.push_string(g.category);
    process_name.push_string(g.process_name);
    process_label.push_string(g.process_label);
    thread_name.push_string(g.thread_name);
    push_optional(dims, g.args.input_dims);
    push_optional(types, g.args.input_type);
    push_optional(strides, g.args.input_strides);
    push_optional(concrete, g.args.concrete_inputs);
    if (num_kernels) num_kernels->push_int(static_cast<int64_t>(g.num_kernels));
    if (recompute) recompute->push_bool(g.recompute);
    count.push_int(static_cast<int64_t>(g.direct.size()));
    if (first_occurrence) first_occurrence->push_float(g.first_ts - earliest);
    for (int k = 0; k < 2; ++k) {
      const std::vector<double>& v = k ? g.subtree : g.direct;
      metric[0][k]->push_float(stats::pandas_mean(v));
      metric[1][k]->push_float(stats::median(v));
      if (auto sd = stats::pandas_std(v)) metric[2][k]->push_float(*sd);
      else metric[2][k]->push_null();
      metric[3][k]->push_float(*std::min_element(v.begin(), v.end()));
      metric[4][k]->push_float(*std::max_element(v.begin(), v.end()));
      metric[5][k]->push_float(stats::pandas_sum(v));
    }
    ex_uid.push_int(g.ex_uid);
    const auto kstats = summarize_kernel_stats(s, g.kernels);
    summary.push_string(kernel_details_summary_repr(kstats));
    push_optional(trunc, trunc_kernel_details_repr(kstats));
    sums.push_back(g.direct_sum);
  }
  add_percentage_columns(t, sums);
  return t;
}

Table ops_unique_args_table(const EventStore& s, const LauncherTable& lt) {
  return ops_unique_args_table(s, lt, ProcessThreadNames(s));
}

}  // namespace sollens
