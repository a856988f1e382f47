// The time axis on owlv2 (132,152 events), or on the trace SOLLENS_TIME_AXIS_TRACE names
// (e.g. owlv2 written 8 times over, 1.06 M events: tests/bench/make_big_trace.py SOURCE
// OUT.json 245 --compact): how long the three sheets take, printed. Hidden: run it with
// `build/native/sollens_unit_tests "[.scale]"`. Checks only that every drawn event is on a
// lane and that each partner has a partner.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "analyses/time_axis/time_axis.h"
#include "api/session.h"
#include "api/time_axis.h"
#include "support/test_trace.h"

using namespace sollens;

TEST_CASE("time axis: owlv2's sheets, timed", "[.scale]") {
  const char* named = std::getenv("SOLLENS_TIME_AXIS_TRACE");
  std::string gz;
  if (named) {
    std::ifstream in(named, std::ios::binary);
    REQUIRE(in);
    gz.assign(std::istreambuf_iterator<char>(in), {});
  } else {
    gz = test::fixture_text("traces/tracelens-h100-owlv2-large/google_owlv2-large-patch14-ensemble__1016001.json.gz");
  }
  Session session;
  REQUIRE(session.load(PaddedBuffer::copy_of(gz)).ok());
  const auto t0 = std::chrono::steady_clock::now();
  const TimeAxis axis = build_time_axis(session.store(), session.tree());
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::printf("time axis: %zu events in the store, %zu drawn on %zu lanes, %zu spans: %.1f ms (sheets only)\n",
              session.event_count(), axis.events.num_rows(), axis.lanes.num_rows(), axis.spans.num_rows(), ms);
  const auto t1 = std::chrono::steady_clock::now();
  const TimeAxisResult full = session.time_axis({});
  const double full_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count();
  std::printf("time axis with its inputs: %.1f ms (inputs %.1f ms: cycles %.1f, both critical paths %.1f, SOL %.1f; "
              "sheets %.1f ms), %zu spans\n",
              full_ms, full.inputs_ms, full.cycles_ms, full.critical_paths_ms, full.sol_ms, full.build_ms,
              full.axis.spans.num_rows());
  const Column* partner = axis.events.find("partner");
  const Column* lane = axis.events.find("lane");
  REQUIRE(partner);
  REQUIRE(lane);
  size_t linked = 0;
  for (size_t r = 0; r < axis.events.num_rows(); ++r) {
    REQUIRE(lane->int_at(r) < static_cast<int64_t>(axis.lanes.num_rows()));
    const int64_t p = partner->int_at(r);
    if (p < 0) continue;
    ++linked;
    // A kernel's partner is its launch, whose partner is its first kernel: not always r.
    REQUIRE(partner->int_at(static_cast<size_t>(p)) >= 0);
  }
  CHECK(linked > 0);
}
