#include "analyses/sol/sol_faster.h"

#include <algorithm>

#include "analyses/roofline/roofline.h"

namespace sollens {

namespace {

// The L2 explains a memory-bound op that beat DRAM when it is no faster than the
// on-chip bound. Without a sourced L2 bandwidth only the DRAM part of that bound is
// known: the cause is still on_chip, but the estimate stays DRAM's.
bool explained_on_chip(SolOp& op, const DeviceSpec& device, double factor) {
  RooflineEstimate& r = op.roofline;
  if (const auto on_chip_us = on_chip_memory_us(op.bytes, device, factor)) {
    if (op.measured_us < *on_chip_us) return false;
    r.on_chip = true;
    r.dram_memory_us = r.memory_us;
    r.memory_us = *on_chip_us;
    r.estimate_us = std::max(r.compute_us, r.memory_us);
    r.bound = op.flops > 0 && r.compute_us >= r.memory_us ? SolBound::kCompute : SolBound::kMemory;
    return true;
  }
  const auto beyond_l2_us = beyond_l2_memory_us(op.bytes, device, factor);
  return beyond_l2_us && op.measured_us >= *beyond_l2_us;
}

}  // namespace

const char* faster_cause_name(FasterCause c) {
  switch (c) {
    case FasterCause::kOnChip: return "on_chip";
    case FasterCause::kModel: return "model";
    case FasterCause::kDevice: return "device";
    case FasterCause::kNone: break;
  }
  return "";
}

void explain_faster_than_estimate(SolOp& op, const DeviceSpec& device, double factor) {
  if (!op.faster_than_estimate()) return;
  const RooflineEstimate& r = op.roofline;
  if (op.communication) {
    // The bus-bandwidth formula of a ring; an in-switch reduction sends less.
    op.faster_cause = FasterCause::kModel;
  } else if (op.measured_us < r.compute_us) {
    op.faster_cause = r.peak_substitute ? FasterCause::kDevice : FasterCause::kModel;
  } else {
    op.faster_cause = explained_on_chip(op, device, factor) ? FasterCause::kOnChip : FasterCause::kModel;
  }
}

}  // namespace sollens
