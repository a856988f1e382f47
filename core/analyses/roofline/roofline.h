#pragma once
// Roofline metrics of one op (or one fwd op with its bwd subtree), with TraceLens's
// formulas (tracelens-semantics.md §6.1) and the ceilings of our device database:
// dense theoretical peaks by default, where TraceLens uses measured max-achievable
// FLOPS from its arch files (only MI300X/MI325X ship). Differences: core/analyses/roofline/README.md.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "devices/device_db.h"

namespace sollens {

enum class RooflineBound : uint8_t { kNone, kComputeBound, kMemoryBound };
std::string_view roofline_bound_name(RooflineBound b);  // "COMPUTE_BOUND" / "MEMORY_BOUND" / ""

enum class RooflineCeiling : uint8_t {
  kDensePeak,     // deviceDB dense peaks and DRAM bandwidth (default)
  kTraceLensMaf,  // TraceLens's arch-file MAF and mem_bw_gbps (where the DB has them)
};

struct RooflineInput {
  double gflops = 0;          // flops() / 1e9
  std::optional<double> bytes;  // bytes(); nullopt when the model gives None
  std::string_view compute_spec;  // "matrix_bf16", "vector_fp32", ... ("" when unknown)
  double kernel_time_us = 0;  // T: busy union of the op's kernels
};

struct RooflineMetrics {
  // TraceLens's base metrics (NaN where TraceLens has NaN).
  double gflops = 0;
  double data_moved_mb = 0;   // bytes / 2^20 (MiB, labelled MB as in TraceLens)
  double flops_per_byte = 0;
  double tb_per_s = 0;        // achieved, decimal TB/s
  double tflops_per_s = 0;    // achieved
  // Roofline columns: only when has_roofline (flops > 0, bytes known, a ceiling for
  // the Compute Spec and a bandwidth on this device).
  bool has_roofline = false;
  double peak_tflops = 0;     // the ceiling used, per device
  double mem_bw_tbps = 0;     // the bandwidth used, per device
  double ridge_flops_per_byte = 0;  // peak / bandwidth
  double compute_us = 0;
  double memory_us = 0;
  double roofline_time_us = 0;  // max(compute_us, memory_us)
  double pct_roofline = 0;      // roofline time / T * 100; NaN when T == 0
  RooflineBound bound = RooflineBound::kNone;
  std::string ceiling;  // where the peak came from, e.g. "bf16 dense" or "fp32_vector dense (for vector_bf16)"
};

// The ceiling for a Compute Spec on a device, per device (package / devices_per_package).
struct ComputeCeiling {
  double tflops = 0;
  std::string source;
  bool substitute = false;  // another unit's peak stands in (e.g. fp32_vector for vector_bf16)
};
std::optional<ComputeCeiling> compute_ceiling(const DeviceSpec& device, std::string_view compute_spec,
                                              RooflineCeiling kind = RooflineCeiling::kDensePeak);
std::optional<double> memory_ceiling_tbps(const DeviceSpec& device,
                                          RooflineCeiling kind = RooflineCeiling::kDensePeak);

// The dense ceilings of every Compute Spec the device has a positive peak for, in a
// fixed spec order: which peak key compute_ceiling uses for the spec, and its value
// per device. What a roofline chart draws over the perf rows.
struct SpecCeiling {
  std::string_view spec;  // "matrix_bf16", "vector_fp32", ...
  PeakKey peak;
  double tflops = 0;
};
std::vector<SpecCeiling> dense_spec_ceilings(const DeviceSpec& device);

// The least time `bytes` of traffic take when the L2 holds what it can of them (inputs
// left there by earlier kernels, outputs not yet written back): every byte passes
// through the L2, and only what exceeds its size must come from or go to DRAM.
// max(bytes / L2 bandwidth, max(0, bytes - L2 size) / DRAM bandwidth) in µs, both
// bandwidths times `factor`; nullopt without an L2 size, L2 bandwidth and DRAM bandwidth.
std::optional<double> on_chip_memory_us(double bytes, const DeviceSpec& device, double factor = 1.0);
// Only the DRAM part of that bound: max(0, bytes - L2 size) / DRAM bandwidth, for GPUs
// whose L2 bandwidth no source gives; nullopt without an L2 size or DRAM bandwidth.
std::optional<double> beyond_l2_memory_us(double bytes, const DeviceSpec& device, double factor = 1.0);

// device == nullptr: base metrics only (unknown GPU: never a guessed peak).
RooflineMetrics roofline_metrics(const RooflineInput& in, const DeviceSpec* device,
                                 RooflineCeiling kind = RooflineCeiling::kDensePeak);

}  // namespace sollens
