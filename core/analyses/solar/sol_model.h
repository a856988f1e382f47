#pragma once
// The three speed-of-light times (unfused, fused, fused+prefetched) of a Solar
// graph, twice: as Solar's code computes them at HEAD (one whole-graph roofline each,
// fused = fused+prefetched = deduplicated external I/O, tensor-core compute only) and
// as SOL_GUIDE §6 intends (per-op roofline sums for unfused and fused, whole graph for
// fused+prefetched, compute = max(tensor-core, CUDA-core)). Formulas: README.md here.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "devices/device_db.h"
#include "analyses/solar/solar_graph.h"

namespace sollens::solar {

// A GPU in Solar's units, from deviceDB's dense peaks: true MACs (not FLOPs) per
// cycle at the boost clock.
struct SolarHardware {
  std::string name;
  double freq_ghz = 0;
  double dram_bytes_per_cycle = 0;
  double mac_per_cycle_fp64 = 0, mac_per_cycle_fp32 = 0, mac_per_cycle_fp16 = 0,
         mac_per_cycle_bf16 = 0, mac_per_cycle_fp8 = 0;
  double mac_per_cycle_sm = 0;  // CUDA-core fp32: one op per element per lane
  double l2_bytes = 0;             // on-chip (L2) capacity; 0 when deviceDB has none
  double l2_bytes_per_cycle = 0;   // sourced L2 bandwidth; 0 when unknown
  // Tensor-core MACs per cycle for an element type ("float", "c10::Half", ...).
  double mac_per_cycle_for(std::string_view dtype) const;
};
// nullopt when the device lacks a clock, a bandwidth or an fp32 peak.
std::optional<SolarHardware> solar_hardware(const DeviceSpec& device);

struct Totals {
  size_t nodes = 0;
  double macs = 0, other_ops = 0;
  double unfused_elements = 0, unfused_bytes = 0;
  double model_io_elements = 0, model_io_bytes = 0;  // Σ per node (SOL_GUIDE's fused)
  double intermediate_elements = 0, intermediate_bytes = 0;
  double weight_elements = 0, weight_bytes = 0;
  double state_elements = 0, state_bytes = 0;
  double corrected_unfused_bytes = 0;
  double compute_tc_cycles = 0, compute_sm_cycles = 0;
  // SOL_GUIDE §6 per-op sums.
  double per_op_unfused_cycles = 0, per_op_fused_cycles = 0, per_op_compute_cycles = 0;
};
Totals sum_nodes(const std::vector<const SolarNode*>& nodes, const SolarHardware* hw);

// One op's compute cycles: max(tensor-core, CUDA-core).
double op_compute_cycles(const SolarNode& n, const SolarHardware& hw);
// Our corrected per-op bound: corrected bytes, up to L2's capacity of them served at
// L2 bandwidth where deviceDB gives one (all of them when they fit), the rest from DRAM.
bool fits_on_chip(double bytes, const SolarHardware& hw);
double corrected_op_cycles(const SolarNode& n, const SolarHardware& hw);

// The weights read once per pass that uses them, unless they all fit on chip.
struct WeightTraffic {
  std::string rule;
  double passes = 0;                    // the most passes any weight is read in (1 on chip)
  double elements_read = 0, bytes_read = 0;
  bool on_chip = false;
};
WeightTraffic weight_traffic(const SolarGraph& g, const SolarHardware* hw);

struct PerfVariant {
  double memory_elements = 0, memory_bytes = 0;
  double compute_cycles = 0, memory_cycles = 0, total_cycles = 0;
  double runtime_ms = 0;
  double arithmetic_intensity = 0;  // MACs per byte, as Solar
  std::string bottleneck;           // "compute" | "memory"
};

struct SolModel {
  PerfVariant unfused, fused, fused_prefetched;
};

// Solar HEAD: max(Σ tensor-core compute, bytes / bandwidth) for each variant.
SolModel head_model(const Totals& t, double fused_elements, double fused_bytes,
                    const SolarHardware& hw);
// SOL_GUIDE §6: per-op sums for unfused and fused, whole graph for fused+prefetched.
SolModel design_intent_model(const Totals& t, const SolarHardware& hw);

}  // namespace sollens::solar
