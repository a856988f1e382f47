// Speed of light on hand-made traces, with the H100 SXM5 of the device database; the
// trace and its worked-out numbers: support/sol_cases.h.
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
using test::col;

namespace {

using Loaded = test::TestTrace;
Loaded load(const std::string& json, bool python = true) { return test::load_with_tree(json, python); }
DeviceIdentification h100() { return test::user_device("H100_SXM5_80GB"); }
using test::row_of;

constexpr double kBigUs = test::kBigMmUs;
constexpr double kSmallUs = test::kSmallMmUs;
using test::annotation;
using test::mm_args;
using test::two_modules_two_phases;

double column_sum(const Table& t, const std::string& name) {
  double s = 0;
  const Column& c = col(t, name);
  for (size_t r = 0; r < c.size(); ++r) s += c.float_at(r);
  return s;
}

double metric(const SolReport& r, const std::string& name) {
  return r.metrics.column(1).float_at(row_of(r.metrics, name));
}

}  // namespace

TEST_CASE("sol: estimates per op, layer types from the innermost module", "[sol]") {
  CHECK(kBigUs == Approx(138.911414).epsilon(1e-7));
  CHECK(kSmallUs == Approx(0.00733612).epsilon(1e-6));
  const Loaded l = load(two_modules_two_phases());
  const SolReport r = analyze_sol(*l.store, l.tree, h100());
  REQUIRE(r.ops.module_frames);

  // Estimated: 2 × mm 4096 + 2 × mm 64; the cat is unmodeled (5 µs), not a zero estimate.
  CHECK(metric(r, "sol/total_ops") == 4);
  CHECK(metric(r, "sol/estimated_time_ms") == Approx((2 * kBigUs + 2 * kSmallUs) / 1e3).epsilon(1e-12));
  CHECK(metric(r, "sol/measured_time_ms") == Approx((300 + 100 + 2 + 1) / 1e3).epsilon(1e-12));
  CHECK(metric(r, "sol/kernel_efficiency_pct") == Approx((2 * kBigUs + 2 * kSmallUs) / 403 * 100).epsilon(1e-12));
  CHECK(metric(r, "sol/unmodeled_ops") == 1);
  CHECK(metric(r, "sol/unmodeled_time_ms") == Approx(0.005).epsilon(1e-12));
  // 2·(2·4096³ + 2·64³) FLOP.
  CHECK(metric(r, "sol/total_tflops") == Approx(2 * (137438953472.0 + 524288.0) / 1e12).epsilon(1e-12));

  // Each op counts for its innermost module only: Linear holds the two mm 4096 (not
  // Block_0, which contains Linear_0); Block_0 its own mm 64 and the unmodeled cat.
  const Table& lt = r.by_layer_type;
  REQUIRE(lt.num_rows() == 3);
  const size_t linear = row_of(lt, "Linear"), block = row_of(lt, "Block"), none = row_of(lt, "(no module) GEMM");
  CHECK(col(lt, "count").int_at(linear) == 2);
  CHECK(col(lt, "estimated_time_ms").float_at(linear) == Approx(2 * kBigUs / 1e3).epsilon(1e-12));
  CHECK(col(lt, "measured_time_ms").float_at(linear) == Approx(0.4).epsilon(1e-12));
  CHECK(col(lt, "efficiency_pct").float_at(linear) == Approx(2 * kBigUs / 400 * 100).epsilon(1e-12));
  CHECK(col(lt, "faster_than_estimate_ops").int_at(linear) == 1);
  CHECK(col(lt, "count").int_at(block) == 1);
  CHECK(col(lt, "measured_time_ms").float_at(block) == Approx(0.002).epsilon(1e-12));
  CHECK(col(lt, "unmodeled_ops").int_at(block) == 1);
  CHECK(col(lt, "unmodeled_time_ms").float_at(block) == Approx(0.005).epsilon(1e-12));
  CHECK(col(lt, "count").int_at(none) == 1);
  // The rows partition the estimated ops: no double counting.
  CHECK(column_sum(lt, "measured_time_ms") == Approx(metric(r, "sol/measured_time_ms")).epsilon(1e-12));
  CHECK(column_sum(lt, "estimated_time_ms") == Approx(metric(r, "sol/estimated_time_ms")).epsilon(1e-12));

  // Instances: the module path from the nesting of frames.
  const Table& inst = r.by_layer_instance;
  CHECK(col(inst, "count").int_at(row_of(inst, "Block_0.Linear_0")) == 1);
  CHECK(col(inst, "count").int_at(row_of(inst, "Block_0")) == 1);
  CHECK(col(inst, "count").int_at(row_of(inst, "Linear_1")) == 1);
  CHECK(column_sum(inst, "measured_time_ms") == Approx(0.403).epsilon(1e-12));
  // Modules inclusive: Block_0 holds Linear_0's mm too.
  const Table& mod = r.by_module;
  CHECK(col(mod, "count").int_at(row_of(mod, "Block_0")) == 2);
  CHECK(col(mod, "measured_time_ms").float_at(row_of(mod, "Block_0")) == Approx(0.302).epsilon(1e-12));
  CHECK(col(mod, "depth").int_at(row_of(mod, "Block_0.Linear_0")) == 1);

  // Function = op name.
  const Table& fn = r.by_function;
  CHECK(col(fn, "count").int_at(row_of(fn, "aten::mm")) == 4);
  CHECK(col(fn, "unmodeled_ops").int_at(row_of(fn, "aten::cat")) == 1);
  CHECK(col(fn, "count").int_at(row_of(fn, "aten::cat")) == 0);
}

