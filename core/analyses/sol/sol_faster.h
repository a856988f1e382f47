#pragma once
// Ops that ran faster than their DRAM roofline, and why (README "Faster than the
// estimate"). A speed of light cannot be beaten, so such an op has one of three causes:
// the L2 held part of its traffic (on_chip: the estimate becomes the on-chip bound of
// roofline.h, which the op no longer beats), the device data has no peak for the unit
// it ran on (device), or the perf model counts more work than the op does (model).
#include "devices/device_db.h"
#include "analyses/sol/sol_ops.h"

namespace sollens {

// Sets op.faster_cause (and, for on_chip with a sourced L2 bandwidth, the on-chip
// estimate) when the op was measured faster than its estimate; `factor` as SolOptions.
void explain_faster_than_estimate(SolOp& op, const DeviceSpec& device, double factor);

}  // namespace sollens
