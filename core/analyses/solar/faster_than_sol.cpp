#include "analyses/solar/faster_than_sol.h"

#include <algorithm>

namespace sollens::solar {
namespace {

double microseconds(double cycles, const SolarHardware& hw) { return cycles * 1e-3 / hw.freq_ghz; }

std::string_view cause_of(const SolarNode& n, const SolarHardware& hw, double measured_us) {
  if (measured_us <= 0) return "no_gpu_kernel";
  const double corrected_from_dram = microseconds(
      std::max(op_compute_cycles(n, hw), n.corrected_unfused_bytes / hw.dram_bytes_per_cycle), hw);
  if (n.corrected_unfused_bytes < n.unfused_bytes && corrected_from_dram <= measured_us) return "model";
  const bool l2_bandwidth_known = hw.l2_bytes_per_cycle > 0;
  if (l2_bandwidth_known ? microseconds(corrected_op_cycles(n, hw), hw) <= measured_us
                         : hw.l2_bytes > 0)
    return "on_chip";
  return "device";
}

}  // namespace

OpSol op_sol(const SolarNode& n, const SolarHardware& hw) {
  OpSol s;
  s.unfused_us = microseconds(
      std::max(op_compute_cycles(n, hw), n.unfused_bytes / hw.dram_bytes_per_cycle), hw);
  s.corrected_us = microseconds(corrected_op_cycles(n, hw), hw);
  return s;
}

FasterThanSol explain_faster_ops(const SolarGraph& g, const SolarHardware& hw,
                                 const std::vector<double>& measured_us) {
  FasterThanSol f;
  f.cause.assign(g.nodes.size(), "");
  for (size_t i = 0; i < g.nodes.size() && i < measured_us.size(); ++i) {
    const double measured = measured_us[i];
    if (measured < 0) continue;
    const OpSol sol = op_sol(g.nodes[i], hw);
    if (measured > 0 && measured < sol.corrected_us) ++f.faster_than_corrected;
    if (measured >= sol.unfused_us) continue;
    ++f.faster;
    f.excess_us += sol.unfused_us - measured;
    const std::string_view cause = cause_of(g.nodes[i], hw, measured);
    f.cause[i] = cause;
    if (cause == "model") ++f.model;
    else if (cause == "on_chip") ++f.on_chip;
    else if (cause == "no_gpu_kernel") ++f.no_gpu_kernel;
    else ++f.device;
  }
  return f;
}

}  // namespace sollens::solar
