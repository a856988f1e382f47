#include "analyses/roofline/roofline.h"
#include "base/nan.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sollens {

namespace {


struct SpecPeaks {
  std::string_view spec;
  PeakKey first;
  std::optional<PeakKey> fallback;  // when the device has no `first` figure
};

// Compute Spec (TraceLens: f"{maf_type}_{precision}") -> dense peak column.
// matrix_fp64/fp32 fall back to the vector units where a GPU has no matrix figure for
// that dtype (NVIDIA FP32: no FP32 tensor cores; a FP32 GEMM without TF32 runs on the
// CUDA cores; L40S FP64). vector_fp16/bf16 use the FP32 vector peak: the DB has no
// separate 16-bit vector peak, and TraceLens's own arch files list vector_fp16 =
// vector_fp32 (MI300X 163, MI325X 194). There is no vector fp8/int8/fp4 ceiling.
constexpr SpecPeaks kSpecs[] = {
    {"matrix_fp64", PeakKey::kFp64Matrix, PeakKey::kFp64Vector},
    {"matrix_fp32", PeakKey::kFp32Matrix, PeakKey::kFp32Vector},
    {"matrix_tf32", PeakKey::kTf32, std::nullopt},
    {"matrix_fp16", PeakKey::kFp16, std::nullopt},
    {"matrix_bf16", PeakKey::kBf16, std::nullopt},
    {"matrix_fp8", PeakKey::kFp8, std::nullopt},
    {"matrix_fp6", PeakKey::kFp6, std::nullopt},
    {"matrix_fp4", PeakKey::kFp4, std::nullopt},
    {"matrix_int8", PeakKey::kInt8, std::nullopt},
    {"vector_fp64", PeakKey::kFp64Vector, std::nullopt},
    {"vector_fp32", PeakKey::kFp32Vector, std::nullopt},
    {"vector_fp16", PeakKey::kFp32Vector, std::nullopt},
    {"vector_bf16", PeakKey::kFp32Vector, std::nullopt},
};

// The spec's dense peak key on this device and its per-device figure: `first`, else
// the fallback where the device has no `first` figure.
std::optional<std::pair<PeakKey, double>> dense_peak(const DeviceSpec& device, const SpecPeaks& s) {
  if (auto peak = device.device_dense_tflops(s.first)) return std::pair{s.first, *peak};
  if (!s.fallback) return std::nullopt;
  if (auto peak = device.device_dense_tflops(*s.fallback)) return std::pair{*s.fallback, *peak};
  return std::nullopt;
}

}  // namespace

std::string_view roofline_bound_name(RooflineBound b) {
  switch (b) {
    case RooflineBound::kComputeBound: return "COMPUTE_BOUND";
    case RooflineBound::kMemoryBound: return "MEMORY_BOUND";
    case RooflineBound::kNone: break;
  }
  return "";
}

std::optional<ComputeCeiling> compute_ceiling(const DeviceSpec& device, std::string_view compute_spec,
                                              RooflineCeiling kind) {
  if (kind == RooflineCeiling::kTraceLensMaf) {
    for (const auto& [spec, tflops] : device.tracelens_maf_tflops)
      if (spec == compute_spec) return ComputeCeiling{tflops, "TraceLens MAF " + spec};
    return std::nullopt;
  }
  for (const SpecPeaks& s : kSpecs) {
    if (s.spec != compute_spec) continue;
    const auto found = dense_peak(device, s);
    if (!found) return std::nullopt;
    const auto [key, peak] = *found;
    std::string source = std::string(peak_key_name(key)) + " dense";
    const std::string_view spec_dtype = compute_spec.substr(compute_spec.find('_') + 1);
    if (key != s.first || peak_key_name(key) != spec_dtype)
      source += " (for " + std::string(compute_spec) + ")";
    // Another unit's peak: a fallback, or a key of another dtype (fp32_vector for vector_bf16).
    const std::string_view key_name = peak_key_name(key);
    const bool substitute = key != s.first || key_name.substr(0, key_name.find('_')) != spec_dtype;
    if (device.devices_per_package > 1)
      source += " / " + std::to_string(device.devices_per_package) + " devices per package";
    return ComputeCeiling{peak, std::move(source), substitute};
  }
  return std::nullopt;
}

