#include "analyses/solar/sol_model.h"

#include <algorithm>

namespace sollens::solar {
namespace {

// TFLOPS at `freq_ghz` → MACs per cycle (one MAC is two FLOPs).
double mac_per_cycle(std::optional<double> tflops, double freq_ghz) {
  return tflops ? *tflops * 1e12 / 2 / (freq_ghz * 1e9) : 0;
}

PerfVariant variant(double compute_cycles, double macs, double elements, double bytes,
                    double total_cycles, const SolarHardware& hw) {
  PerfVariant v;
  v.memory_elements = elements;
  v.memory_bytes = bytes;
  v.compute_cycles = compute_cycles;
  v.memory_cycles = bytes / hw.dram_bytes_per_cycle;
  v.total_cycles = total_cycles;
  v.runtime_ms = total_cycles / (hw.freq_ghz * 1e6);
  v.arithmetic_intensity = bytes > 0 ? macs / bytes : 0;
  v.bottleneck = v.compute_cycles >= v.memory_cycles ? "compute" : "memory";
  return v;
}

PerfVariant whole_graph(double compute_cycles, double macs, double elements, double bytes,
                        const SolarHardware& hw) {
  const double memory_cycles = bytes / hw.dram_bytes_per_cycle;
  return variant(compute_cycles, macs, elements, bytes, std::max(compute_cycles, memory_cycles),
                 hw);
}

}  // namespace

double SolarHardware::mac_per_cycle_for(std::string_view dtype) const {
  double peak = 0;
  if (dtype == "c10::Half" || dtype == "Half" || dtype == "half") peak = mac_per_cycle_fp16;
  else if (dtype == "c10::BFloat16" || dtype == "BFloat16") peak = mac_per_cycle_bf16;
  else if (dtype.find("Float8") != std::string_view::npos) peak = mac_per_cycle_fp8;
  else if (dtype == "double") peak = mac_per_cycle_fp64;
  return peak > 0 ? peak : mac_per_cycle_fp32;
}

std::optional<SolarHardware> solar_hardware(const DeviceSpec& device) {
  if (!device.boost_clock_mhz || !device.device_mem_bw_tbps()) return std::nullopt;
  SolarHardware hw;
  hw.name = device.id;
  hw.freq_ghz = *device.boost_clock_mhz / 1000.0;
  hw.dram_bytes_per_cycle = *device.device_mem_bw_tbps() * 1e12 / (hw.freq_ghz * 1e9);
  const auto peak = [&](PeakKey k) { return mac_per_cycle(device.device_dense_tflops(k), hw.freq_ghz); };
  hw.mac_per_cycle_sm = peak(PeakKey::kFp32Vector);
  // fp32 GEMMs without TF32 (PyTorch's default for matmul) run at the fp32 matrix rate,
  // which deviceDB leaves blank where it equals the vector rate.
  hw.mac_per_cycle_fp32 = std::max(peak(PeakKey::kFp32Matrix), hw.mac_per_cycle_sm);
  hw.mac_per_cycle_fp64 = std::max(peak(PeakKey::kFp64Matrix), peak(PeakKey::kFp64Vector));
  hw.mac_per_cycle_fp16 = peak(PeakKey::kFp16);
  hw.mac_per_cycle_bf16 = peak(PeakKey::kBf16);
  hw.mac_per_cycle_fp8 = peak(PeakKey::kFp8);
  if (hw.mac_per_cycle_fp32 <= 0 || hw.dram_bytes_per_cycle <= 0) return std::nullopt;
  return hw;
}

Totals sum_nodes(const std::vector<const SolarNode*>& nodes, const SolarHardware* hw) {
  Totals t;
  for (const SolarNode* n : nodes) {
    ++t.nodes;
    t.macs += n->cost.macs;
    t.other_ops += n->cost.other_ops;
    t.unfused_elements += n->unfused_elements;
    t.unfused_bytes += n->unfused_bytes;
    t.model_io_elements += n->model_io_elements;
    t.model_io_bytes += n->model_io_bytes;
    t.intermediate_elements += n->intermediate_elements;
    t.intermediate_bytes += n->intermediate_bytes;
    t.weight_elements += n->weight_elements;
    t.weight_bytes += n->weight_bytes;
    if (!hw) continue;
    const double tc = n->cost.macs / hw->mac_per_cycle_for(n->cost.mac_dtype);
    const double sm = hw->mac_per_cycle_sm > 0 ? n->cost.other_ops / hw->mac_per_cycle_sm : 0;
    t.compute_tc_cycles += tc;
    t.compute_sm_cycles += sm;
    const double compute = std::max(tc, sm);
    t.per_op_compute_cycles += compute;
    t.per_op_unfused_cycles += std::max(compute, n->unfused_bytes / hw->dram_bytes_per_cycle);
    t.per_op_fused_cycles += std::max(compute, n->model_io_bytes / hw->dram_bytes_per_cycle);
  }
  return t;
}

SolModel head_model(const Totals& t, double fused_elements, double fused_bytes,
                    const SolarHardware& hw) {
  SolModel m;
  m.unfused = whole_graph(t.compute_tc_cycles, t.macs, t.unfused_elements, t.unfused_bytes, hw);
  m.fused = whole_graph(t.compute_tc_cycles, t.macs, fused_elements, fused_bytes, hw);
  m.fused_prefetched = m.fused;
  return m;
}

SolModel design_intent_model(const Totals& t, const SolarHardware& hw) {
  SolModel m;
  m.unfused = variant(t.per_op_compute_cycles, t.macs, t.unfused_elements, t.unfused_bytes,
                      t.per_op_unfused_cycles, hw);
  m.fused = variant(t.per_op_compute_cycles, t.macs, t.model_io_elements, t.model_io_bytes,
                    t.per_op_fused_cycles, hw);
  m.fused_prefetched =
      whole_graph(t.per_op_compute_cycles, t.macs, t.model_io_elements, t.model_io_bytes, hw);
  return m;
}

}  // namespace sollens::solar
