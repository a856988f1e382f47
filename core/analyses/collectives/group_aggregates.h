#pragma once
// What both collective summaries, coll_analysis (one rank) and nccl_summary_long (many
// ranks), aggregate for each group of kernels, as TraceLens's agg of df_long does: the
// first message sizes given and the duration statistics, with their columns.
#include <optional>
#include <vector>

#include "table/table.h"

namespace sollens::collectives {

struct GroupAggregates {
  std::vector<double> durs;             // the group's kernels, in file order
  std::optional<double> in_mb, out_mb;  // pandas "first": the first value given

  void add(double dur, std::optional<double> in, std::optional<double> out);
  double dur_sum() const;  // pandas' sum: the summaries sort their rows on it
};

// The columns after a summary's group keys: In msg size (MB)_first, Out msg size (MB)_first,
// dur_sum, dur_mean, dur_std (ddof 1, empty for one kernel), dur_min, dur_max and
// operation_count. With `integer_durations` (every duration a whole number: pandas holds
// an int64 column) dur_sum, dur_min and dur_max are ints.
class GroupAggregateColumns {
 public:
  GroupAggregateColumns(Table& table, bool integer_durations);
  void push(const GroupAggregates& group);

 private:
  void push_duration(Column& column, double us);

  bool integer_durations_;
  Column &in_mb_, &out_mb_, &sum_, &mean_, &std_, &min_, &max_, &count_;
};

}  // namespace sollens::collectives
