// The page's way in for a graph-capture trace: after the replay trace, the capture trace
// in the buffer; build_sol then counts the replayed kernels for the ops captured
// (tests/analyses/graphs/graph_replay_fixtures.h: 93.0 % of the replayed time mapped).
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "analyses/graphs/graph_replay_fixtures.h"
#include "api/page_session.h"

using namespace sollens;

namespace {

void fill(PageSession& page, const std::string& text) { std::memcpy(page.allocate(text.size()), text.data(), text.size()); }

}  // namespace

TEST_CASE("page session: a capture trace maps the replayed kernels in the SOL view", "[graphs][page]") {
  PageSession page;
  fill(page, test::capture_trace());
  const Status before = page.load_capture();
  CHECK(before.code() == Code::no_trace_loaded);
  CHECK(before.message() == "load the trace before the trace of its graph capture");
  fill(page, test::replay_trace());
  REQUIRE(page.load().ok());
  CHECK(page.build_sol("H100_SXM5_80GB", 1.0).find("stayed unmapped") != std::string::npos);
  fill(page, test::capture_trace());
  REQUIRE(page.load_capture().ok());
  const std::string sol = page.build_sol("H100_SXM5_80GB", 1.0);
  CHECK(sol.find("mapped from the capture trace: 93.0 % of their kernel time mapped") != std::string::npos);
}
