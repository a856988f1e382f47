#pragma once
// Algorithm and bus bandwidth of a collective, by the definitions of NCCL's
// benchmarks (NVIDIA/nccl-tests doc/PERFORMANCE.md, and alltoall.cu for all-to-all):
//   algo bw = S / t, with S the full message: the gathered output for all-gather,
//             the input otherwise (as TraceLens's multi-rank report, §8.3);
//   bus bw  = algo bw · f(n), n = ranks in the group:
//             all-reduce 2(n-1)/n; reduce-scatter, all-gather, all-to-all (n-1)/n;
//             broadcast, reduce, send/recv 1.
#include <cstdint>
#include <optional>
#include <string_view>

namespace sollens::collectives {

enum class CollectiveKind : uint8_t {
  kUnknown,
  kAllReduce,
  kReduceScatter,
  kAllGather,
  kAllToAll,
  kBroadcast,
  kReduce,
  kSendRecv,
};

// The kind of a `Collective name` as PyTorch's record_param_comms writes it
// (`allreduce`, `_allgather_base`, `reduce_scatter_tensor_coalesced`, `all_to_allv`, ...).
CollectiveKind collective_kind(std::string_view collective_name);

// f(n) above; nullopt for an unknown kind or n < 1.
std::optional<double> bus_bandwidth_factor(CollectiveKind kind, int64_t group_size);

// The message that defines S: true when it is the output (all-gather).
inline bool full_message_is_output(CollectiveKind kind) { return kind == CollectiveKind::kAllGather; }

// GB/s (GiB as TraceLens: MB / 1024) of `full_msg_mb` MiB moved in `dur_us` µs:
// (MB / 1024) / (µs / 1e6), TraceLens's `algo bw (GB/s)` formula. nullopt for dur <= 0.
std::optional<double> algo_bandwidth_gbps(double full_msg_mb, double dur_us);

}  // namespace sollens::collectives
