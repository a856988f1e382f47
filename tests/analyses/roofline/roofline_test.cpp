// Roofline metrics on hand-computed cases (tracelens-semantics.md §6.1 formulas,
// deviceDB dense peaks).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "devices/device_db.h"
#include "analyses/roofline/roofline.h"

using namespace sollens;

namespace {
const DeviceSpec& spec(std::string_view id) {
  const DeviceSpec* d = find_device(id);
  REQUIRE(d != nullptr);
  return *d;
}
}  // namespace

TEST_CASE("roofline: bf16 GEMM 4096^3 on H100 SXM is compute bound") {
  // flops = 2*M*N*K = 137438953472; bytes = 3 * 4096^2 * 2 = 100663296; T = 200 us.
  RooflineInput in{137.438953472, 100663296.0, "matrix_bf16", 200.0};
  const RooflineMetrics m = roofline_metrics(in, &spec("H100_SXM5_80GB"));
  CHECK(m.gflops == Approx(137.438953472));
  CHECK(m.tflops_per_s == Approx(687.19476736));   // 0.137438953472 TFLOP / 200e-6 s
  CHECK(m.tb_per_s == Approx(0.50331648));         // 100663296 B / 1e12 / 200e-6 s
  CHECK(m.data_moved_mb == Approx(96.0));          // 100663296 / 2^20
  CHECK(m.flops_per_byte == Approx(1365.3333333333));
  REQUIRE(m.has_roofline);
  CHECK(m.peak_tflops == Approx(989.4));
  CHECK(m.mem_bw_tbps == Approx(3.35));
  CHECK(m.ridge_flops_per_byte == Approx(295.3432835821));  // 989.4 / 3.35
  CHECK(m.compute_us == Approx(138.9114144653));   // 137.44e9 / 989.4e12 * 1e6
  CHECK(m.memory_us == Approx(30.0487450746));     // 100663296 / 3.35e12 * 1e6
  CHECK(m.roofline_time_us == Approx(138.9114144653));
  CHECK(m.bound == RooflineBound::kComputeBound);
  CHECK(roofline_bound_name(m.bound) == "COMPUTE_BOUND");
  CHECK(m.pct_roofline == Approx(69.4557072327));  // 138.91 / 200 * 100
  CHECK(m.ceiling == "bf16 dense");
}

TEST_CASE("roofline: fp32 vector add of 2^24 elements on MI300X is memory bound") {
  // flops = n; bytes = 3 tensors * 4 B * n; T = 50 us.
  const double n = 16777216;
  RooflineInput in{n / 1e9, 12 * n, "vector_fp32", 50.0};
  const RooflineMetrics m = roofline_metrics(in, &spec("MI300X"));
  REQUIRE(m.has_roofline);
  CHECK(m.peak_tflops == Approx(163.4));
  CHECK(m.compute_us == Approx(0.1026757405));  // 0.016777216e9 / 163.4e12 * 1e6
  CHECK(m.memory_us == Approx(37.9861494340));  // 201326592 / 5.3e12 * 1e6
  CHECK(m.bound == RooflineBound::kMemoryBound);
  CHECK(roofline_bound_name(m.bound) == "MEMORY_BOUND");
  CHECK(m.pct_roofline == Approx(75.9722988679));
  CHECK(m.flops_per_byte == Approx(1.0 / 12));
  CHECK(m.ridge_flops_per_byte == Approx(163.4 / 5.3));
}

TEST_CASE("roofline: the bound flips at the ridge point") {
  const DeviceSpec& h100 = spec("H100_SXM5_80GB");
  const double ridge = 989.4e12 / 3.35e12;  // FLOPs per byte
  const double bytes = 1e9;
  RooflineInput above{ridge * bytes * 1.01 / 1e9, bytes, "matrix_fp16", 1000.0};
  RooflineInput below{ridge * bytes * 0.99 / 1e9, bytes, "matrix_fp16", 1000.0};
  CHECK(roofline_metrics(above, &h100).bound == RooflineBound::kComputeBound);
  CHECK(roofline_metrics(below, &h100).bound == RooflineBound::kMemoryBound);
}

TEST_CASE("roofline: MI250X peaks are per GCD (half the package)") {
  // 2 GiB of fp16 matrix work on one GCD: 383 / 2 = 191.5 TFLOPS, 3.2768 / 2 TB/s.
  RooflineInput in{2.0, 1e6, "matrix_fp16", 20.0};
  const RooflineMetrics m = roofline_metrics(in, &spec("MI250X"));
  REQUIRE(m.has_roofline);
  CHECK(m.peak_tflops == Approx(191.5));
  CHECK(m.mem_bw_tbps == Approx(1.6384));
  CHECK(m.compute_us == Approx(10.4438642298));  // 2e9 / 191.5e12 * 1e6
  CHECK(m.pct_roofline == Approx(52.2193211488));
}

