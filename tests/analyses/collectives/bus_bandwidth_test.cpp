// NCCL's bus-bandwidth factors (nccl-tests doc/PERFORMANCE.md) and the collective
// names PyTorch's record_param_comms writes.
#include <catch2/catch.hpp>

#include "analyses/collectives/bus_bandwidth.h"

using namespace sollens::collectives;

TEST_CASE("collective names map to NCCL's collective kinds", "[collectives]") {
  CHECK(collective_kind("allreduce") == CollectiveKind::kAllReduce);
  CHECK(collective_kind("allreduce_coalesced") == CollectiveKind::kAllReduce);
  CHECK(collective_kind("_allgather_base") == CollectiveKind::kAllGather);
  CHECK(collective_kind("all_gather_into_tensor_coalesced") == CollectiveKind::kAllGather);
  CHECK(collective_kind("_reduce_scatter_base") == CollectiveKind::kReduceScatter);
  CHECK(collective_kind("reduce_scatter_tensor_coalesced") == CollectiveKind::kReduceScatter);
  CHECK(collective_kind("all_to_all") == CollectiveKind::kAllToAll);
  CHECK(collective_kind("all_to_allv") == CollectiveKind::kAllToAll);
  CHECK(collective_kind("broadcast") == CollectiveKind::kBroadcast);
  CHECK(collective_kind("barrier") == CollectiveKind::kUnknown);
  CHECK(collective_kind("AllReduce") == CollectiveKind::kUnknown);  // names are exact
}

TEST_CASE("bus bandwidth factors", "[collectives]") {
  // 8 ranks: all-reduce 2·7/8 = 1.75; reduce-scatter, all-gather, all-to-all 7/8.
  CHECK(*bus_bandwidth_factor(CollectiveKind::kAllReduce, 8) == 1.75);
  CHECK(*bus_bandwidth_factor(CollectiveKind::kReduceScatter, 8) == 0.875);
  CHECK(*bus_bandwidth_factor(CollectiveKind::kAllGather, 8) == 0.875);
  CHECK(*bus_bandwidth_factor(CollectiveKind::kAllToAll, 8) == 0.875);
  CHECK(*bus_bandwidth_factor(CollectiveKind::kBroadcast, 8) == 1.0);
  CHECK(*bus_bandwidth_factor(CollectiveKind::kReduce, 8) == 1.0);
  CHECK(*bus_bandwidth_factor(CollectiveKind::kSendRecv, 2) == 1.0);
  CHECK(*bus_bandwidth_factor(CollectiveKind::kAllReduce, 1) == 0.0);  // nothing crosses a bus
  CHECK_FALSE(bus_bandwidth_factor(CollectiveKind::kUnknown, 8));
  CHECK_FALSE(bus_bandwidth_factor(CollectiveKind::kAllReduce, 0));
}

TEST_CASE("algorithm bandwidth is TraceLens's MB/1024 per second", "[collectives]") {
  // 1024 MiB in 1 s: 1 "GB"/s; 512 MiB in 250 ms: 2.
  CHECK(*algo_bandwidth_gbps(1024, 1e6) == 1.0);
  CHECK(*algo_bandwidth_gbps(512, 250e3) == 2.0);
  CHECK_FALSE(algo_bandwidth_gbps(512, 0));
  CHECK(full_message_is_output(CollectiveKind::kAllGather));
  CHECK_FALSE(full_message_is_output(CollectiveKind::kReduceScatter));
}
