// The multi-rank sheets on hand-made ranks: a planted straggler and a known clock
// skew. Every expected number is worked out in the comments from TraceLens's
// formulas (tracelens-semantics.md §8.3).
#include <catch2/catch.hpp>

#include "analyses/ranks/multi_rank_collectives.h"
#include "analyses/ranks/rank_tables.h"
#include "support/table_column.h"

using namespace sollens;
using namespace sollens::ranks;
using sollens::test::col;

namespace {

// A numeric cell whether the column holds ints (whole-µs traces) or floats.
double number(const Table& t, const std::string& name, size_t row) {
  const Column& c = col(t, name);
  REQUIRE_FALSE(c.is_null(row));
  return c.type() == ColumnType::kInt ? static_cast<double>(c.int_at(row)) : c.float_at(row);
}

// An all-reduce of 262144 Float elements (1 MiB) in process group "pg0" of 4 ranks.
RankCollective all_reduce(double ts, double dur) {
  RankCollective c;
  c.event.ts = ts;
  c.event.dur = dur;
  auto& f = c.event.fields;
  f[collectives::kProcessGroupName] = PyValue::str("pg0");
  f[collectives::kProcessGroupRanks] = PyValue::str("[0, 1, 2, 3]");
  f[collectives::kCollectiveName] = PyValue::str("allreduce");
  f[collectives::kGroupSize] = PyValue::integer(4);
  f[collectives::kDtype] = PyValue::str("Float");
  f[collectives::kInMsgNelems] = PyValue::integer(262144);
  f[collectives::kOutMsgNelems] = PyValue::integer(262144);
  f[collectives::kInSplitSize] = PyValue::str("[]");
  f[collectives::kOutSplitSize] = PyValue::str("[]");
  f[collectives::kStream] = PyValue::integer(7);
  c.event.in_msg_mb = c.event.out_msg_mb = 1.0;
  return c;
}

// Three all-reduces, 1000 µs apart. Ranks 0, 1, 3 arrive at +0, +10, +20 µs; rank 2
// (the straggler) at +100. All finish at +150: the early ones wait inside the kernel,
// rank 2's kernel lasts 50 µs.
std::vector<RankSummary> planted_straggler() {
  const double arrival[] = {0, 10, 100, 20};
  std::vector<RankSummary> ranks(4);
  for (int r = 0; r < 4; ++r) {
    ranks[r].rank = r;
    ranks[r].rank_from = "file name";
    for (int c = 0; c < 3; ++c) {
      const double start = 1000.0 * c + arrival[r];
      ranks[r].collectives.push_back(all_reduce(start, 1000.0 * c + 150 - start));
    }
  }
  return ranks;
}

const Table& sheet(const MultiRankCollectives& m, const std::string& name) {
  for (const Table& t : m.sheets)
    if (t.name() == name) return t;
  FAIL("no sheet " << name);
  return m.sheets.front();
}

}  // namespace

TEST_CASE("implicit sync: wait, skew, latency and bandwidth of a planted straggler", "[ranks]") {
  const MultiRankCollectives m = multi_rank_collective_sheets(planted_straggler());
  CHECK_FALSE(m.simplified_mode);
  CHECK(m.metadata_mismatches == 0);
  const Table& sync = sheet(m, "nccl_implicit_sync");
  REQUIRE(sync.num_rows() == 3);
  // collective_id = process group + "_" + index in the group.
  CHECK(col(sync, "collective_id").string_at(0) == "pg0_0");
  CHECK(col(sync, "collective_id").string_at(2) == "pg0_2");
  for (size_t row = 0; row < 3; ++row) {
    // latest start +100: waits 100, 90, 0, 80; skew 100 by rank 0; mean 270/4.
    CHECK(number(sync, "rank_0_wait_time", row) == 100);
    CHECK(number(sync, "rank_1_wait_time", row) == 90);
    CHECK(number(sync, "rank_2_wait_time", row) == 0);
    CHECK(number(sync, "rank_3_wait_time", row) == 80);
    CHECK(number(sync, "skew in start time", row) == 100);
    CHECK(col(sync, "earliest arrival rank").int_at(row) == 0);
    CHECK(number(sync, "avg_wait_time", row) == 67.5);
    CHECK(number(sync, "skew in end time", row) == 0);
    // comm_latency = the shortest kernel (rank 2's 50 µs).
    CHECK(number(sync, "comm_latency", row) == 50);
    // 1 MiB / 1024 / 50e-6 s = 19.53125; bus · 2·3/4 = 29.296875.
    CHECK(number(sync, "algo bw (GB/s)", row) == Approx(19.53125).epsilon(1e-12));
    CHECK(number(sync, "bus bw (GB/s)", row) == Approx(29.296875).epsilon(1e-12));
  }
}

TEST_CASE("straggler_summary names the planted straggler first", "[ranks]") {
  const MultiRankCollectives m = multi_rank_collective_sheets(planted_straggler());
  const Table& s = sheet(m, "straggler_summary");
  REQUIRE(s.num_rows() == 4);
  // Total waits: rank 0 3·100 = 300, rank 1 270, rank 2 0, rank 3 240; ascending.
  const int64_t order[] = {2, 3, 1, 0};
  const double total[] = {0, 240, 270, 300};
  for (size_t row = 0; row < 4; ++row) {
    CHECK(col(s, "rank").int_at(row) == order[row]);
    CHECK(number(s, "total_wait_time_us", row) == total[row]);
    CHECK(number(s, "mean_wait_time_us", row) == total[row] / 3);
    CHECK(col(s, "num_collectives").int_at(row) == 3);
  }
  // Rank 2 arrived last all 3 times (100 %), rank 0 first all 3 times.
  CHECK(col(s, "times_arrived_last").int_at(0) == 3);
  CHECK(number(s, "pct_arrived_last", 0) == 100.0);
  CHECK(col(s, "times_arrived_first").int_at(3) == 3);
  // NCCL time: rank 2 3·50 = 150; rank 0 3·150 = 450.
  CHECK(number(s, "total_nccl_dur_us", 0) == 150);
  // The ranks list no deviceProperties: the GPUs per node are unknown, no node_id.
  CHECK(s.find("node_id") == nullptr);
}