TEST_CASE("roofline: ceilings per Compute Spec") {
  const DeviceSpec& h100 = spec("H100_SXM5_80GB");
  // No FP32 tensor cores: matrix_fp32 runs at the FP32 vector peak.
  CHECK(compute_ceiling(h100, "matrix_fp32")->tflops == Approx(66.9));
  CHECK(compute_ceiling(h100, "matrix_tf32")->tflops == Approx(494.7));
  CHECK(compute_ceiling(h100, "matrix_fp64")->tflops == Approx(66.9));
  CHECK(compute_ceiling(h100, "vector_fp64")->tflops == Approx(33.5));
  CHECK(compute_ceiling(h100, "matrix_fp8")->tflops == Approx(1978.9));
  CHECK(compute_ceiling(h100, "matrix_int8")->tflops == Approx(1978.9));
  // 16-bit vector ops: the FP32 vector peak (no separate figure in the DB).
  CHECK(compute_ceiling(h100, "vector_bf16")->tflops == Approx(66.9));
  CHECK(!compute_ceiling(h100, "matrix_fp4"));  // Hopper: no FP4
  CHECK(!compute_ceiling(h100, "vector_fp8"));
  CHECK(!compute_ceiling(h100, ""));
  CHECK(!compute_ceiling(spec("A100_SXM4_40GB"), "matrix_fp8"));  // Ampere: no FP8
  CHECK(compute_ceiling(spec("A100_SXM4_40GB"), "matrix_fp32")->tflops == Approx(19.5));
  CHECK(compute_ceiling(spec("MI300X"), "matrix_fp32")->tflops == Approx(163.4));
  // L40S has no FP64 tensor cores: matrix_fp64 uses the vector figure.
  CHECK(compute_ceiling(spec("L40S"), "matrix_fp64")->tflops == Approx(1.431));
  CHECK(compute_ceiling(spec("B200"), "matrix_fp4")->tflops == Approx(9000));
}

TEST_CASE("roofline: no roofline without flops, bytes, ceiling or device") {
  const DeviceSpec& h100 = spec("H100_SXM5_80GB");
  CHECK(!roofline_metrics({0.0, 1e6, "matrix_bf16", 10}, &h100).has_roofline);
  RooflineMetrics no_bytes = roofline_metrics({1.0, std::nullopt, "matrix_bf16", 10}, &h100);
  CHECK(!no_bytes.has_roofline);
  CHECK(std::isnan(no_bytes.data_moved_mb));
  CHECK(std::isnan(no_bytes.tb_per_s));
  CHECK(std::isnan(no_bytes.flops_per_byte));
  CHECK(no_bytes.tflops_per_s == Approx(100.0));  // 1 GFLOP in 10 us
  CHECK(!roofline_metrics({1.0, 1e6, "matrix_fp4", 10}, &h100).has_roofline);
  RooflineMetrics unknown = roofline_metrics({1.0, 1e6, "matrix_bf16", 10}, nullptr);
  CHECK(!unknown.has_roofline);
  CHECK(unknown.bound == RooflineBound::kNone);
  CHECK(roofline_bound_name(unknown.bound).empty());
  CHECK(unknown.tflops_per_s == Approx(100.0));
}

TEST_CASE("roofline: zero kernel time gives NaN rates and NaN percent") {
  const RooflineMetrics m =
      roofline_metrics({1.0, 1e6, "matrix_bf16", 0.0}, &spec("H100_SXM5_80GB"));
  CHECK(std::isnan(m.tflops_per_s));
  CHECK(std::isnan(m.tb_per_s));
  REQUIRE(m.has_roofline);
  CHECK(std::isnan(m.pct_roofline));
  CHECK(m.roofline_time_us > 0);
}

TEST_CASE("roofline: zero bytes give NaN FLOPs/byte, compute bound") {
  const RooflineMetrics m =
      roofline_metrics({1.0, 0.0, "matrix_bf16", 10.0}, &spec("H100_SXM5_80GB"));
  CHECK(std::isnan(m.flops_per_byte));
  REQUIRE(m.has_roofline);
  CHECK(m.memory_us == 0);
  CHECK(m.bound == RooflineBound::kComputeBound);
}

TEST_CASE("roofline: TraceLens MAF ceiling (MI300X arch file)") {
  const DeviceSpec& mi300 = spec("MI300X");
  RooflineInput in{137.438953472, 100663296.0, "matrix_bf16", 400.0};
  const RooflineMetrics m = roofline_metrics(in, &mi300, RooflineCeiling::kTraceLensMaf);
  REQUIRE(m.has_roofline);
  CHECK(m.peak_tflops == 708);
  CHECK(m.mem_bw_tbps == Approx(5.3));
  CHECK(m.compute_us == Approx(137.438953472e9 / 708e12 * 1e6));
  CHECK(!roofline_metrics(in, &spec("H100_SXM5_80GB"), RooflineCeiling::kTraceLensMaf).has_roofline);
}

