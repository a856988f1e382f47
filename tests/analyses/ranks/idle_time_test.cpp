// The multi-rank idle_time_breakdown sheet: HTA's per-stream breakdown of each rank
// (analyses/hta/idle_time.h), gathered under the ranks' numbers.
#include <catch2/catch.hpp>

#include "analyses/hta/idle_time.h"
#include "analyses/ops/trace_builder.h"
#include "analyses/ranks/idle_time.h"
#include "analyses/ranks/rank_summary.h"
#include "api/session.h"
#include "support/table_column.h"

using namespace sollens;
using sollens::test::col;

TEST_CASE("idle time per stream: host wait, kernel wait, other", "[ranks]") {
  test::TraceBuilder b;
  b.launch(0, "k1", 10, 10)     // [10, 20]
      .launch(5, "k2", 25, 10)  // gap 5 < 30, launched at 5 before k1 ended: kernel wait 5
      .launch(50, "k3", 60, 10)  // launched at 50 after k2 ended at 35: host wait 60 − 35 = 25
      .launch(55, "k4", 170, 10);  // launched in time, gap 170 − 70 = 100 ≥ 30: other 100
  Session session;
  REQUIRE(session.load(PaddedBuffer::copy_of(b.json())).ok());
  const hta::HtaTrace trace(session.store());
  std::vector<ranks::RankSummary> ranks(1);
  ranks[0].rank = 3;
  ranks[0].idle = hta::idle_time_by_stream(trace, hta::breakdown_events(trace), 30);
  const Table t = ranks::idle_time_table(ranks);
  REQUIRE(t.num_rows() == 3);
  CHECK(t.kind() == TableKind::kRanks);
  // Rows host_wait, kernel_wait, other; ratios of the stream's 130 µs of gaps, rounded to
  // 2 decimals as HTA rounds them.
  CHECK(col(t, "rank").int_at(0) == 3);
  CHECK(col(t, "stream").int_at(0) == 7);
  CHECK(col(t, "idle_category").string_at(0) == "host_wait");
  CHECK(col(t, "idle_time").float_at(0) == 25);
  CHECK(col(t, "idle_time_ratio").float_at(0) == 0.19);  // 25 / 130 = 0.1923
  CHECK(col(t, "idle_category").string_at(1) == "kernel_wait");
  CHECK(col(t, "idle_time").float_at(1) == 5);
  CHECK(col(t, "idle_category").string_at(2) == "other");
  CHECK(col(t, "idle_time").float_at(2) == 100);
}
