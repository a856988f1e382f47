#pragma once
// Ops measured faster than their speed of light, and why: the model counted the
// wrong bytes or FLOPs (`model`), their data was served from L2 (`on_chip`), neither,
// so the device data is too low (`device`), or nothing ran on the GPU under them
// (`no_gpu_kernel`: CPU tensors, such as AdamW's step counters).
#include <string_view>
#include <vector>

#include "analyses/solar/sol_model.h"
#include "analyses/solar/solar_graph.h"

namespace sollens::solar {

struct OpSol {
  double unfused_us = 0;    // Solar's per-op roofline: max(compute, unfused bytes / DRAM)
  double corrected_us = 0;  // corrected bytes, at L2 bandwidth where they fit on chip
};
OpSol op_sol(const SolarNode& n, const SolarHardware& hw);

struct FasterThanSol {
  std::vector<std::string_view> cause;  // per SolarNode; "" when not faster or not measured
  size_t faster = 0;                    // measured < Solar's per-op unfused SOL
  size_t model = 0, on_chip = 0, device = 0, no_gpu_kernel = 0;
  double excess_us = 0;                 // Σ (SOL − measured) over those ops
  size_t faster_than_corrected = 0;     // 0 < measured < the corrected SOL
};
// measured_us: per SolarNode, negative when not linked.
FasterThanSol explain_faster_ops(const SolarGraph& g, const SolarHardware& hw,
                                 const std::vector<double>& measured_us);

}  // namespace sollens::solar
