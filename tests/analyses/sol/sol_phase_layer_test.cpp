// sol_by_phase_layer: the layer breakdown of each phase, on ops made by hand.
#include <catch2/catch.hpp>

#include "analyses/sol/sol_phase.h"
#include "analyses/sol/sol_tables.h"
#include "support/table_column.h"

using namespace sollens;
using test::col;

namespace {

SolOp op(const std::string& phase, const std::string& layer_type, double estimate_us, double measured_us) {
  SolOp o;
  o.phase = phase;
  o.layer_type = layer_type;
  o.pass = "forward";
  o.measured_us = measured_us;
  o.estimated = estimate_us > 0;
  o.roofline.estimate_us = estimate_us;
  if (!o.estimated) o.no_estimate = "no perf model";
  return o;
}

}  // namespace

TEST_CASE("sol_by_phase_layer: one row per phase and layer type, shares within the phase", "[sol][phases]") {
  SolOps ops;
  // prefill ran first: attention 30 + 10 µs estimated in 50 + 30 µs measured; mlp 60 in 100.
  ops.ops = {op("prefill", "Attention", 30, 50), op("prefill", "MLP", 60, 100), op("prefill", "Attention", 10, 30),
             // decode: mlp 8 in 40, attention 2 in 10, and an unmodeled 5 µs op in the MLP.
             op("decode", "Attention", 2, 10), op("decode", "MLP", 8, 40), op("decode", "MLP", 0, 5)};
  const Table t = sol_by_phase_layer_table(ops);
  REQUIRE(t.num_rows() == 4);
  // Phases in the order they ran; within one, the larger estimate first.
  CHECK(col(t, "phase").string_at(0) == "prefill");
  CHECK(col(t, "layer_type").string_at(0) == "MLP");
  CHECK(col(t, "layer_type").string_at(1) == "Attention");
  CHECK(col(t, "phase").string_at(2) == "decode");
  CHECK(col(t, "layer_type").string_at(2) == "MLP");
  CHECK(col(t, "pass").string_at(2) == "forward");
  // prefill Attention: 2 ops, 40 µs of 80 measured: 50 %; 40 of the phase's 100 µs: 40 %.
  CHECK(col(t, "count").int_at(1) == 2);
  CHECK(col(t, "estimated_time_ms").float_at(1) == Approx(0.040));
  CHECK(col(t, "measured_time_ms").float_at(1) == Approx(0.080));
  CHECK(col(t, "efficiency_pct").float_at(1) == Approx(50));
  CHECK(col(t, "share_of_phase_estimate_pct").float_at(1) == Approx(40));
  CHECK(col(t, "share_of_phase_estimate_pct").float_at(0) == Approx(60));
  // decode MLP: 8 of 40 µs (20 %), 8 of the phase's 10 µs (80 %); the unmodeled op apart.
  CHECK(col(t, "count").int_at(2) == 1);
  CHECK(col(t, "efficiency_pct").float_at(2) == Approx(20));
  CHECK(col(t, "share_of_phase_estimate_pct").float_at(2) == Approx(80));
  CHECK(col(t, "unmodeled_ops").int_at(2) == 1);
  CHECK(col(t, "unmodeled_time_ms").float_at(2) == Approx(0.005));
  CHECK(col(t, "share_of_phase_estimate_pct").float_at(3) == Approx(20));
}

TEST_CASE("sol_by_phase_layer: no rows when no op has a phase", "[sol][phases]") {
  SolOps ops;
  ops.ops = {op(std::string(kNoPhase), "MLP", 8, 40)};
  CHECK(sol_by_phase_layer_table(ops).num_rows() == 0);
  ops.ops.push_back(op("decode", "MLP", 2, 4));
  const Table t = sol_by_phase_layer_table(ops);
  REQUIRE(t.num_rows() == 2);  // with a phase somewhere, "(no phase)" keeps its row: the rows partition the ops
  CHECK(col(t, "phase").string_at(0) == std::string(kNoPhase));
}
