// The multi-rank sheets on real rank sets. The expected numbers were counted
// independently with a one-off Python script over the fixture JSON (json.load, every
// `kernel` event whose name contains "nccl", sorted by ts, TraceLens's formulas
// applied by hand): not by the code under test.
#include <catch2/catch.hpp>

#include "analyses/ranks/multi_rank_collectives.h"
#include "analyses/ranks/rank_tables.h"
#include "api/session.h"
#include "support/golden_fixtures.h"
#include "support/table_column.h"

// The fixtures are .json.gz: the wasm build reads plain JSON only.
#ifdef SOLLENS_HAVE_ZLIB

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

RankSummary summarize(const std::filesystem::path& trace) {
  Session session;
  REQUIRE(session.load(PaddedBuffer::copy_of(test::read_text(trace))).ok());
  return summarize_rank(session.store(), session.tree(), session.gpu_timeline(), trace.string());
}

std::vector<RankSummary> dlrm_ranks() {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(test::kTraces / "param-dlrm-v100-8rank"))
    if (e.path().filename().string().ends_with(".json.gz")) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<RankSummary> ranks;
  for (const auto& f : files) ranks.push_back(summarize(f));
  settle_ranks(ranks);
  return ranks;
}

const Table& sheet(const MultiRankCollectives& m, const std::string& name) {
  for (const Table& t : m.sheets)
    if (t.name() == name) return t;
  FAIL("no sheet " << name);
  return m.sheets.front();
}

}  // namespace

TEST_CASE("DLRM 8 ranks: collectives named from nccl annotations", "[ranks][fixtures]") {
  const std::vector<RankSummary> ranks = dlrm_ranks();
  REQUIRE(ranks.size() == 8);
  for (size_t r = 0; r < 8; ++r) {
    CHECK(ranks[r].rank == static_cast<int64_t>(r));
    CHECK(ranks[r].rank_from == "distributedInfo");
    // Python: 8 NCCL kernels per rank, in ts order SendRecv ×4, AllReduce, SendRecv,
    // AllReduce ×2; each launched inside nccl:all_to_all / nccl:all_reduce.
    REQUIRE(ranks[r].collectives.size() == 8);
    int all_to_all = 0, all_reduce = 0;
    for (const RankCollective& c : ranks[r].collectives) {
      CHECK(c.source == NameSource::kAnnotation);
      const std::string& name = c.event.fields[collectives::kCollectiveName].s;
      all_to_all += name == "all_to_all";
      all_reduce += name == "allreduce";
      CHECK(c.event.fields[collectives::kGroupSize].i == 8);  // distributedInfo.world_size
    }
    CHECK(all_to_all == 5);
    CHECK(all_reduce == 3);
  }
  // Rank 0's first all-reduce: nccl:all_reduce with Input Dims [[394241]], float.
  const RankCollective& first_all_reduce = ranks[0].collectives[4];
  CHECK(first_all_reduce.event.fields[collectives::kDtype].s == "Float");
  CHECK(first_all_reduce.event.fields[collectives::kInMsgNelems].i == 394241);
}

TEST_CASE("DLRM 8 ranks: implicit sync and stragglers", "[ranks][fixtures]") {
  const MultiRankCollectives m = multi_rank_collective_sheets(dlrm_ranks());
  CHECK(m.simplified_mode);  // one stream per rank, no process group names
  const Table& sync = sheet(m, "nccl_implicit_sync");
  REQUIRE(sync.num_rows() == 8);
  // Python, per collective in order: min dur over ranks and max(ts) − min(ts).
  const double latency[] = {10, 8, 7, 7, 86, 10, 20, 69};
  const double skew[] = {7624, 1101, 168, 125, 223, 534, 584, 885};
  for (size_t row = 0; row < 8; ++row) {
    CHECK(number(sync, "comm_latency", row) == latency[row]);
    CHECK(number(sync, "skew in start time", row) == skew[row]);
  }
  const Table& s = sheet(m, "straggler_summary");
  REQUIRE(s.num_rows() == 8);
  // Python: total waits {0: 5580, 1: 11125, 2: 3280, 3: 9571, 4: 6370, 5: 6041, 6: 3342,
  // 7: 1534}; last to arrive (min wait, first rank on ties) {4: 1, 5: 2, 7: 5}.
  const int64_t order[] = {7, 2, 6, 0, 5, 4, 3, 1};
  const double total[] = {1534, 3280, 3342, 5580, 6041, 6370, 9571, 11125};
  const int64_t last[] = {5, 0, 0, 0, 2, 1, 0, 0};
  for (size_t row = 0; row < 8; ++row) {
    CHECK(col(s, "rank").int_at(row) == order[row]);
    CHECK(number(s, "total_wait_time_us", row) == total[row]);
    CHECK(col(s, "times_arrived_last").int_at(row) == last[row]);
  }
  // Python: Σ dur of rank 7's NCCL kernels = 1746, of rank 1's = 11336.
  CHECK(number(s, "total_nccl_dur_us", 0) == 1746);
  CHECK(number(s, "total_nccl_dur_us", 7) == 11336);
}

TEST_CASE("HTA DDP trace: names from the kernel args, one rank waits for no one", "[ranks][fixtures]") {
  std::vector<RankSummary> ranks = {summarize(test::kTraces / "hta-a100-ddp-nccl" / "nccl_data.json.gz")};
  settle_ranks(ranks);
  REQUIRE_FALSE(ranks[0].collectives.empty());
  for (const RankCollective& c : ranks[0].collectives) CHECK(c.source == NameSource::kTrace);
  const MultiRankCollectives m = multi_rank_collective_sheets(ranks);
  const Table& s = sheet(m, "straggler_summary");
  REQUIRE(s.num_rows() == 1);
  CHECK(number(s, "total_wait_time_us", 0) == 0);
  const Table overlap = comm_comp_overlap_table(ranks);
  REQUIRE(overlap.num_rows() == 1);
  CHECK(number(overlap, "comp_comm_overlap_pctg", 0) >= 0);
  CHECK(number(overlap, "comp_comm_overlap_pctg", 0) <= 100);
}

#endif  // SOLLENS_HAVE_ZLIB
