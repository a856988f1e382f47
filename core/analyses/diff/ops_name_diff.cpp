#include "analyses/diff/ops_name_diff.h"

#include <map>

namespace sollens {

namespace {

struct NameTotals {
  int64_t counts[2] = {0, 0};
  double duration_us[2] = {0, 0};
};

bool is_host_op(const EventStore& s, size_t i) {
  const Category c = s.category[i];
  return s.phase[i] == Phase::kComplete && (c == Category::kCpuOp || c == Category::kUserAnnotation ||
                                            c == Category::kCudaRuntime || c == Category::kCudaDriver);
}

const char* change_of(const NameTotals& t) {
  if (t.counts[0] == 0) return "added";
  if (t.counts[1] == 0) return "deleted";
  return t.counts[1] > t.counts[0] ? "increased" : t.counts[1] < t.counts[0] ? "decreased" : "unchanged";
}

}  // namespace

Table ops_name_diff_table(const EventStore& baseline, const EventStore& variant, const CompareTags& tags) {
  std::map<std::string, NameTotals> by_name;  // sorted by name, as HTA's groupby
  const EventStore* runs[2] = {&baseline, &variant};
  for (int side = 0; side < 2; ++side)
    for (size_t i = 0; i < runs[side]->size(); ++i)
      if (is_host_op(*runs[side], i)) {
        NameTotals& t = by_name[std::string(runs[side]->name_of(i))];
        ++t.counts[side];
        t.duration_us[side] += runs[side]->dur[i];
      }
  Table t("ops_diff", TableKind::kComparison);
  Column& name = t.add_column("name", ColumnType::kString);
  Column& change = t.add_column("change", ColumnType::kString);
  Column& diff_counts = t.add_column("diff_counts", ColumnType::kInt);
  Column& diff_duration = t.add_column("diff_duration_us", ColumnType::kFloat, Unit::kMicroseconds);
  Column* counts[2] = {&t.add_column(tags.baseline + "::counts", ColumnType::kInt),
                       &t.add_column(tags.variant + "::counts", ColumnType::kInt)};
  Column* duration[2] = {&t.add_column(tags.baseline + "::total_duration_us", ColumnType::kFloat, Unit::kMicroseconds),
                         &t.add_column(tags.variant + "::total_duration_us", ColumnType::kFloat, Unit::kMicroseconds)};
  for (const auto& [n, totals] : by_name) {
    name.push_string(n);
    change.push_string(change_of(totals));
    diff_counts.push_int(totals.counts[1] - totals.counts[0]);
    diff_duration.push_float(totals.duration_us[1] - totals.duration_us[0]);
    for (int side = 0; side < 2; ++side) {
      counts[side]->push_int(totals.counts[side]);
      duration[side]->push_float(totals.duration_us[side]);
    }
  }
  return t;
}

}  // namespace sollens
