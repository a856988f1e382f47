#pragma once
// What a trace's time is bound by, from where the GPU's wall time went. The rules, in
// order (the first that holds wins; README.md explains why each is physical):
//   no GPU work      the trace has no GPU time
//   launch-bound     GPU idle ≥ kIdleBoundPct % of the wall, and the host was late for
//                    most of the idle time (host wait + kernel wait ≥ half of it): faster
//                    kernels could save at most the busy part; launches are the lever
//   sync-bound       GPU idle ≥ kIdleBoundPct %, mostly with the next kernel queued but
//                    held back (waits on events, other streams, syncs)
//   communication-bound  exposed communication ≥ kCommBoundPct % of the GPU's busy time
//   compute-bound / memory-bound  the busy kernels' speed of light is mostly FLOP time /
//                    mostly byte time (Σ estimates of the ops by their roofline bound)
//   kernel-bound     the GPU is busy but no GPU model tells compute from memory
#include <string>
#include <string_view>

namespace sollens::verdict {

inline constexpr double kIdleBoundPct = 50;
inline constexpr double kCommBoundPct = 50;

enum class Bound : unsigned char { kNoGpuWork, kLaunch, kSync, kCommunication, kCompute, kMemory, kKernel };

// "launch-bound", "sync-bound", ... ("no GPU work" for kNoGpuWork).
std::string_view bound_name(Bound bound);
// The view that shows the evidence: "launch-delays", "critical-path", "collectives", "roofline", "kernels".
std::string_view bound_view(Bound bound);

struct BoundFacts {
  double wall_us = 0, busy_us = 0, idle_us = 0;               // the GPU timeline's total, busy, idle
  double host_wait_us = 0, kernel_wait_us = 0, other_wait_us = 0;  // the idle split (sol_wall.h)
  double exposed_comm_us = 0;
  double sol_compute_us = 0, sol_memory_us = 0;  // Σ estimates of compute- / memory-bound ops; 0, 0: no model
};

struct BoundVerdict {
  Bound bound = Bound::kNoGpuWork;
  double share_pct = 0;  // the share that decided it (idle, exposed comm, compute or memory share)
  std::string why;       // one sentence with the numbers
};

BoundVerdict bound_by(const BoundFacts& facts);

}  // namespace sollens::verdict