TEST_CASE("straggler_summary: node_id = rank // GPUs per node, from deviceProperties", "[ranks]") {
  // Each rank's trace lists 2 GPUs (TraceLens's derived --gpus_per_node 2): ranks 0, 1 on
  // node 0 and 2, 3 on node 1. Rows in straggler order 2, 3, 1, 0 → nodes 1, 1, 0, 0.
  std::vector<RankSummary> ranks = planted_straggler();
  for (RankSummary& r : ranks) r.gpus_on_node = 2;
  const MultiRankCollectives m = multi_rank_collective_sheets(ranks);
  const Table& s = sheet(m, "straggler_summary");
  REQUIRE(s.num_rows() == 4);
  CHECK(s.column(s.num_columns() - 1).name() == "node_id");  // the last column
  const int64_t node[] = {1, 1, 0, 0};
  for (size_t row = 0; row < 4; ++row) CHECK(col(s, "node_id").int_at(row) == node[row]);
}

TEST_CASE("summaries: one implicit-sync group, one long row per rank", "[ranks]") {
  const MultiRankCollectives m = multi_rank_collective_sheets(planted_straggler());
  const Table& summary = sheet(m, "nccl_summary_implicit_sync");
  REQUIRE(summary.num_rows() == 1);
  CHECK(col(summary, "Collective name").string_at(0) == "allreduce");
  CHECK(col(summary, "count").int_at(0) == 3);
  CHECK(number(summary, "Total comm latency (ms)", 0) == 0.15);  // 3 · 50 µs
  CHECK(number(summary, "skew in start time_max", 0) == 100);
  const Table& per_rank = sheet(m, "nccl_summary_long");
  REQUIRE(per_rank.num_rows() == 4);
  // dur_sum descending: rank 0 450, rank 1 420, rank 3 390, rank 2 150.
  CHECK(col(per_rank, "rank").int_at(0) == 0);
  CHECK(col(per_rank, "rank").int_at(3) == 2);
  CHECK(sheet(m, "nccl_long").num_rows() == 12);
}

TEST_CASE("rank clocks: a known skew read from collective ends and baseTimeNanoseconds", "[ranks]") {
  // Rank 1's clock reads 1000 µs ahead: the same collectives end 1000 µs later on it.
  std::vector<RankSummary> ranks = planted_straggler();
  ranks.resize(2);
  for (RankCollective& c : ranks[1].collectives) c.event.ts += 1000;
  ranks[0].base_time_ns = 1'000'000'000;
  ranks[1].base_time_ns = 1'000'005'000;  // +5 µs
  const MultiRankCollectives m = multi_rank_collective_sheets(ranks);
  const Table clocks = rank_clocks_table(ranks, sheet(m, "nccl_long"));
  REQUIRE(clocks.num_rows() == 2);
  CHECK(number(clocks, "collective end offset (us)", 0) == 0);
  CHECK(number(clocks, "collective end offset (us)", 1) == 1000);
  CHECK(col(clocks, "collectives matched").int_at(1) == 3);
  CHECK(number(clocks, "base time offset (us)", 1) == 5);
}

TEST_CASE("ranks are read from file names, else numbered by position", "[ranks]") {
  CHECK(rank_from_file_name("/runs/x/rank3_trace.json") == 3);
  CHECK(rank_from_file_name("trace_rank-12.json.gz") == 12);
  CHECK(rank_from_file_name("rank[5].json") == 5);
  CHECK(rank_from_file_name("/runs/rank7/trace.json") == 7);  // the path when the name has none
  CHECK_FALSE(rank_from_file_name("worker0_step_12.json"));
  std::vector<RankSummary> ranks(2);
  ranks[0].rank = ranks[1].rank = 4;  // duplicates: numbered by position instead
  ranks[0].rank_from = ranks[1].rank_from = "file name";
  settle_ranks(ranks);
  CHECK(ranks[0].rank == 0);
  CHECK(ranks[1].rank == 1);
  CHECK(ranks[1].rank_from == "position");
}

TEST_CASE("collective names from annotations, kernel names and input types", "[ranks]") {
  CHECK(collective_from_annotation("nccl:all_reduce") == "allreduce");
  CHECK(collective_from_annotation("nccl:all_to_all") == "all_to_all");
  CHECK(collective_from_annotation("nccl:_all_gather_base") == "_allgather_base");
  CHECK_FALSE(collective_from_annotation("record_param_comms"));
  CHECK(collective_from_kernel_name("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)") ==
        "allreduce");
  CHECK(collective_from_kernel_name("ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)") == "allgather");
  CHECK(collective_from_kernel_name("ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(x)") == "reducescatter");
  CHECK(collective_from_kernel_name("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(x)") == "send_recv");
  CHECK_FALSE(collective_from_kernel_name("void at::native::vectorized_elementwise_kernel"));
  CHECK(scalar_type_name("float") == "Float");
  CHECK(scalar_type_name("long int") == "Long");
  CHECK(scalar_type_name("c10::BFloat16") == "BFloat16");
  CHECK_FALSE(scalar_type_name("TensorList"));
}
