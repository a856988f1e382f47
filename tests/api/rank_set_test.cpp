// RankSet: the page's ranks, read one trace after another into one PageSession and
// summarised, give the cross-rank sheets of sollens report with several traces. The
// expected numbers are the Python-counted ones of
// tests/analyses/ranks/multi_rank_fixtures_test.cpp (straggler totals per rank).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>

#include "api/rank_set.h"
#include "support/golden_fixtures.h"
#include "support/table_column.h"

using namespace sollens;

namespace {

// The handle of `name` in a build() description (handles are the "id" before it).
int32_t handle_of(const std::string& described, const std::string& name) {
  const size_t at = described.find("\"name\":\"" + name + "\"");
  REQUIRE(at != std::string::npos);
  const size_t id = described.rfind("{\"id\":", at);
  return std::stoi(described.substr(id + 6));
}

}  // namespace

TEST_CASE("RankSet: nothing read, nothing loaded") {
  RankSet ranks;
  CHECK(ranks.build() == R"({"error":{"code":"no_trace_loaded","message":"no rank trace was read"}})");
  PageSession empty;
  const Status added = ranks.add(empty, "rank0.json");
  CHECK(added.code() == Code::no_trace_loaded);
  CHECK(added.message() == "no trace is loaded");
  CHECK(ranks.size() == 0);
}

TEST_CASE("RankSet: the eight DLRM ranks, read in reverse order through one PageSession") {
  std::vector<test::fs::path> files;
  for (const auto& e : test::fs::directory_iterator(test::kTraces / "param-dlrm-v100-8rank"))
    if (e.path().filename().string().ends_with(".json.gz")) files.push_back(e.path());
  std::sort(files.rbegin(), files.rend());
  REQUIRE(files.size() == 8);
  RankSet ranks;
  PageSession page;
  for (const auto& f : files) {
    const std::string bytes = test::read_text(f);
    std::memcpy(page.allocate(bytes.size()), bytes.data(), bytes.size());
    const Status loaded = page.load();
    if (loaded.code() == Code::gzip_unsupported) {
      WARN("gzip decompression is not available in this build: the rank checks are skipped");
      return;
    }
    REQUIRE(loaded.ok());
    REQUIRE(ranks.add(page, f.filename().string()).ok());
  }
  const std::string described = ranks.build();
  // Ranks from distributedInfo, listed in rank order whatever the reading order.
  CHECK(described.starts_with(
      R"({"ranks":[{"rank":0,"file":"worker0_step_12.1694128201545.pt.trace.json.gz","rankFrom":"distributedInfo"},)"));
  CHECK(described.find(R"("simplifiedMode":true,"metadataMismatches":0,"sheets":[)") != std::string::npos);
  // The sheets sollens report writes to OUT/, in its order.
  size_t at = 0;
  for (const char* name : {"nccl_summary_implicit_sync", "nccl_summary_long", "nccl_long", "nccl_implicit_sync",
                           "straggler_summary", "gpu_timeline_ranks", "comm_comp_overlap", "idle_time_breakdown",
                           "rank_clocks"}) {
    const size_t found = described.find("\"name\":\"" + std::string(name) + "\"", at);
    CHECK(found != std::string::npos);
    at = found == std::string::npos ? at : found;
  }
  const Table* straggler = ranks.tables().table(handle_of(described, "straggler_summary"));
  REQUIRE(straggler);
  REQUIRE(straggler->num_rows() == 8);
  const int64_t order[] = {7, 2, 6, 0, 5, 4, 3, 1};
  const double total[] = {1534, 3280, 3342, 5580, 6041, 6370, 9571, 11125};
  for (size_t row = 0; row < 8; ++row) {
    CHECK(test::col(*straggler, "rank").int_at(row) == order[row]);
    const Column& wait = test::col(*straggler, "total_wait_time_us");
    CHECK((wait.type() == ColumnType::kInt ? static_cast<double>(wait.int_at(row)) : wait.float_at(row)) == total[row]);
  }
  CHECK(ranks.tables().table(handle_of(described, "gpu_timeline_ranks"))->num_rows() == 8);
  CHECK(ranks.sheet_csv(handle_of(described, "straggler_summary")).starts_with("rank,total_wait_time_us"));
}
