// Roofline columns of the perf-model sheets (tracelens-semantics.md §4.7, §6.1) on a
// hand-made trace and the H100 SXM5 of our device database: bf16 dense peak 989.4
// TFLOPS, DRAM 3.35 TB/s, so the ridge point is 989.4e12 / 3.35e12 = 295.34 FLOP/byte.
// Every expected number is worked out below from those two figures.
#include <catch2/catch.hpp>

#include <cmath>

#include "analyses/ops/trace_builder.h"
#include "analyses/perf/perf_sheets.h"
#include "devices/device_db.h"
#include "ingest/trace_reader.h"
#include "support/table_column.h"

using namespace sollens;
using test::col;

namespace {

std::string mm_args(int n) {
  const std::string d = std::to_string(n);
  return R"("Input Dims":[[)" + d + "," + d + "],[" + d + "," + d +
         R"(]],"Input type":["c10::BFloat16","c10::BFloat16"],"Input Strides":[[)" + d + ",1],[" + d +
         R"(,1]],"Concrete Inputs":["",""])";
}

// aten::mm 64x64x64 once (kernel 2 µs) and aten::mm 4096x4096x4096 twice (200 and 250 µs).
std::vector<Table> gemm_sheets(const DeviceSpec* device) {
  test::TraceBuilder t;
  t.cpu_op("aten::mm", 10, 5, mm_args(64)).launch(11, "small_gemm", 100, 2)
      .cpu_op("aten::mm", 20, 5, mm_args(4096)).launch(21, "big_gemm", 200, 200)
      .cpu_op("aten::mm", 30, 5, mm_args(4096)).launch(31, "big_gemm", 500, 250);
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(t.json()));
  REQUIRE(r.ok());
  const TraceTree tree = TraceTree::build(*r.value());
  PerfSheetOptions options;
  options.device = device;
  return perf_model_tables(*r.value(), tree, options);
}

}  // namespace

TEST_CASE("perf sheets: roofline columns after Compute Spec, compute- and memory-bound", "[perf]") {
  const DeviceSpec* h100 = find_device("H100_SXM5_80GB");
  REQUIRE(h100 != nullptr);
  const std::vector<Table> sheets = gemm_sheets(h100);
  REQUIRE(sheets.size() == 1);
  const Table& gemm = sheets[0];
  std::vector<std::string> names;
  for (size_t c = 0; c < gemm.num_columns(); ++c) names.push_back(gemm.column(c).name());
  const auto spec = std::find(names.begin(), names.end(), "Compute Spec");
  REQUIRE(spec != names.end());
  CHECK(std::vector<std::string>(spec + 1, spec + 10) ==
        std::vector<std::string>{"Roofline Time (µs)_first", "Roofline Bound_first", "Pct Roofline_mean",
                                 "Pct Roofline_median", "Pct Roofline_std", "Pct Roofline_min", "Pct Roofline_max",
                                 "kernel_details__summarize_kernel_stats", "trunc_kernel_details"});
  REQUIRE(gemm.num_rows() == 2);
  REQUIRE(col(gemm, "param: M").string_at(0) == "4096");  // the larger kernel time sum first

  // 4096³ bf16: flops = 2·4096³ = 137,438,953,472; bytes = 3·4096²·2 = 100,663,296;
  // FLOPS/Byte = 1365.3 > ridge 295.34: compute-bound.
  // compute_us = 137438953472 / 989.4e12 · 1e6 = 138.91141... µs (memory_us = 30.05 µs).
  const double big_us = 137438953472.0 / 989.4e12 * 1e6;
  CHECK(big_us == Approx(138.911414).epsilon(1e-7));
  CHECK(col(gemm, "Roofline Bound_first").string_at(0) == "COMPUTE_BOUND");
  CHECK(col(gemm, "Roofline Time (µs)_first").float_at(0) == Approx(big_us).epsilon(1e-12));
  // Pct Roofline per call: 138.911/200·100 = 69.456 %, 138.911/250·100 = 55.565 %.
  const double p1 = big_us / 200 * 100, p2 = big_us / 250 * 100;
  CHECK(col(gemm, "Pct Roofline_mean").float_at(0) == Approx((p1 + p2) / 2).epsilon(1e-12));
  CHECK(col(gemm, "Pct Roofline_median").float_at(0) == Approx((p1 + p2) / 2).epsilon(1e-12));
  CHECK(col(gemm, "Pct Roofline_std").float_at(0) == Approx((p1 - p2) / std::sqrt(2.0)).epsilon(1e-9));
  CHECK(col(gemm, "Pct Roofline_min").float_at(0) == Approx(p2).epsilon(1e-12));
  CHECK(col(gemm, "Pct Roofline_max").float_at(0) == Approx(p1).epsilon(1e-12));

  // 64³ bf16: flops = 2·64³ = 524,288; bytes = 3·64²·2 = 24,576; FLOPS/Byte = 21.33 <
  // 295.34: memory-bound. memory_us = 24576 / 3.35e12 · 1e6 = 0.0073361 µs; one call of
  // 2 µs: 0.36680 %, no std for one row.
  const double small_us = 24576 / 3.35e12 * 1e6;
  CHECK(small_us == Approx(0.00733612).epsilon(1e-6));
  CHECK(col(gemm, "Roofline Bound_first").string_at(1) == "MEMORY_BOUND");
  CHECK(col(gemm, "Roofline Time (µs)_first").float_at(1) == Approx(small_us).epsilon(1e-12));
  CHECK(col(gemm, "Pct Roofline_mean").float_at(1) == Approx(small_us / 2 * 100).epsilon(1e-12));
  CHECK(col(gemm, "Pct Roofline_std").is_null(1));
}

TEST_CASE("perf sheets: no device, no roofline columns (TraceLens without an arch file)", "[perf]") {
  const std::vector<Table> sheets = gemm_sheets(nullptr);
  REQUIRE(sheets.size() == 1);
  for (size_t c = 0; c < sheets[0].num_columns(); ++c) CHECK(sheets[0].column(c).name().find("Roofline") == std::string::npos);
}
