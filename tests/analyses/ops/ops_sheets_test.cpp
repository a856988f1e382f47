#include <catch2/catch.hpp>

#include "analyses/ops/kernel_details.h"
#include "analyses/ops/kernel_launchers.h"
#include "analyses/ops/kernel_summary.h"
#include "analyses/ops/ops_sheets.h"
#include "analyses/ops/short_kernels.h"
#include "base/stats.h"
#include "analyses/ops/trace_builder.h"
#include "ingest/trace_reader.h"
#include "support/table_column.h"
#include "writers/csv_writer.h"

using namespace sollens;
using test::col;

namespace {

struct Sheets {
  std::unique_ptr<EventStore> store;
  TraceTree tree;
  LauncherTable launchers;
};

Sheets build(const std::string& json) {
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(json));
  REQUIRE(r.ok());
  Sheets s{std::move(r.value()), {}, {}};
  s.tree = TraceTree::build(*s.store);
  s.launchers = find_kernel_launchers(*s.store, s.tree);
  return s;
}

// Three aten::addmm calls with the same args (kernel times 4, 6, 11) and one with
// other args (5), plus an aten::mul launching two kernels.
std::string three_plus_one() {
  const std::string a = R"("Input Dims":[[512],[141,512],[512,512],[],[]],"Input type":["c10::BFloat16","c10::BFloat16","c10::BFloat16","Scalar","Scalar"],"Input Strides":[[1],[512,1],[1,512],[],[]],"Concrete Inputs":["","","","1","1"])";
  const std::string b = R"("Input Dims":[[8]],"Input type":["float"],"Input Strides":[[1]],"Concrete Inputs":["it's"])";
  test::TraceBuilder t;
  t.raw(R"({"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"python3"}})")
      .raw(R"({"ph":"M","name":"process_labels","pid":1,"tid":0,"args":{"labels":"CPU"}})")
      .raw(R"j({"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"thread 1 (python3)"}})j")
      .cpu_op("aten::addmm", 10, 5, a).launch(11, "gemm_a", 100, 4)
      .cpu_op("aten::addmm", 20, 5, a).launch(21, "gemm_a", 110, 6)
      .cpu_op("aten::addmm", 30, 5, a).launch(31, "gemm_a", 120, 11)
      .cpu_op("aten::addmm", 40, 5, b).launch(41, "gemm_b", 140, 5)
      .cpu_op("aten::mul", 50, 5, b).launch(51, "mul_k1", 150, 1).launch(52, "mul_k2", 152, 2);
  return t.json();
}

}  // namespace

TEST_CASE("ops_unique_args: groups by the 9 key columns, std ddof=1, empty for one row") {
  const Sheets s = build(three_plus_one());
  const Table t = ops_unique_args_table(*s.store, s.launchers);
  REQUIRE(t.num_rows() == 3);
  // Sorted by direct sum descending: 21 (three addmm), 5, 3.
  CHECK(col(t, "name").string_at(0) == "aten::addmm");
  CHECK(col(t, "Input Dims").string_at(0) == "((512,), (141, 512), (512, 512), (), ())");
  CHECK(col(t, "Input type").string_at(0) ==
        "('c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'Scalar', 'Scalar')");
  CHECK(col(t, "Concrete Inputs").string_at(0) == "('', '', '', '1', '1')");
  CHECK(col(t, "Concrete Inputs").string_at(1) == "(\"it's\",)");
  CHECK(col(t, "process_name").string_at(0) == "python3");
  CHECK(col(t, "process_label").string_at(0) == "CPU");
  CHECK(col(t, "thread_name").string_at(0) == "thread 1 (python3)");
  CHECK(col(t, "operation_count").int_at(0) == 3);
  CHECK(col(t, "total_direct_kernel_time_sum").float_at(0) == Approx(21));
  CHECK(col(t, "total_direct_kernel_time_mean").float_at(0) == Approx(7));
  CHECK(col(t, "total_direct_kernel_time_median").float_at(0) == Approx(6));
  // sample std of 4, 6, 11: sqrt(((3)^2 + 1 + 4^2) / 2) = sqrt(13)
  CHECK(col(t, "total_direct_kernel_time_std").float_at(0) == Approx(std::sqrt(13.0)));
  CHECK(col(t, "total_direct_kernel_time_std").is_null(1));
  CHECK(col(t, "total_direct_kernel_time_min").float_at(0) == Approx(4));
  CHECK(col(t, "total_direct_kernel_time_max").float_at(0) == Approx(11));
  CHECK(col(t, "ex_UID").int_at(0) == 3);  // the first addmm's row
  CHECK(col(t, "Percentage (%)").float_at(0) == Approx(21.0 / 29 * 100));
  CHECK(col(t, "Cumulative Percentage (%)").float_at(2) == Approx(100));
  // Per position, population std: 4, 6, 11 -> sqrt(26/3)
  const std::string summary = col(t, "kernel_details_summary").string_at(0);
  CHECK(summary.starts_with("[{'name': 'gemm_a', 'stream': 7, 'count': 3, 'total_duration_us': 21.0, "
                            "'mean_duration_us': 7.0, 'median_duration_us': 6.0, 'std_dev_duration_us': "));
  CHECK(summary.ends_with(", 'min_duration_us': 4.0, 'max_duration_us': 11.0}]"));
  CHECK(col(t, "trunc_kernel_details").string_at(0) ==
        "[{'name': 'gemm_a', 'stream': 7, 'mean_duration_us': 7.0}]");
  // aten::mul: two positions, sorted by (total, name).
  CHECK(col(t, "kernel_details_summary").string_at(2).find("'mul_k1'") <
        col(t, "kernel_details_summary").string_at(2).find("'mul_k2'"));
}

