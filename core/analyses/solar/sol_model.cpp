#include "analyses/solar/sol_model.h"

#include <algorithm>
#include <cstdio>

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

double tensor_core_cycles(const SolarNode& n, const SolarHardware& hw) {
  return n.cost.macs / hw.mac_per_cycle_for(n.cost.mac_dtype);
}

double cuda_core_cycles(const SolarNode& n, const SolarHardware& hw) {
  return hw.mac_per_cycle_sm > 0 ? n.cost.other_ops / hw.mac_per_cycle_sm : 0;
}

std::string megabytes(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MB", bytes / 1e6);
  return buf;
}

}  // namespace

double op_compute_cycles(const SolarNode& n, const SolarHardware& hw) {
  return std::max(tensor_core_cycles(n, hw), cuda_core_cycles(n, hw));
}

bool fits_on_chip(double bytes, const SolarHardware& hw) {
  return hw.l2_bytes > 0 && bytes <= hw.l2_bytes;
}

double corrected_op_cycles(const SolarNode& n, const SolarHardware& hw) {
  const double bytes = n.corrected_unfused_bytes;
  double memory = bytes / hw.dram_bytes_per_cycle;
  if (hw.l2_bytes > 0 && hw.l2_bytes_per_cycle > 0) {
    // Up to L2's capacity of the traffic may be served on chip (data the previous ops
    // just wrote, writes held in L2); the rest comes from DRAM. A lower bound.
    const double from_dram = std::max(0.0, bytes - hw.l2_bytes);
    memory = std::max(from_dram / hw.dram_bytes_per_cycle, bytes / hw.l2_bytes_per_cycle);
  }
  return std::max(op_compute_cycles(n, hw), memory);
}

WeightTraffic weight_traffic(const SolarGraph& g, const SolarHardware* hw) {
  WeightTraffic w;
  w.passes = static_cast<double>(g.weight_passes);
  w.elements_read = g.weight_elements_read;
  w.bytes_read = g.weight_bytes_read;
  w.rule =
      "weights are read from DRAM once per pass that uses them; a weight read again after "
      "other ops ran or other weights were read starts a new pass for it (the next forward, "
      "the backward, the optimizer step)";
  if (hw && g.weight_bytes_once > 0 && fits_on_chip(g.weight_bytes_once, *hw)) {
    w.on_chip = true;
    w.passes = std::min(w.passes, 1.0);
    w.elements_read = g.weight_elements_once;
    w.bytes_read = g.weight_bytes_once;
    w.rule += "; here all weights (" + megabytes(g.weight_bytes_once) + ") fit in L2 (" +
              megabytes(hw->l2_bytes) + "): read once";
  } else if (!hw || hw->l2_bytes <= 0) {
    w.rule += "; L2 size unknown: every pass reads them";
  }
  return w;
}

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
  hw.l2_bytes = device.device_l2_bytes().value_or(0);
  hw.l2_bytes_per_cycle = device.device_l2_bw_tbps().value_or(0) * 1e12 / (hw.freq_ghz * 1e9);
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
    t.state_elements += n->state_elements;
    t.state_bytes += n->state_bytes;
    t.corrected_unfused_bytes += n->corrected_unfused_bytes;
    if (!hw) continue;
    t.compute_tc_cycles += tensor_core_cycles(*n, *hw);
    t.compute_sm_cycles += cuda_core_cycles(*n, *hw);
    const double compute = op_compute_cycles(*n, *hw);
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
