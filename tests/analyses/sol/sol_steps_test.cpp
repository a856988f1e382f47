// Speed of light per step on a hand-made six-step trace, with the steps found by cycle
// detection. Each step (start T = 1000·s µs) runs on one stream:
//   an aten::mm 4096×4096×4096 bf16, kernel [T, T + 200]: estimate on the H100 SXM5
//     2·4096³ / 989.4e12 = 138.911414 µs (compute-bound);
//   nine aten::cat (no perf model), kernel j = 1..9 at [T + 280 + 20j, T + 290 + 20j].
// So per step: span = (T + 470) − T = 470 µs; busy = 200 + 9·10 = 290 µs;
//   SOL latency 138.911414; kernel inefficiency 200 − 138.911414 = 61.088586;
//   unmodeled 90; idle 470 − 290 = 180; and 138.91 + 61.09 + 90 + 180 = 470.
#include <catch2/catch.hpp>

#include <string>

#include "analyses/cycles/cycles.h"
#include "analyses/ops/trace_builder.h"
#include "devices/device_db.h"
#include "analyses/sol/sol.h"
#include "ingest/trace_reader.h"
#include "support/table_column.h"

using namespace sollens;
using test::col;

namespace {

constexpr double kBigUs = 137438953472.0 / 989.4e12 * 1e6;

std::string mm_args() {
  return R"("Input Dims":[[4096,4096],[4096,4096]],"Input type":["c10::BFloat16","c10::BFloat16"],)"
         R"("Input Strides":[[4096,1],[4096,1]],"Concrete Inputs":["",""])";
}

// Step s starts at starts[s] (default: 1000·s µs).
std::string six_steps(const std::vector<double>& starts = {0, 1000, 2000, 3000, 4000, 5000}) {
  test::TraceBuilder t;
  for (int s = 0; s < 6; ++s) {
    const double T = starts[static_cast<size_t>(s)], cpu = 100.0 * s;
    t.cpu_op("aten::mm", cpu, 5, mm_args()).launch(cpu + 1, "gemm_kernel", T, 200);
    for (int j = 1; j <= 9; ++j)
      t.cpu_op("aten::cat", cpu + 5 + 10 * j, 5)
          .launch(cpu + 6 + 10 * j, "cat_kernel_" + std::to_string(j), T + 280 + 20 * j, 10);
  }
  return t.json();
}

}  // namespace

TEST_CASE("sol: per step, SOL latency against the span, the gap split in three", "[sol]") {
  Result<std::unique_ptr<EventStore>> loaded = load_trace(PaddedBuffer::copy_of(six_steps()));
  REQUIRE(loaded.ok());
  const EventStore& store = *loaded.value();
  const TraceTree tree = TraceTree::build(store);
  const CycleReport cycles = analyze_cycles(store);
  REQUIRE(cycles.patterns() == 1);
  DeviceIdentification device;
  device.status = DeviceStatus::kUserChosen;
  device.spec = find_device("H100_SXM5_80GB");
  REQUIRE(device.spec);
  const SolReport r = analyze_sol(store, tree, device, {}, &cycles);

  const Table& steps = r.by_step;
  REQUIRE(steps.num_rows() == 1);
  CHECK(col(steps, "level").string_at(0) == "step");
  CHECK(col(steps, "repetitions").int_at(0) == 6);
  CHECK(col(steps, "kernels").int_at(0) == 10);
  CHECK(col(steps, "sol_latency_us").float_at(0) == Approx(kBigUs).epsilon(1e-12));
  CHECK(col(steps, "measured_span_us").float_at(0) == Approx(470).epsilon(1e-12));
  CHECK(col(steps, "kernel_inefficiency_us").float_at(0) == Approx(200 - kBigUs).epsilon(1e-12));
  CHECK(col(steps, "unmodeled_us").float_at(0) == Approx(90).epsilon(1e-12));
  CHECK(col(steps, "idle_us").float_at(0) == Approx(180).epsilon(1e-12));
  CHECK(col(steps, "efficiency_pct").float_at(0) == Approx(kBigUs / 470 * 100).epsilon(1e-12));
}

TEST_CASE("sol: an op whose kernels straddle two repetitions splits its estimate", "[sol]") {
  // Repetitions chosen by hand over the same sequence: kernels [0, 5) and [5, 10) of the
  // first step. The mm's one kernel is in the first, so it takes the whole estimate.
  Result<std::unique_ptr<EventStore>> loaded = load_trace(PaddedBuffer::copy_of(six_steps()));
  REQUIRE(loaded.ok());
  const TraceTree tree = TraceTree::build(*loaded.value());
  const SolOps ops = collect_sol_ops(*loaded.value(), tree, find_device("H100_SXM5_80GB"));
  const auto seqs = build_kernel_sequences(*loaded.value(), KernelOrder::kStartTimePerStream);
  REQUIRE(seqs.size() == 1);
  const SolSpan first = sol_span(*loaded.value(), ops, seqs[0], 0, 5);
  const SolSpan second = sol_span(*loaded.value(), ops, seqs[0], 5, 5);
  CHECK(first.sol_latency_us == Approx(kBigUs).epsilon(1e-12));
  CHECK(second.sol_latency_us == 0);
  // First: kernels [0,200], cats 1..4 ending at 280 + 80 + 10 = 370; busy 240, idle 130.
  CHECK(first.span_us == Approx(370).epsilon(1e-12));
  CHECK(first.busy_us == Approx(240).epsilon(1e-12));
  CHECK(first.idle_us() == Approx(130).epsilon(1e-12));
  CHECK(second.unmodeled_us() == Approx(50).epsilon(1e-12));
}

TEST_CASE("sol: the steps' wall times, mean, median and 90th percentile", "[sol]") {
  // Steps start 1000, 1100, 1200, 1300, 1400 µs after the one before; the last one's
  // wall is its span, 470 µs. Sorted: 470, 1000, 1100, 1200, 1300, 1400. NumPy's linear
  // quantile: p50 at position 0.5·5 = 2.5, (1100 + 1200) / 2 = 1150; p90 at 0.9·5 = 4.5,
  // (1300 + 1400) / 2 = 1350; mean (6000 + 470) / 6 = 1078.333.
  Result<std::unique_ptr<EventStore>> loaded = load_trace(PaddedBuffer::copy_of(six_steps({0, 1000, 2100, 3300, 4600, 6000})));
  REQUIRE(loaded.ok());
  const TraceTree tree = TraceTree::build(*loaded.value());
  const CycleReport cycles = analyze_cycles(*loaded.value());
  REQUIRE(cycles.patterns() == 1);
  DeviceIdentification device;
  device.status = DeviceStatus::kUserChosen;
  device.spec = find_device("H100_SXM5_80GB");
  const SolReport r = analyze_sol(*loaded.value(), tree, device, {}, &cycles);
  const Table& steps = r.by_step;
  REQUIRE(steps.num_rows() == 1);
  CHECK(col(steps, "repetitions").int_at(0) == 6);
  CHECK(col(steps, "wall_us").float_at(0) == Approx(6470.0 / 6).epsilon(1e-12));
  CHECK(col(steps, "wall_p50_us").float_at(0) == Approx(1150).epsilon(1e-12));
  CHECK(col(steps, "wall_p90_us").float_at(0) == Approx(1350).epsilon(1e-12));
  CHECK(col(steps, "wall_efficiency_pct").float_at(0) == Approx(kBigUs / (6470.0 / 6) * 100).epsilon(1e-12));
}