TEST_CASE("kernel_details: stats per position with ddof=0; other-length rows skipped") {
  const Sheets s = build(three_plus_one());
  // Lists of the three addmm rows plus the 2-kernel mul row (skipped: other length).
  std::vector<std::span<const uint32_t>> lists;
  for (const auto& l : s.launchers.launchers) lists.emplace_back(l.kernels);
  lists.erase(lists.begin() + 3);  // drop gemm_b: a1, a2, a3, mul
  const auto stats = summarize_kernel_stats(*s.store, lists);
  REQUIRE(stats.size() == 1);
  CHECK(stats[0].count == 3);
  CHECK(stats[0].std_us == Approx(std::sqrt(26.0 / 3)));
  CHECK(numpy_round(2.645, 2) == 2.64);  // rint(264.49999999999997) / 100
}

TEST_CASE("ops_summary and ops_summary_by_category") {
  const Sheets s = build(three_plus_one());
  const Table by_cat = ops_summary_by_category_table(s.launchers);
  REQUIRE(by_cat.num_rows() == 2);
  CHECK(col(by_cat, "op category").string_at(0) == "GEMM");
  CHECK(col(by_cat, "Count").int_at(0) == 4);
  CHECK(col(by_cat, "total_direct_kernel_time_ms").float_at(0) == Approx(0.026));
  CHECK(col(by_cat, "op category").string_at(1) == "elementwise");
  const Table summary = ops_summary_table(*s.store, s.launchers);
  CHECK(to_csv(summary).starts_with(
      "name,total_direct_kernel_time_sum,total_subtree_kernel_time_sum,total_direct_kernel_time_ms,"
      "total_subtree_kernel_time_ms,Count,Categories,Percentage (%),Cumulative Percentage (%)\n"
      "aten::addmm,26.0,26.0,0.026,0.026,4,['GEMM'],"));
}

TEST_CASE("kernel_summary and short kernels on a small trace") {
  const Sheets s = build(three_plus_one());
  const Table k = kernel_summary_table(*s.store, s.tree, s.launchers, 100);
  REQUIRE(k.num_rows() == 4);
  CHECK(col(k, "Parent cpu_op").string_at(0) == "aten::addmm");
  CHECK(col(k, "Kernel duration (µs)_sum").float_at(0) == Approx(21));
  CHECK(col(k, "Percent of total time (%)").float_at(0) == Approx(21));
  const Table h = short_kernel_histogram_table(*s.store, s.tree);
  REQUIRE(h.num_rows() == 100);
  int64_t total = 0;
  for (size_t i = 0; i < h.num_rows(); ++i) total += col(h, "count").int_at(i);
  CHECK(total == 5);  // 4, 6, 5, 1, 2 (11 is not short)
  const Table sk = short_kernels_summary_table(*s.store, s.tree, 100);
  CHECK(col(sk, "Input dims").string_at(0) == "((512,), (141, 512), (512, 512), (), ())");
}

