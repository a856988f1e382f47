// Session::ranks on hand-made rank summaries (no collectives): the ranks numbered and
// ordered, and the cross-rank sheets in their order.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "api/ranks.h"
#include "support/table_column.h"

using namespace sollens;
using sollens::test::col;

namespace {

ranks::RankSummary summary(int64_t rank, std::string from, std::string file, double total_us) {
  ranks::RankSummary r;
  r.rank = rank;
  r.rank_from = std::move(from);
  r.file = std::move(file);
  r.timeline.total_us = total_us;
  return r;
}

std::vector<std::string> sheet_names(const RanksResult& result) {
  std::vector<std::string> names;
  for (const Table& t : result.sheets) names.push_back(t.name());
  return names;
}

}  // namespace

TEST_CASE("Session::ranks: distinct ranks are kept and put in rank order", "[ranks]") {
  std::vector<ranks::RankSummary> read;
  read.push_back(summary(3, "distributedInfo", "b.json", 2000));
  read.push_back(summary(1, "distributedInfo", "a.json", 1000));
  const RanksResult result = Session::ranks(std::move(read));
  REQUIRE(result.ranks.size() == 2);
  CHECK(result.ranks[0].rank == 1);
  CHECK(result.ranks[0].file == "a.json");
  CHECK(result.ranks[1].rank == 3);
  CHECK(result.ranks[1].rank_from == "distributedInfo");
  // No collective kernels: no collective sheet, then the four per-rank sheets.
  CHECK(sheet_names(result) ==
        std::vector<std::string>{"gpu_timeline_ranks", "comm_comp_overlap", "idle_time_breakdown", "rank_clocks"});
  CHECK(result.simplified_mode);  // no kernel names a process group: matched by order
  CHECK(result.metadata_mismatches == 0);
  const Table& timeline = result.sheets.front();
  CHECK(col(timeline, "rank").int_at(0) == 1);
  CHECK(col(timeline, "total_time ms").float_at(0) == 1.0);  // 1000 µs
  CHECK(col(timeline, "rank").int_at(1) == 3);
  CHECK(col(timeline, "total_time ms").float_at(1) == 2.0);
}

TEST_CASE("Session::ranks: a rank read twice numbers every rank by position", "[ranks]") {
  std::vector<ranks::RankSummary> read;
  read.push_back(summary(0, "file name", "x/rank0.json", 10));
  read.push_back(summary(0, "file name", "y/rank0.json", 20));
  const RanksResult result = Session::ranks(std::move(read));
  REQUIRE(result.ranks.size() == 2);
  CHECK(result.ranks[0].rank == 0);
  CHECK(result.ranks[0].file == "x/rank0.json");
  CHECK(result.ranks[1].rank == 1);
  CHECK(result.ranks[1].file == "y/rank0.json");
  CHECK(result.ranks[1].rank_from == "position");
}