TEST_CASE("roofline: the dense ceilings per Compute Spec a chart draws") {
  // H100 SXM dense peaks (deviceDB/H100_SXM5_80GB.json): fp64_vector 33.5,
  // fp64_matrix 66.9, fp32_vector 66.9, tf32 494.7, fp16 989.4, bf16 989.4,
  // fp8 1978.9, int8 1978.9; no fp32_matrix, fp6 or fp4 figure.
  const std::vector<SpecCeiling> h100 = dense_spec_ceilings(spec("H100_SXM5_80GB"));
  const std::vector<std::tuple<std::string, std::string, double>> expected = {
      {"matrix_fp64", "fp64_matrix", 66.9}, {"matrix_fp32", "fp32_vector", 66.9},  // no FP32 tensor cores
      {"matrix_tf32", "tf32", 494.7},       {"matrix_fp16", "fp16", 989.4},
      {"matrix_bf16", "bf16", 989.4},       {"matrix_fp8", "fp8", 1978.9},
      {"matrix_int8", "int8", 1978.9},      {"vector_fp64", "fp64_vector", 33.5},
      {"vector_fp32", "fp32_vector", 66.9}, {"vector_fp16", "fp32_vector", 66.9},
      {"vector_bf16", "fp32_vector", 66.9},
  };
  REQUIRE(h100.size() == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    const auto& [spec_name, peak, tflops] = expected[i];
    INFO(spec_name);
    CHECK(h100[i].spec == spec_name);
    CHECK(peak_key_name(h100[i].peak) == peak);
    CHECK(h100[i].tflops == Approx(tflops));
    // The same ceiling the roofline columns use.
    const auto ceiling = compute_ceiling(spec("H100_SXM5_80GB"), spec_name);
    REQUIRE(ceiling);
    CHECK(ceiling->tflops == h100[i].tflops);
  }
  // MI250X: per GCD, half the package's 383 TFLOPS bf16 (devices_per_package 2).
  const std::vector<SpecCeiling> mi250x = dense_spec_ceilings(spec("MI250X"));
  const auto bf16 = std::find_if(mi250x.begin(), mi250x.end(),
                                 [](const SpecCeiling& c) { return c.spec == "matrix_bf16"; });
  REQUIRE(bf16 != mi250x.end());
  CHECK(bf16->tflops == Approx(191.5));
}

TEST_CASE("roofline: the on-chip bound of a working set against the L2") {
  const DeviceSpec& h200 = spec("H200_SXM_141GB");  // L2 50 MB at 9.9 TB/s, DRAM 4.8 TB/s
  // 20 MB fit: every byte through the L2 at 9.9 TB/s: 20e6 / 9.9e12 s = 2.0202 µs.
  CHECK(*on_chip_memory_us(20e6, h200) == Approx(2.0202020));
  // 100 MB: the L2 takes 100e6 / 9.9e12 s = 10.101 µs, but 50 MB must still go to DRAM:
  // 50e6 / 4.8e12 s = 10.4167 µs, the larger.
  CHECK(*on_chip_memory_us(100e6, h200) == Approx(10.4166667));
  CHECK(*beyond_l2_memory_us(100e6, h200) == Approx(10.4166667));
  CHECK(*beyond_l2_memory_us(20e6, h200) == 0);
  // The efficiency factor scales both bandwidths: 20e6 / (0.8 · 9.9e12) s.
  CHECK(*on_chip_memory_us(20e6, h200, 0.8) == Approx(2.5252525));
  // V100 SXM2: no sourced L2 bandwidth, so no on-chip bound; its DRAM part is known:
  // (10e6 - 6e6) B / 0.9e12 B/s = 4.4444 µs.
  const DeviceSpec& v100 = spec("V100_SXM2");
  CHECK(!on_chip_memory_us(10e6, v100));
  CHECK(*beyond_l2_memory_us(10e6, v100) == Approx(4.4444444));
}

TEST_CASE("roofline: a substitute peak says so") {
  const DeviceSpec& h200 = spec("H200_SXM_141GB");
  CHECK(!compute_ceiling(h200, "matrix_bf16")->substitute);
  CHECK(compute_ceiling(h200, "matrix_fp32")->substitute);  // fp32_vector: no FP32 tensor cores
  CHECK(compute_ceiling(h200, "vector_bf16")->substitute);  // fp32_vector stands in
  CHECK(!compute_ceiling(h200, "vector_fp32")->substitute);
}