TEST_CASE("numpy histogram and pandas' descending quicksort") {
  std::vector<double> edges;
  std::vector<int64_t> counts;
  numpy_histogram(std::vector<double>{1, 2, 2, 3}, 2, edges, counts);
  CHECK(edges == std::vector<double>{1, 2, 3});
  CHECK(counts == std::vector<int64_t>{1, 3});
  numpy_histogram(std::vector<double>{5}, 2, edges, counts);
  CHECK(edges == std::vector<double>{4.5, 5, 5.5});
  CHECK(counts == std::vector<int64_t>{0, 1});
  // Small arrays: insertion sort on the reversed values, so ties come out reversed.
  CHECK(stats::pandas_argsort_desc(std::vector<double>{1, 3, 3, 2}) == std::vector<size_t>{1, 2, 3, 0});
  std::vector<double> many(40, 1.0);
  many[7] = 5;
  CHECK(stats::pandas_argsort_desc(many)[0] == 7);
}

TEST_CASE("ops_unique_args: first_occurrence_time after operation_count, from the earliest group") {
  const Sheets s = build(three_plus_one());
  const Table t = ops_unique_args_table(*s.store, s.launchers, ProcessThreadNames(*s.store),
                                        {.first_occurrence_time = true});
  REQUIRE(t.num_rows() == 3);
  CHECK(t.column(9).name() == "operation_count");
  CHECK(t.column(10).name() == "first_occurrence_time");
  // Groups by direct sum: addmm (first call at ts 10), addmm other args (40), mul (50);
  // less the earliest group's 10 µs.
  CHECK(col(t, "first_occurrence_time").float_at(0) == 0);
  CHECK(col(t, "first_occurrence_time").float_at(1) == 30);
  CHECK(col(t, "first_occurrence_time").float_at(2) == 40);
  CHECK(t.column(11).name() == "total_direct_kernel_time_mean");
}

TEST_CASE("ops_unique_args: --group-by-num-kernels splits a group by each launcher's kernel count") {
  // Three aten::add calls with the same args: one kernel of 5 µs; two kernels of 3 and
  // 4 µs (busy 7); one kernel of 1 µs.
  const std::string a = R"("Input Dims":[[8]],"Input type":["float"],"Input Strides":[[1]],"Concrete Inputs":[""])";
  test::TraceBuilder t;
  t.cpu_op("aten::add", 10, 5, a).launch(11, "add_k", 100, 5)
      .cpu_op("aten::add", 20, 5, a).launch(21, "add_k", 110, 3).launch(22, "add_k2", 114, 4)
      .cpu_op("aten::add", 30, 5, a).launch(31, "add_k", 120, 1);
  const Sheets s = build(t.json());

  const Table plain = ops_unique_args_table(*s.store, s.launchers);
  REQUIRE(plain.num_rows() == 1);
  CHECK(col(plain, "operation_count").int_at(0) == 3);
  CHECK(col(plain, "total_direct_kernel_time_sum").float_at(0) == Approx(13));

  const Table split = ops_unique_args_table(*s.store, s.launchers, ProcessThreadNames(*s.store),
                                            {.num_kernels_column = true});
  CHECK(split.column(8).name() == "Concrete Inputs");
  CHECK(split.column(9).name() == "num_kernels");
  CHECK(split.column(10).name() == "operation_count");
  // By direct sum descending: the two-kernel call (7 µs), then the one-kernel calls (5 + 1).
  REQUIRE(split.num_rows() == 2);
  CHECK(col(split, "num_kernels").int_at(0) == 2);
  CHECK(col(split, "operation_count").int_at(0) == 1);
  CHECK(col(split, "total_direct_kernel_time_sum").float_at(0) == Approx(7));
  CHECK(col(split, "num_kernels").int_at(1) == 1);
  CHECK(col(split, "operation_count").int_at(1) == 2);
  CHECK(col(split, "total_direct_kernel_time_sum").float_at(1) == Approx(6));

  // With is_recompute too: num_kernels first, then is_recompute.
  const Table both = ops_unique_args_table(*s.store, s.launchers, ProcessThreadNames(*s.store),
                                           {.recompute_column = true, .num_kernels_column = true});
  CHECK(both.column(9).name() == "num_kernels");
  CHECK(both.column(10).name() == "is_recompute");
}
