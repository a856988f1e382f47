// The "bound by" rules (analyses/verdict/bound_by.h) on hand-chosen wall splits: each
// rule, and the thresholds where one gives way to the next.
#include <catch2/catch.hpp>

#include "analyses/verdict/bound_by.h"
#include "analyses/verdict/verdict_format.h"

using namespace sollens::verdict;

namespace {

// A GPU wall of 1000 µs, busy `busy_us`; the idle rest split as given.
BoundFacts wall_1000(double busy_us, double host, double kernel, double other) {
  BoundFacts f;
  f.wall_us = 1000;
  f.busy_us = busy_us;
  f.idle_us = 1000 - busy_us;
  f.host_wait_us = host;
  f.kernel_wait_us = kernel;
  f.other_wait_us = other;
  return f;
}

}  // namespace

TEST_CASE("bound by: launch-bound when the GPU is mostly idle and the host was late", "[verdict]") {
  // 940 of 1000 µs idle (94 %), 900 of it host wait, 20 kernel wait: late 920 ≥ 940 / 2.
  const BoundVerdict v = bound_by(wall_1000(60, 900, 20, 20));
  CHECK(v.bound == Bound::kLaunch);
  CHECK(v.share_pct == Approx(94));
  CHECK(bound_name(v.bound) == "launch-bound");
  CHECK(bound_view(v.bound) == "launch-delays");
  CHECK(v.why.find("idle 94 %") != std::string::npos);
  CHECK(v.why.find("for 98 % of that idle time") != std::string::npos);  // 920 / 940
}

TEST_CASE("bound by: sync-bound when the GPU is mostly idle with its kernels queued", "[verdict]") {
  // 600 µs idle (60 %): 100 host wait, 0 kernel wait, 500 other: late 100 < 300.
  const BoundVerdict v = bound_by(wall_1000(400, 100, 0, 500));
  CHECK(v.bound == Bound::kSync);
  CHECK(v.share_pct == Approx(60));
  CHECK(bound_view(v.bound) == "critical-path");
}

TEST_CASE("bound by: the idle rule starts at half the wall", "[verdict]") {
  CHECK(bound_by(wall_1000(500, 500, 0, 0)).bound == Bound::kLaunch);  // idle 50 %: idle rule
  CHECK(bound_by(wall_1000(501, 499, 0, 0)).bound == Bound::kKernel);  // 49.9 %: the busy rules
}

TEST_CASE("bound by: communication-bound when exposed communication is half the busy time", "[verdict]") {
  BoundFacts f = wall_1000(900, 100, 0, 0);
  f.exposed_comm_us = 450;  // 450 / 900 = 50 %
  const BoundVerdict v = bound_by(f);
  CHECK(v.bound == Bound::kCommunication);
  CHECK(v.share_pct == Approx(50));
  CHECK(bound_view(v.bound) == "collectives");
  f.exposed_comm_us = 449;
  CHECK(bound_by(f).bound != Bound::kCommunication);
}

TEST_CASE("bound by: compute- or memory-bound by where the busy kernels' speed of light comes from", "[verdict]") {
  BoundFacts f = wall_1000(900, 100, 0, 0);
  f.sol_compute_us = 300;
  f.sol_memory_us = 100;  // compute 300 / 400 = 75 %
  BoundVerdict v = bound_by(f);
  CHECK(v.bound == Bound::kCompute);
  CHECK(v.share_pct == Approx(75));
  f.sol_memory_us = 700;  // memory 700 / 1000 = 70 %
  v = bound_by(f);
  CHECK(v.bound == Bound::kMemory);
  CHECK(v.share_pct == Approx(70));
  CHECK(bound_view(v.bound) == "roofline");
}

TEST_CASE("bound by: kernel-bound without a GPU model, no GPU work without GPU time", "[verdict]") {
  const BoundVerdict busy = bound_by(wall_1000(900, 100, 0, 0));
  CHECK(busy.bound == Bound::kKernel);
  CHECK(busy.share_pct == Approx(90));
  CHECK(busy.why.find("choose a device") != std::string::npos);
  CHECK(bound_by(BoundFacts{}).bound == Bound::kNoGpuWork);
  CHECK(bound_name(Bound::kNoGpuWork) == "no GPU work");
}

TEST_CASE("verdict words: a count takes its noun in the singular only for one", "[verdict]") {
  CHECK(counted(1, "launch", "launches") == "1 launch");
  CHECK(counted(17, "launch", "launches") == "17 launches");
  CHECK(counted(0, "call", "calls") == "0 calls");
}
