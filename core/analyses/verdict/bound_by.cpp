#include "analyses/verdict/bound_by.h"

#include "analyses/verdict/verdict_format.h"

namespace sollens::verdict {

namespace {

double share_pct(double part, double whole) { return whole > 0 ? 100 * part / whole : 0; }

std::string ms(double us) { return fmt_num(us / 1e3) + " ms"; }

BoundVerdict idle_bound(const BoundFacts& f) {
  const double idle_pct = share_pct(f.idle_us, f.wall_us);
  const double split = f.host_wait_us + f.kernel_wait_us + f.other_wait_us;
  const double late = f.host_wait_us + f.kernel_wait_us;
  const std::string parts = " (host wait " + ms(f.host_wait_us) + ", kernel wait " + ms(f.kernel_wait_us) +
                            ", other " + ms(f.other_wait_us) + ")";
  if (late >= split / 2)
    return {Bound::kLaunch, idle_pct,
            "the GPU is idle " + fmt_pct(idle_pct) + " % of the wall, and for " + fmt_pct(share_pct(late, split)) +
                " % of that idle time the next kernel had not been launched yet" + parts +
                ": the host launches too slowly, so faster kernels cannot help"};
  return {Bound::kSync, idle_pct,
          "the GPU is idle " + fmt_pct(idle_pct) + " % of the wall, for " + fmt_pct(share_pct(f.other_wait_us, split)) +
              " % of that time with the next kernel launched but held back (syncs, events, other streams)" + parts};
}

BoundVerdict busy_bound(const BoundFacts& f) {
  const double sol = f.sol_compute_us + f.sol_memory_us;
  if (sol <= 0)
    return {Bound::kKernel, share_pct(f.busy_us, f.wall_us),
            "the GPU is busy " + fmt_pct(share_pct(f.busy_us, f.wall_us)) +
                " % of the wall; without the GPU's peaks compute cannot be told from memory (choose a device)"};
  const bool compute = f.sol_compute_us > f.sol_memory_us;
  const double share = share_pct(compute ? f.sol_compute_us : f.sol_memory_us, sol);
  return {compute ? Bound::kCompute : Bound::kMemory, share,
          "the GPU is busy " + fmt_pct(share_pct(f.busy_us, f.wall_us)) + " % of the wall, and " + fmt_pct(share) +
              " % of its kernels' speed of light is " + (compute ? "FLOP time (compute roof)" : "byte time (memory roof)")};
}

}  // namespace

std::string_view bound_name(Bound bound) {
  switch (bound) {
    case Bound::kNoGpuWork: return "no GPU work";
    case Bound::kLaunch: return "launch-bound";
    case Bound::kSync: return "sync-bound";
    case Bound::kCommunication: return "communication-bound";
    case Bound::kCompute: return "compute-bound";
    case Bound::kMemory: return "memory-bound";
    case Bound::kKernel: return "kernel-bound";
  }
  return "";
}

std::string_view bound_view(Bound bound) {
  switch (bound) {
    case Bound::kLaunch: return "launch-delays";
    case Bound::kSync: return "critical-path";
    case Bound::kCommunication: return "collectives";
    case Bound::kCompute:
    case Bound::kMemory: return "roofline";
    case Bound::kKernel: return "kernels";
    case Bound::kNoGpuWork: return "";
  }
  return "";
}

BoundVerdict bound_by(const BoundFacts& f) {
  if (f.wall_us <= 0 || f.busy_us <= 0) return {Bound::kNoGpuWork, 0, "the trace has no GPU time"};
  if (share_pct(f.idle_us, f.wall_us) >= kIdleBoundPct) return idle_bound(f);
  const double comm_pct = share_pct(f.exposed_comm_us, f.busy_us);
  if (comm_pct >= kCommBoundPct)
    return {Bound::kCommunication, comm_pct,
            "communication not hidden behind compute is " + fmt_pct(comm_pct) + " % of the GPU's busy time (" +
                ms(f.exposed_comm_us) + " of " + ms(f.busy_us) + ")"};
  return busy_bound(f);
}

}  // namespace sollens::verdict
