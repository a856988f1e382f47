#pragma once
// The ops speed of light is computed for, each with its roofline estimate and its
// measured GPU time. An op is a kernel launcher (analyses/ops/kernel_launchers.h)
// grouped under its innermost modeled op: aten::_flash_attention_forward's kernels
// count for the aten::_scaled_dot_product_flash_attention above it, an aten::mm
// launcher is its own op. Launchers with no modeled op above them are unmodeled ops:
// counted apart, never given a zero estimate. Collective kernels are ops of their own
// (sol_comm.h).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyses/ops/kernel_launchers.h"
#include "analyses/perf/modeled_ops.h"
#include "devices/device_db.h"
#include "model/trace_tree.h"
#include "store/event_store.h"

namespace sollens {

struct CaptureTrace;  // sol_graph_ops.h

struct SolOptions {
  // Multiplies every peak and bandwidth, links too (the Megatron tracker's fixed 0.8; 1.0 here:
  // the estimate is the plain dense roofline).
  double efficiency_factor = 1.0;
  // The trace in which the graphs this trace replays were captured, when one is given:
  // their kernels count for the ops captured there (sol_graph_ops.h).
  const CaptureTrace* capture = nullptr;
};

enum class SolBound : uint8_t { kNone, kCompute, kMemory, kCommunication };
const char* sol_bound_name(SolBound b);  // "compute" / "memory" / "communication" / ""

struct RooflineEstimate {
  bool ok = false;
  std::string why_not;  // when !ok
  double compute_us = 0, memory_us = 0, communication_us = 0, estimate_us = 0;
  double peak_tflops = 0, bandwidth_tbps = 0, link_gbps = 0;  // after the efficiency factor
  SolBound bound = SolBound::kNone;
  bool peak_substitute = false;  // the Compute Spec's peak is another unit's (roofline.h)
  // memory_us is the on-chip bound (roofline.h on_chip_memory_us), not DRAM's: the op ran
  // faster than DRAM allows and the L2 explains it; dram_memory_us keeps the DRAM time.
  bool on_chip = false;
  double dram_memory_us = 0;
};

// Why an op ran faster than its DRAM roofline (sol_faster.h).
enum class FasterCause : uint8_t {
  kNone,
  kOnChip,  // the L2 held part of its traffic; its estimate is the on-chip bound
  kModel,   // the perf model counts more FLOPs or bytes than the op does
  kDevice,  // deviceDB has no peak for the unit it ran on (a substitute peak was used)
};
const char* faster_cause_name(FasterCause c);  // "on_chip" / "model" / "device" / ""

// max(flops / peak, bytes / bandwidth) with the dense peak of `compute_spec`, both
// ceilings times `factor`. An op with flops > 0 needs a peak for its Compute Spec; an
// op needs a byte count; an op with neither flops nor bytes has no estimate.
RooflineEstimate roofline_estimate(double flops, const std::optional<double>& bytes,
                                   std::string_view compute_spec, const DeviceSpec& device, double factor);

struct SolOp {
  uint32_t event = 0;              // the modeled op, or the launcher when unmodeled
  std::vector<uint32_t> kernels;   // its GPU events, by ts
  double measured_us = 0;          // union of the kernels' intervals
  bool estimated = false;
  std::string no_estimate;         // why not, when !estimated ("no perf model", ...)
  std::string compute_spec;        // "matrix_bf16", ... from the op's own inputs
  double flops = 0;
  double bytes = 0;                // DRAM bytes; a collective: bytes each GPU sends, S · f(n)
  bool communication = false;      // a collective kernel (sol_comm.h)
  RooflineEstimate roofline;
  // Measured faster than its estimate (the on-chip bound where the L2 explains it):
  // faster_cause says why (model or device).
  bool faster_than_estimate() const { return estimated && measured_us < roofline.estimate_us; }
  std::string function;            // the op name, e.g. "aten::mm"
  std::string category;            // op category of the launcher
  // Where it ran.
  bool in_module = false;
  std::string layer_type, layer_instance, phase;
  // "forward", "backward", "optimizer" or "other" (sol_pass.h); a backward op's module is
  // that of its forward op, forward_event (-1: none found).
  std::string pass;
  int32_t forward_event = -1;
  std::string note;  // what the estimate assumed, in words (e.g. a causal mask halving the MACs)
  FasterCause faster_cause = FasterCause::kNone;  // set when it ran faster than its DRAM roofline
};

struct SolOps {
  std::vector<SolOp> ops;  // in launcher order (by launch time)
  // Per store row: index into ops of the op a GPU event counts for, or -1.
  std::vector<int32_t> op_of_gpu_event;
  size_t unattributed_kernels = 0;  // GPU events with no launcher (unlinked), not collectives
  double unattributed_us = 0;
  bool module_frames = false;   // layer types come from nn.Module frames
  std::vector<std::string> notes;  // what the tables cannot show, in words
};

// An op's estimate from the evaluation `eval_index` of `modeled` (-1: no perf model); a
// copy to or from the host is left without one. `store` holds op.kernels.
void estimate_sol_op(const EventStore& store, SolOp& op, const ModeledOps& modeled, int32_t eval_index,
                     const DeviceSpec* device, const SolOptions& options);

// device == nullptr: no op gets an estimate (the notes say why).
SolOps collect_sol_ops(const EventStore& store, const TraceTree& tree, const DeviceSpec* device,
                       const SolOptions& options = {});
// The same from the launchers and modeled ops a caller already has (the report): python
// frames change neither, so they may come from a tree without them, while `tree` (with
// python frames) gives the layer types.
SolOps collect_sol_ops(const EventStore& store, const TraceTree& tree, const LauncherTable& launchers,
                       const ModeledOps& modeled, const DeviceSpec* device, const SolOptions& options = {});

}  // namespace sollens
