// The ranks' verdict (analyses/ranks/straggler_verdict.h) on cross-rank sheets written
// here by hand: three ranks, two all-reduces.
//   collective 0: starts r0 100, r1 130, r2 100 µs → waits 30, 0, 30; skew 30; earliest r0
//   collective 1: starts r0 200, r1 210, r2 250 µs → waits 50, 40, 0; skew 50; earliest r0
// Total waits r0 80, r1 40, r2 30: straggler_summary lists r2 first (arrived last once).
// Lateness Σ (start − earliest): r0 0, r1 30 + 10 = 40, r2 0 + 50 = 50 µs (= Σ skew − wait).
// At collective 1 (where r2 came last) r0 waited 50 and r1 40 µs: 45 µs each on average;
// their GPU time 1.0 and 0.5 ms, mean 0.75 ms: 0.045 / 0.75 = 6.0 %.
#include <catch2/catch.hpp>

#include "analyses/ranks/straggler_verdict.h"
#include "support/table_column.h"

using namespace sollens;

namespace {

std::vector<Table> cross_rank_sheets() {
  Table summary("straggler_summary", TableKind::kRanks);
  Column& rank = summary.add_column("rank", ColumnType::kInt);
  Column& last = summary.add_column("times_arrived_last", ColumnType::kInt);
  Column& count = summary.add_column("num_collectives", ColumnType::kInt);
  for (auto [r, l] : {std::pair{2, 1}, std::pair{1, 1}, std::pair{0, 0}}) {
    rank.push_int(r);
    last.push_int(l);
    count.push_int(2);
  }
  Table sync("nccl_implicit_sync", TableKind::kRanks);
  Column& id = sync.add_column("collective_id", ColumnType::kString);
  Column& name = sync.add_column("Collective name", ColumnType::kString);
  Column& skew = sync.add_column("skew in start time", ColumnType::kInt);
  Column& earliest = sync.add_column("earliest arrival rank", ColumnType::kInt);
  const int ts[2][3] = {{100, 130, 100}, {200, 210, 250}};
  const int wait[2][3] = {{30, 0, 30}, {50, 40, 0}};
  std::vector<Column*> ts_cols, wait_cols;
  for (int r = 0; r < 3; ++r) ts_cols.push_back(&sync.add_column("rank_" + std::to_string(r) + "_ts", ColumnType::kInt));
  for (int r = 0; r < 3; ++r) wait_cols.push_back(&sync.add_column("rank_" + std::to_string(r) + "_wait_time", ColumnType::kInt));
  for (int c = 0; c < 2; ++c) {
    id.push_string(std::to_string(c));
    name.push_string("allreduce");
    skew.push_int(c == 0 ? 30 : 50);
    earliest.push_int(0);
    for (int r = 0; r < 3; ++r) {
      ts_cols[r]->push_int(ts[c][r]);
      wait_cols[r]->push_int(wait[c][r]);
    }
  }
  Table timeline("gpu_timeline_ranks", TableKind::kRanks);
  Column& trank = timeline.add_column("rank", ColumnType::kInt);
  Column& total = timeline.add_column("total_time ms", ColumnType::kFloat, Unit::kMilliseconds);
  for (auto [r, ms] : {std::pair{0, 1.0}, std::pair{1, 0.5}, std::pair{2, 2.0}}) {
    trank.push_int(r);
    total.push_float(ms);
  }
  std::vector<Table> out;
  out.push_back(std::move(summary));
  out.push_back(std::move(sync));
  out.push_back(std::move(timeline));
  return out;
}

}  // namespace

TEST_CASE("ranks: the straggler is the latest rank, by how much and where", "[ranks][straggler_verdict]") {
  const std::vector<Table> sheets = ranks::straggler_verdict_sheets(cross_rank_sheets());
  REQUIRE(sheets.size() == 2);
  const Table& late = sheets[0];
  REQUIRE(late.name() == "rank_lateness");
  REQUIRE(late.num_rows() == 3);
  CHECK(test::col(late, "late_ms").float_at(0) == Approx(0.0));
  CHECK(test::col(late, "late_ms").float_at(1) == Approx(0.040));
  CHECK(test::col(late, "late_ms").float_at(2) == Approx(0.050));
  CHECK(test::col(late, "wait_ms").float_at(0) == Approx(0.080));

  const Table& verdict = sheets[1];
  REQUIRE(verdict.name() == "straggler_verdict");
  CHECK(test::col(verdict, "rank").int_at(0) == 2);
  CHECK(test::col(verdict, "others_wait_ms").float_at(0) == Approx(0.045));
  CHECK(test::col(verdict, "others_wait_pct_of_gpu_time").float_at(0) == Approx(6.0));
  CHECK(test::col(verdict, "worst_collective_id").string_at(0) == "1");
  CHECK(test::col(verdict, "worst_skew_ms").float_at(0) == Approx(0.050));
  CHECK(test::col(verdict, "verdict").string_at(0) ==
        "Rank 2 is the straggler: it arrived last at 1 of 2 collectives, and each other rank waited for it "
        "0.045 ms on average (6.0 % of their GPU time); most at allreduce (collective 1), which it started 0.050 ms after rank 0.");
}

TEST_CASE("ranks: no verdict without matched collectives", "[ranks][straggler_verdict]") {
  std::vector<Table> sheets = cross_rank_sheets();
  sheets.erase(sheets.begin() + 1);  // no nccl_implicit_sync
  CHECK(ranks::straggler_verdict_sheets(sheets).empty());
}
