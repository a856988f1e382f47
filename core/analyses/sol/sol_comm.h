#pragma once
// Communication ops: every collective kernel (NCCL / RCCL) is an op of its own, whose
// estimate is the time its bytes need on the device's scale-up link, by NCCL's
// bus-bandwidth model (analyses/collectives/bus_bandwidth.h):
//   estimate = S · f(n) / (B · factor)
// S the full message in bytes (the gathered output for an all-gather, the input
// otherwise), f(n) the bus factor of the collective kind for a group of n ranks, B the
// per-direction bandwidth one GPU has to the others of its group (deviceDB
// scale_up_link: a switch gives the full rate to any group of its domain; a mesh gives
// min(n − 1, links) links). Collectives the trace or deviceDB cannot size are
// unmodeled ops, with the reason.
#include <cstdint>
#include <string>

#include "analyses/collectives/bus_bandwidth.h"
#include "devices/device_db.h"
#include "analyses/sol/sol_ops.h"
#include "model/trace_tree.h"
#include "store/event_store.h"

namespace sollens {

struct LinkRate {
  double gbps = 0;      // per direction, GB/s (10^9 B/s); 0 when unknown
  std::string why_not;  // when gbps == 0
};
// B for a group of `group_size` GPUs on `device`.
LinkRate group_link_rate(const DeviceSpec& device, int64_t group_size);

// S · f(n) / (B · factor), as a RooflineEstimate with bound kCommunication.
RooflineEstimate communication_estimate(collectives::CollectiveKind kind, int64_t group_size, double message_bytes,
                                        const DeviceSpec& device, double factor);

// Appends one op per collective kernel that no kernel launcher claimed (collective
// kernels are not launcher kernels), with its estimate or why it has none, and marks
// op_of_gpu_event for it. Context (layer, phase) comes from its launching op.
void add_communication_ops(const EventStore& store, const TraceTree& tree, const DeviceSpec* device,
                           const SolOptions& options, SolOps& out);

}  // namespace sollens