TEST_CASE("sol: an op faster than its estimate is flagged, not hidden", "[sol]") {
  const Loaded l = load(two_modules_two_phases());
  const SolReport r = analyze_sol(*l.store, l.tree, h100());
  CHECK(metric(r, "sol/faster_than_estimate_ops") == 1);
  const Table& top = r.top_operations;
  // The two mm 4096 first (equal estimates, stable: fwd then bwd).
  REQUIRE(top.num_rows() == 4);
  CHECK(col(top, "measured_time_us").float_at(1) == 100);
  CHECK(col(top, "estimated_time_us").float_at(1) == Approx(kBigUs).epsilon(1e-12));
  CHECK(col(top, "efficiency_pct").float_at(1) == Approx(kBigUs / 100 * 100).epsilon(1e-12));  // 138.9 %
  CHECK(col(top, "faster_than_estimate").bool_at(1));
  CHECK_FALSE(col(top, "faster_than_estimate").bool_at(0));
  CHECK(col(top, "bound").string_at(0) == "compute");
  CHECK(col(top, "bound").string_at(2) == "memory");
  CHECK(col(top, "compute_spec").string_at(0) == "matrix_bf16");
}

TEST_CASE("sol: phases are innermost annotations; prefix totals kept apart", "[sol]") {
  const Loaded l = load(two_modules_two_phases());
  const SolReport r = analyze_sol(*l.store, l.tree, h100());
  const Table& ph = r.by_phase;
  REQUIRE(ph.num_rows() == 3);
  const size_t fwd = row_of(ph, "train/fwd"), bwd = row_of(ph, "train/bwd"), eval = row_of(ph, "eval");
  CHECK(col(ph, "count").int_at(fwd) == 2);
  CHECK(col(ph, "estimated_time_ms").float_at(fwd) == Approx((kBigUs + kSmallUs) / 1e3).epsilon(1e-12));
  CHECK(col(ph, "measured_time_ms").float_at(fwd) == Approx(0.302).epsilon(1e-12));
  CHECK(col(ph, "unmodeled_ops").int_at(fwd) == 1);
  CHECK(col(ph, "measured_time_ms").float_at(bwd) == Approx(0.1).epsilon(1e-12));
  CHECK(col(ph, "measured_time_ms").float_at(eval) == Approx(0.001).epsilon(1e-12));
  // Leaf phases partition: they sum to the total.
  CHECK(column_sum(ph, "measured_time_ms") == Approx(0.403).epsilon(1e-12));
  // "train (total)" = train/fwd + train/bwd; "eval" has no '/' and so no total.
  const Table& pre = r.by_phase_prefix;
  REQUIRE(pre.num_rows() == 1);
  CHECK(pre.column(0).string_at(0) == "train (total)");
  CHECK(col(pre, "count").int_at(0) == 3);
  CHECK(col(pre, "estimated_time_ms").float_at(0) == Approx((2 * kBigUs + kSmallUs) / 1e3).epsilon(1e-12));
  CHECK(col(pre, "measured_time_ms").float_at(0) == Approx(0.402).epsilon(1e-12));
}