std::vector<SpecCeiling> dense_spec_ceilings(const DeviceSpec& device) {
  std::vector<SpecCeiling> out;
  for (const SpecPeaks& s : kSpecs)
    if (const auto found = dense_peak(device, s); found && found->second > 0)
      out.push_back({s.spec, found->first, found->second});
  return out;
}

std::optional<double> memory_ceiling_tbps(const DeviceSpec& device, RooflineCeiling kind) {
  if (kind == RooflineCeiling::kTraceLensMaf) {
    if (device.tracelens_mem_bw_gbps) return *device.tracelens_mem_bw_gbps / 1e3;
    return std::nullopt;
  }
  return device.device_mem_bw_tbps();
}

std::optional<double> beyond_l2_memory_us(double bytes, const DeviceSpec& device, double factor) {
  const auto l2_bytes = device.device_l2_bytes();
  const auto dram = device.device_mem_bw_tbps();
  if (!l2_bytes || !dram || !(*dram > 0)) return std::nullopt;
  return std::max(0.0, bytes - *l2_bytes) / (*dram * factor * 1e12) * 1e6;
}

std::optional<double> on_chip_memory_us(double bytes, const DeviceSpec& device, double factor) {
  const auto l2_bw = device.device_l2_bw_tbps();
  const auto dram_part = beyond_l2_memory_us(bytes, device, factor);
  if (!l2_bw || !(*l2_bw > 0) || !dram_part) return std::nullopt;
  return std::max(bytes / (*l2_bw * factor * 1e12) * 1e6, *dram_part);
}

RooflineMetrics roofline_metrics(const RooflineInput& in, const DeviceSpec* device,
                                 RooflineCeiling kind) {
  RooflineMetrics m;
  const double T = in.kernel_time_us;
  m.gflops = in.gflops;
  m.tflops_per_s = T == 0 ? kNaN : (in.gflops / 1e3) / (T / 1e6);
  if (in.bytes) {
    const double bytes = *in.bytes;
    m.data_moved_mb = bytes / (1024.0 * 1024.0);
    m.flops_per_byte = bytes == 0 ? kNaN : (in.gflops * 1e9) / bytes;
    m.tb_per_s = T == 0 ? kNaN : (bytes / 1e12) / (T / 1e6);
  } else {
    m.data_moved_mb = m.flops_per_byte = m.tb_per_s = kNaN;
  }
  if (!device || !(in.gflops > 0) || !in.bytes || std::isnan(*in.bytes)) return m;
  const auto peak = compute_ceiling(*device, in.compute_spec, kind);
  const auto bw = memory_ceiling_tbps(*device, kind);
  if (!peak || !bw || !(peak->tflops > 0) || !(*bw > 0)) return m;
  m.has_roofline = true;
  m.peak_tflops = peak->tflops;
  m.mem_bw_tbps = *bw;
  m.ceiling = peak->source;
  m.ridge_flops_per_byte = (peak->tflops * 1e12) / (*bw * 1e12);
  // §6.1: compute_us = (GFLOPS * 1e9 / (MAF_TFLOPS * 1e12)) * 1e6;
  //       memory_us  = (bytes / (mem_bw_gbps * 1e9)) * 1e6, here with bw in TB/s.
  m.compute_us = (in.gflops * 1e9 / (peak->tflops * 1e12)) * 1e6;
  m.memory_us = (*in.bytes / (*bw * 1e12)) * 1e6;
  m.roofline_time_us = std::max(m.compute_us, m.memory_us);
  m.bound = m.compute_us >= m.memory_us ? RooflineBound::kComputeBound : RooflineBound::kMemoryBound;
  m.pct_roofline = T == 0 ? kNaN : m.roofline_time_us / T * 100;
  return m;
}

}  // namespace sollens
