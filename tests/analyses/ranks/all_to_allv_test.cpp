// The all-to-all-v sheets on hand-made ranks. Every expected number is worked out in
// the comments from TraceLens's formulas (analyses/ranks/all_to_allv.h).
#include <catch2/catch.hpp>

#include "analyses/ranks/multi_rank_collectives.h"
#include "support/table_column.h"

using namespace sollens;
using namespace sollens::ranks;
using sollens::test::col;

namespace {

double number(const Table& t, const std::string& name, size_t row) {
  const Column& c = col(t, name);
  REQUIRE_FALSE(c.is_null(row));
  return c.type() == ColumnType::kInt ? static_cast<double>(c.int_at(row)) : c.float_at(row);
}

const Table& sheet(const MultiRankCollectives& m, const std::string& name) {
  for (const Table& t : m.sheets)
    if (t.name() == name) return t;
  FAIL("no sheet " << name);
  return m.sheets.front();
}

PyValue splits(std::initializer_list<int64_t> nelems) {
  std::vector<PyValue> items;
  for (int64_t n : nelems) items.push_back(PyValue::integer(n));
  return PyValue::tuple(items);
}

// An all_to_allv of Float (4 bytes) in process group "pg0" of 4 ranks, sending
// `split[d]` elements to rank d.
RankCollective all_to_allv(double ts, double dur, PyValue split) {
  RankCollective c;
  c.event.ts = ts;
  c.event.dur = dur;
  int64_t nelems = 0;
  for (const PyValue& n : split.items) nelems += n.i;
  auto& f = c.event.fields;
  f[collectives::kProcessGroupName] = PyValue::str("pg0");
  f[collectives::kProcessGroupRanks] = PyValue::str("[0, 1, 2, 3]");
  f[collectives::kCollectiveName] = PyValue::str("all_to_allv");
  f[collectives::kGroupSize] = PyValue::integer(4);
  f[collectives::kDtype] = PyValue::str("Float");
  f[collectives::kInMsgNelems] = PyValue::integer(nelems);
  f[collectives::kOutMsgNelems] = PyValue::integer(nelems);
  f[collectives::kInSplitSize] = split;
  f[collectives::kOutSplitSize] = split;
  f[collectives::kStream] = PyValue::integer(7);
  c.event.in_msg_mb = c.event.out_msg_mb = static_cast<double>(nelems) * 4 / (1024.0 * 1024.0);
  return c;
}

// Two all_to_allv. Collective 0: ranks start at 1000, 1010, 1040, 1020 µs and last
// 100, 95, 80, 90 µs; rank 2 sends twice as much (2 MiB, 131072 elements to each rank),
// the others 1 MiB (65536 each). Collective 1 at 2000 + the same offsets, 100 µs each,
// 1 MiB each; rank 0 sends [0, 131072, 65536, 65536], and rank 3 writes its split
// sizes as Python text, as some PyTorch versions do.
std::vector<RankSummary> all_to_allv_ranks() {
  const double offset[] = {0, 10, 40, 20}, dur0[] = {100, 95, 80, 90};
  std::vector<RankSummary> ranks(4);
  for (int r = 0; r < 4; ++r) {
    ranks[r].rank = r;
    const int64_t each = r == 2 ? 131072 : 65536;
    ranks[r].collectives.push_back(all_to_allv(1000 + offset[r], dur0[r], splits({each, each, each, each})));
    RankCollective second = all_to_allv(2000 + offset[r], 100,
                                        r == 0 ? splits({0, 131072, 65536, 65536}) : splits({65536, 65536, 65536, 65536}));
    if (r == 3) second.event.fields[collectives::kInSplitSize] = PyValue::str("[65536, 65536, 65536, 65536]");
    ranks[r].collectives.push_back(second);
  }
  return ranks;
}

}  // namespace