TEST_CASE("sol: the efficiency factor scales peaks and bandwidth", "[sol]") {
  const Loaded l = load(two_modules_two_phases());
  SolOptions options;
  options.efficiency_factor = 0.8;
  const SolReport r = analyze_sol(*l.store, l.tree, h100(), options);
  // Every ceiling × 0.8, so every estimate ÷ 0.8.
  CHECK(metric(r, "sol/estimated_time_ms") == Approx((2 * kBigUs + 2 * kSmallUs) / 0.8 / 1e3).epsilon(1e-12));
  // 138.91 / 0.8 = 173.64 µs: the 100 µs kernel is still faster, the 300 µs one not.
  CHECK(metric(r, "sol/faster_than_estimate_ops") == 1);
}

TEST_CASE("sol: without module frames layer types are op categories, and it says so", "[sol]") {
  const Loaded l = load(two_modules_two_phases(), /*python=*/false);
  const SolReport r = analyze_sol(*l.store, l.tree, h100());
  CHECK_FALSE(r.ops.module_frames);
  REQUIRE(r.ops.notes.size() == 1);
  CHECK(r.ops.notes[0].find("not loaded") != std::string::npos);
  const Table& lt = r.by_layer_type;
  CHECK(col(lt, "count").int_at(row_of(lt, "GEMM")) == 4);
  CHECK(r.by_module.num_rows() == 0);
}

TEST_CASE("sol: no GPU with peaks gives no estimates, only unmodeled time", "[sol]") {
  const Loaded l = load(two_modules_two_phases());
  const SolReport r = analyze_sol(*l.store, l.tree, DeviceIdentification{});
  CHECK(metric(r, "sol/total_ops") == 0);
  CHECK(metric(r, "sol/unmodeled_ops") == 5);
  CHECK(metric(r, "sol/unmodeled_time_ms") == Approx(0.408).epsilon(1e-12));
  CHECK(r.metrics.column(1).is_null(row_of(r.metrics, "sol/kernel_efficiency_pct")));
}

TEST_CASE("sol: a host-to-device copy is not held to the DRAM roofline", "[sol]") {
  // aten::copy_ of 64×64 bf16 has a model (memory-bound), but its GPU event is a PCIe
  // memcpy: deviceDB has no host link bandwidth, so it is unmodeled, with the reason.
  const std::string args = R"("Input Dims":[[64,64],[64,64]],"Input type":["c10::BFloat16","c10::BFloat16"],)"
                           R"("Input Strides":[[64,1],[64,1]],"Concrete Inputs":["",""])";
  test::TraceBuilder t;  // the mm's cudaLaunchKernel makes the tree link on correlation ids
  t.cpu_op("aten::mm", 0, 5, mm_args(64)).launch(1, "small_gemm", 50, 2)
      .cpu_op("aten::copy_", 10, 5, args)
      .launch(11, "Memcpy HtoD (Pageable -> Device)", 100, 40, "gpu_memcpy", 7, "cudaMemcpyAsync");
  const Loaded l = load(t.json());
  const SolReport r = analyze_sol(*l.store, l.tree, h100());
  CHECK(metric(r, "sol/total_ops") == 1);
  CHECK(metric(r, "sol/unmodeled_ops") == 1);
  REQUIRE(r.unmodeled.num_rows() == 1);
  CHECK(col(r.unmodeled, "reason").string_at(0).starts_with("host-device copy"));
  CHECK(col(r.unmodeled, "measured_time_ms").float_at(0) == Approx(0.04).epsilon(1e-12));
}
