// Speed of light against wall time (sol_wall.h) on hand-made traces; every figure is
// worked out from the kernels' and launches' times written in the trace.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "analyses/ops/trace_builder.h"
#include "devices/device_db.h"
#include "analyses/sol/sol.h"
#include "ingest/trace_reader.h"
#include "support/sol_cases.h"
#include "support/table_column.h"
#include "support/test_trace.h"

using namespace sollens;

namespace {

using Loaded = test::TestTrace;
Loaded load(const std::string& json) { return test::load_with_tree(json); }
DeviceIdentification h100() { return test::user_device("H100_SXM5_80GB"); }
using test::row_of;

double metric(const SolReport& r, const std::string& name) {
  return r.metrics.column(1).float_at(row_of(r.metrics, name));
}

}  // namespace

// Kernels (launch time): big_gemm [200, 500] (21), small_gemm [600, 602] (151),
// cat [700, 705] (201), big_gemm [1200, 1300] (1021), small_gemm [3100, 3101] (3011).
// Wall 3101 − 200 = 2901 µs; busy 300 + 2 + 5 + 100 + 1 = 408; idle 2493:
//   500 → 600  (100): launched at 151, queued, ≥ 30 µs → other
//   602 → 700   (98): launched at 201, queued → other
//   705 → 1200 (495): launched at 1021, after the GPU went idle → host wait
//   1300 → 3100 (1800): launched at 3011 → host wait
TEST_CASE("sol wall: the headline is the estimates over the wall time, idle split in three", "[sol][sol_wall]") {
  const Loaded l = load(test::two_modules_two_phases());
  const SolReport r = analyze_sol(*l.store, l.tree, h100());
  const double sol_us = 2 * test::kBigMmUs + 2 * test::kSmallMmUs;
  CHECK(r.wall.wall_us == Approx(2901));
  CHECK(r.wall.busy_us == Approx(408));
  CHECK(r.wall.sol_us == Approx(sol_us));
  CHECK(r.wall.idle_host_wait_us == Approx(2295));
  CHECK(r.wall.idle_kernel_wait_us == Approx(0).margin(1e-9));
  CHECK(r.wall.idle_other_us == Approx(198));
  CHECK(r.wall.idle_us() == Approx(2493));
  CHECK(r.wall.estimated_kernel_us == Approx(403));  // every kernel but the cat's
  CHECK(r.wall.unmodeled_us() == Approx(5));
  CHECK(metric(r, "sol/wall_time_ms") == Approx(2.901));
  CHECK(metric(r, "sol/wall_efficiency_pct") == Approx(sol_us / 2901 * 100));
  // The kernel-only figure stays, second and named as such: Σ estimates / 403 µs measured.
  CHECK(metric(r, "sol/kernel_efficiency_pct") == Approx(sol_us / 403 * 100));
  CHECK(r.metrics.column(0).string_at(0) == "sol/wall_time_ms");
  CHECK(r.metrics.column(0).string_at(1) == "sol/wall_efficiency_pct");
  // The parts of the wall add up to it.
  CHECK(r.wall.sol_us + r.wall.kernel_inefficiency_us() + r.wall.unmodeled_us() + r.wall.idle_host_wait_us +
            r.wall.idle_kernel_wait_us + r.wall.idle_other_us ==
        Approx(r.wall.wall_us));
}

// Ops by first kernel: train/fwd from 200 to the first train/bwd kernel at 1200 (1000 µs),
// train/bwd from 1200 to the eval kernel at 3100 (1900 µs), eval 3100 → 3101 (1 µs).
TEST_CASE("sol wall: each phase's wall time reaches to the next phase's first kernel", "[sol][sol_wall]") {
  const Loaded l = load(test::two_modules_two_phases());
  const SolReport r = analyze_sol(*l.store, l.tree, h100());
  const Table& p = r.by_phase;
  const Column& wall = test::col(p, "wall_time_ms");
  const Column& eff = test::col(p, "wall_efficiency_pct");
  CHECK(wall.float_at(row_of(p, "train/fwd")) == Approx(1.0));
  CHECK(wall.float_at(row_of(p, "train/bwd")) == Approx(1.9));
  CHECK(wall.float_at(row_of(p, "eval")) == Approx(0.001));
  CHECK(eff.float_at(row_of(p, "train/fwd")) == Approx((test::kBigMmUs + test::kSmallMmUs) / 1000 * 100));
  CHECK(eff.float_at(row_of(p, "train/bwd")) == Approx(test::kBigMmUs / 1900 * 100));
  CHECK(eff.float_at(row_of(p, "eval")) == Approx(test::kSmallMmUs / 1 * 100));
}

// Two kernels launched back to back before either runs: [10, 20] and [25, 35], both
// launched by t = 1. The 5 µs gap is launch overhead (kernel wait), not host wait.
TEST_CASE("sol wall: a gap before an already queued kernel is kernel wait", "[sol][sol_wall]") {
  test::TraceBuilder t;
  t.cpu_op("aten::mm", 0, 2, test::mm_args(64)).launch(0.5, "small_gemm", 10, 10);
  t.cpu_op("aten::mm", 0.6, 2, test::mm_args(64)).launch(1, "small_gemm", 25, 10);
  const Loaded l = load(t.json());
  const SolReport r = analyze_sol(*l.store, l.tree, h100());
  CHECK(r.wall.wall_us == Approx(25));
  CHECK(r.wall.busy_us == Approx(20));
  CHECK(r.wall.idle_kernel_wait_us == Approx(5));
  CHECK(r.wall.idle_host_wait_us == Approx(0).margin(1e-9));
  CHECK(r.wall.idle_other_us == Approx(0).margin(1e-9));
}
