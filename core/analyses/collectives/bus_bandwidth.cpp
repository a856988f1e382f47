#include "analyses/collectives/bus_bandwidth.h"

namespace sollens::collectives {

CollectiveKind collective_kind(std::string_view name) {
  struct Entry { std::string_view name; CollectiveKind kind; };
  // TraceLens's collective_type2name, plus the other names record_param_comms uses.
  static constexpr Entry kNames[] = {
      {"allreduce", CollectiveKind::kAllReduce},
      {"allreduce_coalesced", CollectiveKind::kAllReduce},
      {"all_reduce", CollectiveKind::kAllReduce},
      {"reducescatter", CollectiveKind::kReduceScatter},
      {"reduce_scatter", CollectiveKind::kReduceScatter},
      {"_reduce_scatter_base", CollectiveKind::kReduceScatter},
      {"reduce_scatter_tensor_coalesced", CollectiveKind::kReduceScatter},
      {"allgather", CollectiveKind::kAllGather},
      {"all_gather", CollectiveKind::kAllGather},
      {"_allgather_base", CollectiveKind::kAllGather},
      {"allgather_coalesced", CollectiveKind::kAllGather},
      {"all_gather_into_tensor_coalesced", CollectiveKind::kAllGather},
      {"allgather_into_tensor_coalesced", CollectiveKind::kAllGather},
      {"all_to_all", CollectiveKind::kAllToAll},
      {"all_to_allv", CollectiveKind::kAllToAll},
      {"alltoall", CollectiveKind::kAllToAll},
      {"alltoall_base", CollectiveKind::kAllToAll},
      {"broadcast", CollectiveKind::kBroadcast},
      {"_broadcast_oop", CollectiveKind::kBroadcast},
      {"reduce", CollectiveKind::kReduce},
      {"_reduce_oop", CollectiveKind::kReduce},
      {"send", CollectiveKind::kSendRecv},
      {"recv", CollectiveKind::kSendRecv},
  };
  for (const Entry& e : kNames)
    if (e.name == name) return e.kind;
  return CollectiveKind::kUnknown;
}

std::optional<double> bus_bandwidth_factor(CollectiveKind kind, int64_t n) {
  if (n < 1) return std::nullopt;
  const double ranks = static_cast<double>(n);
  switch (kind) {
    case CollectiveKind::kAllReduce: return 2 * (ranks - 1) / ranks;
    case CollectiveKind::kReduceScatter:
    case CollectiveKind::kAllGather:
    case CollectiveKind::kAllToAll: return (ranks - 1) / ranks;
    case CollectiveKind::kBroadcast:
    case CollectiveKind::kReduce:
    case CollectiveKind::kSendRecv: return 1.0;
    case CollectiveKind::kUnknown: return std::nullopt;
  }
  return std::nullopt;
}

std::optional<double> algo_bandwidth_gbps(double full_msg_mb, double dur_us) {
  if (!(dur_us > 0)) return std::nullopt;
  return (full_msg_mb / 1024) / (dur_us / 1e6);
}

}  // namespace sollens::collectives
