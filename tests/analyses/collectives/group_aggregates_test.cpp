// The aggregates coll_analysis and nccl_summary_long share, on hand-made groups; every
// expected value is worked out in the comments.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "analyses/collectives/group_aggregates.h"
#include "support/table_column.h"

using namespace sollens;
using namespace sollens::collectives;
using sollens::test::col;

TEST_CASE("group aggregates: the first sizes given and the duration statistics", "[collectives]") {
  GroupAggregates group;
  group.add(1, std::nullopt, 0.5);
  group.add(2, 3.0, 7.0);
  group.add(4, 5.0, std::nullopt);
  CHECK(group.in_mb == 3.0);   // the first kernel gave none
  CHECK(group.out_mb == 0.5);  // the first given, not the last
  CHECK(group.dur_sum() == 7);

  Table t("summary", TableKind::kCollectives);
  t.add_column("rank", ColumnType::kInt).push_int(0);
  GroupAggregateColumns columns(t, /*integer_durations=*/true);
  columns.push(group);

  std::vector<std::string> names;
  for (size_t c = 0; c < t.num_columns(); ++c) names.push_back(t.column(c).name());
  CHECK(names == std::vector<std::string>{"rank", "In msg size (MB)_first", "Out msg size (MB)_first", "dur_sum",
                                          "dur_mean", "dur_std", "dur_min", "dur_max", "operation_count"});
  CHECK(col(t, "In msg size (MB)_first").float_at(0) == 3.0);
  CHECK(col(t, "Out msg size (MB)_first").float_at(0) == 0.5);
  // Whole-µs durations: sum, min and max are ints; the mean and std stay floats.
  CHECK(col(t, "dur_sum").type() == ColumnType::kInt);
  CHECK(col(t, "dur_sum").int_at(0) == 7);
  CHECK(col(t, "dur_mean").float_at(0) == Approx(7.0 / 3));
  // Deviations from 7/3: -4/3, -1/3, 5/3; squares sum to 42/9; over n - 1 = 2: 7/3.
  CHECK(col(t, "dur_std").float_at(0) == Approx(1.5275252316519468));
  CHECK(col(t, "dur_min").int_at(0) == 1);
  CHECK(col(t, "dur_max").int_at(0) == 4);
  CHECK(col(t, "operation_count").int_at(0) == 3);
}

TEST_CASE("group aggregates: one kernel of fractional µs, no sizes", "[collectives]") {
  GroupAggregates group;
  group.add(2.5, std::nullopt, std::nullopt);
  Table t("summary", TableKind::kCollectives);
  GroupAggregateColumns columns(t, /*integer_durations=*/false);
  columns.push(group);
  CHECK(col(t, "In msg size (MB)_first").is_null(0));
  CHECK(col(t, "Out msg size (MB)_first").is_null(0));
  CHECK(col(t, "dur_sum").type() == ColumnType::kFloat);
  CHECK(col(t, "dur_sum").float_at(0) == 2.5);
  CHECK(col(t, "dur_mean").float_at(0) == 2.5);
  CHECK(col(t, "dur_std").is_null(0));  // ddof 1 over one value: none
  CHECK(col(t, "dur_min").float_at(0) == 2.5);
  CHECK(col(t, "dur_max").float_at(0) == 2.5);
  CHECK(col(t, "operation_count").int_at(0) == 1);
}