TEST_CASE("all_to_allv: TraceLens's sheets, in its order, and no implicit-sync rows", "[ranks]") {
  const MultiRankCollectives m = multi_rank_collective_sheets(all_to_allv_ranks());
  std::vector<std::string> names;
  for (const Table& t : m.sheets) names.push_back(t.name());
  // all_to_allv is not implicit-sync: no nccl_implicit_sync, so no straggler_summary.
  CHECK(names == std::vector<std::string>{"nccl_summary_long", "nccl_summary_all2allv", "nccl_all2allv_heatmap",
                                          "nccl_long", "nccl_all2allv"});
  CHECK(m.metadata_mismatches == 0);
}

TEST_CASE("nccl_all2allv: wall time, throughput, imbalance and skews per collective", "[ranks]") {
  const MultiRankCollectives m = multi_rank_collective_sheets(all_to_allv_ranks());
  const Table& t = sheet(m, "nccl_all2allv");
  REQUIRE(t.num_rows() == 2);
  // By total MB descending: collective 0 (1 + 1 + 2 + 1 = 5 MB) before 1 (4 MB).
  CHECK(col(t, "collective_id").string_at(0) == "pg0_0");
  CHECK(col(t, "collective_id").string_at(1) == "pg0_1");
  CHECK(number(t, "total data communicated (MB)", 0) == 5);
  CHECK(number(t, "total nelems communicated", 0) == 1310720);  // 3 · 262144 + 524288
  // Ends 1100, 1105, 1120, 1110: wall = 1120 − 1000 = 120; skews 40 and 20.
  CHECK(number(t, "wall_time (us)", 0) == 120);
  CHECK(number(t, "skew in start time", 0) == 40);
  CHECK(number(t, "skew in end time", 0) == 20);
  CHECK(number(t, "max_rank_dur (us)", 0) == 100);
  CHECK(number(t, "min_rank_dur (us)", 0) == 80);
  CHECK(number(t, "avg_rank_dur (us)", 0) == 91.25);  // 365 / 4
  // 5 MB / 1024 / 120e-6 s.
  CHECK(number(t, "throughput (GB/s)", 0) == Approx(40.690104166666667).epsilon(1e-12));
  // Per rank: rank 2 2/1024/80e-6 = 24.4140625, rank 0 1/1024/100e-6 = 9.765625.
  CHECK(number(t, "max_rank_throughput (GB/s)", 0) == Approx(24.4140625).epsilon(1e-12));
  CHECK(number(t, "min_rank_throughput (GB/s)", 0) == Approx(9.765625).epsilon(1e-12));
  CHECK(number(t, "size_imbalance", 0) == Approx(1.6).epsilon(1e-12));  // 2 / 1.25
  CHECK(number(t, "size_imbalance", 1) == 1);
  // Per rank: start − 1000 and 1120 − end.
  const double start_skew[] = {0, 10, 40, 20}, end_skew[] = {20, 15, 0, 10};
  for (int r = 0; r < 4; ++r) {
    const std::string p = "rank_" + std::to_string(r) + "_";
    CHECK(number(t, p + "skew in start time", 0) == start_skew[r]);
    CHECK(number(t, p + "skew in end time", 0) == end_skew[r]);
  }
  CHECK(number(t, "rank_2_In msg size (MB)", 0) == 2);
  CHECK(number(t, "rank_2_ts", 1) == 2040);
  // Collective 1: ends 2100, 2110, 2140, 2120: wall 140, end skew 40.
  CHECK(number(t, "wall_time (us)", 1) == 140);
  CHECK(number(t, "skew in end time", 1) == 40);
  // Column order: metadata, collective metrics, then the per-rank block.
  CHECK(t.column(1).name() == "Process Group Name");
  CHECK(t.column(6).name() == "stream");
  CHECK(t.column(7).name() == "total data communicated (MB)");
  CHECK(t.column(19).name() == "rank_0_ts");
  CHECK(t.column(19 + 8).name() == "rank_1_ts");
  CHECK(t.column(19 + 32).name() == "rank_0_skew in start time");
}

