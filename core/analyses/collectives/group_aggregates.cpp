#include "analyses/collectives/group_aggregates.h"

#include <algorithm>
#include <cmath>

#include "base/stats.h"

namespace sollens::collectives {

namespace {

// Absent or NaN: an empty cell, as pandas writes a missing value.
void push_optional(Column& c, std::optional<double> v) {
  if (v && !std::isnan(*v)) c.push_float(*v);
  else c.push_null();
}

}  // namespace

void GroupAggregates::add(double dur, std::optional<double> in, std::optional<double> out) {
  durs.push_back(dur);
  if (!in_mb) in_mb = in;
  if (!out_mb) out_mb = out;
}

double GroupAggregates::dur_sum() const { return stats::pandas_sum(durs); }

GroupAggregateColumns::GroupAggregateColumns(Table& table, bool integer_durations)
    : integer_durations_(integer_durations),
      in_mb_(table.add_column("In msg size (MB)_first", ColumnType::kFloat, Unit::kMegabytes)),
      out_mb_(table.add_column("Out msg size (MB)_first", ColumnType::kFloat, Unit::kMegabytes)),
      sum_(table.add_column("dur_sum", integer_durations ? ColumnType::kInt : ColumnType::kFloat, Unit::kMicroseconds)),
      mean_(table.add_column("dur_mean", ColumnType::kFloat, Unit::kMicroseconds)),
      std_(table.add_column("dur_std", ColumnType::kFloat, Unit::kMicroseconds)),
      min_(table.add_column("dur_min", integer_durations ? ColumnType::kInt : ColumnType::kFloat, Unit::kMicroseconds)),
      max_(table.add_column("dur_max", integer_durations ? ColumnType::kInt : ColumnType::kFloat, Unit::kMicroseconds)),
      count_(table.add_column("operation_count", ColumnType::kInt)) {}

void GroupAggregateColumns::push(const GroupAggregates& group) {
  push_optional(in_mb_, group.in_mb);
  push_optional(out_mb_, group.out_mb);
  push_duration(sum_, group.dur_sum());
  mean_.push_float(stats::pandas_mean(group.durs));
  push_optional(std_, stats::pandas_std(group.durs));
  push_duration(min_, *std::min_element(group.durs.begin(), group.durs.end()));
  push_duration(max_, *std::max_element(group.durs.begin(), group.durs.end()));
  count_.push_int(static_cast<int64_t>(group.durs.size()));
}

void GroupAggregateColumns::push_duration(Column& column, double us) {
  if (integer_durations_) column.push_int(static_cast<int64_t>(us));
  else column.push_float(us);
}

}  // namespace sollens::collectives