TEST_CASE("nccl_summary_all2allv: one group per process group and dtype", "[ranks]") {
  const MultiRankCollectives m = multi_rank_collective_sheets(all_to_allv_ranks());
  const Table& s = sheet(m, "nccl_summary_all2allv");
  REQUIRE(s.num_rows() == 1);
  CHECK(col(s, "Process Group Name").string_at(0) == "pg0");
  CHECK(col(s, "dtype").string_at(0) == "Float");
  CHECK(number(s, "total data communicated (MB)_mean", 0) == 4.5);
  CHECK(number(s, "total data communicated (MB)_min", 0) == 4);
  CHECK(number(s, "wall_time (us)_median", 0) == 130);  // (120 + 140) / 2
  CHECK(number(s, "wall_time (us)_max", 0) == 140);
  CHECK(number(s, "Total wall_time (us)", 0) == 260);
  CHECK(number(s, "Total wall_time (ms)", 0) == 0.26);
  // (5/1024/120e-6 + 4/1024/140e-6) / 2 = (40.690104… + 27.901785…) / 2.
  CHECK(number(s, "throughput (GB/s)_mean", 0) == Approx((40.690104166666667 + 27.901785714285714) / 2).epsilon(1e-12));
  CHECK(number(s, "size_imbalance_mean", 0) == Approx(1.3).epsilon(1e-12));  // (1.6 + 1) / 2
  CHECK(number(s, "size_imbalance_max", 0) == Approx(1.6).epsilon(1e-12));
  CHECK(number(s, "max_rank_dur (us)_mean", 0) == 100);
  CHECK(number(s, "skew in end time_mean", 0) == 30);  // (20 + 40) / 2
  CHECK(col(s, "count").int_at(0) == 2);
  CHECK(col(s, "Collective name").string_at(0) == "all_to_allv");
  CHECK(s.column(s.num_columns() - 1).name() == "Total wall_time (ms)");
}

TEST_CASE("nccl_all2allv_heatmap: bytes sent per rank pair from In split size", "[ranks]") {
  const MultiRankCollectives m = multi_rank_collective_sheets(all_to_allv_ranks());
  const Table& h = sheet(m, "nccl_all2allv_heatmap");
  REQUIRE(h.num_rows() == 16);  // 4 sources × 4 destinations, sorted by (src, dst)
  auto row = [](int src, int dst) { return static_cast<size_t>(4 * src + dst); };
  CHECK(col(h, "src_rank").int_at(row(2, 3)) == 2);
  CHECK(col(h, "dst_rank").int_at(row(2, 3)) == 3);
  // 0 → 0: 65536 · 4 B + 0 = 0.25 MiB over 2 calls.
  CHECK(number(h, "total_sent_MB", row(0, 0)) == 0.25);
  CHECK(number(h, "avg_sent_MB", row(0, 0)) == 0.125);
  CHECK(col(h, "count").int_at(row(0, 0)) == 2);
  // 0 → 1: (65536 + 131072) · 4 B = 0.75 MiB.
  CHECK(number(h, "total_sent_MB", row(0, 1)) == 0.75);
  // 2 → 3: (131072 + 65536) · 4 B = 0.75 MiB.
  CHECK(number(h, "total_sent_MB", row(2, 3)) == 0.75);
  // 3 → 0: both calls, one as a list and one as its Python text: 2 · 65536 · 4 B.
  CHECK(number(h, "total_sent_MB", row(3, 0)) == 0.5);
  CHECK(col(h, "count").int_at(row(3, 0)) == 2);
}

TEST_CASE("all_to_allv: a rank that disagrees on the metadata is counted", "[ranks]") {
  std::vector<RankSummary> ranks = all_to_allv_ranks();
  ranks[1].collectives[0].event.fields[collectives::kDtype] = PyValue::str("Half");
  const MultiRankCollectives m = multi_rank_collective_sheets(ranks);
  CHECK(m.metadata_mismatches == 1);
  CHECK(sheet(m, "nccl_all2allv").num_rows() == 2);
}
