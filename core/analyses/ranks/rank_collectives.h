#pragma once
// One rank's collective kernels for the multi-rank report: TraceLens's extraction
// (collectives/collective_events.h), then, for kernels whose args carry no
// `Collective name` (older traces, where TraceLens says "Unknown"), the name and
// message read from what launched them:
//   1. an enclosing `record_param_comms` op whose args have the fields (newer PyTorch
//      writes them there even when the kernel lacks them);
//   2. an enclosing `nccl:<collective>` annotation: its name gives the collective,
//      its first input's type and shape the dtype and element count;
//   3. the kernel name: ncclKernel_AllReduce_… / ncclDevKernel_AllGather_… .
// Group size falls back to distributedInfo.world_size (the default process group).
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "analyses/collectives/collective_events.h"
#include "model/trace_tree.h"
#include "store/event_store.h"

namespace sollens::ranks {

enum class NameSource : uint8_t { kTrace, kRecordParamComms, kAnnotation, kKernelName, kUnknown };
std::string_view name_source_text(NameSource source);

struct RankCollective {
  collectives::CollectiveEvent event;
  NameSource source = NameSource::kTrace;
};

std::vector<RankCollective> rank_collectives(const EventStore& store, const TraceTree& tree);

// `nccl:all_reduce` -> "allreduce", in the spelling record_param_comms uses; nullopt
// for a name that is not such an annotation.
std::optional<std::string_view> collective_from_annotation(std::string_view annotation);
// ncclKernel_AllReduce_RING_LL_Sum_float(...) / ncclDevKernel_AllGather_... -> "allgather";
// SendRecv kernels (NCCL's all-to-all and point-to-point) -> "send_recv".
std::optional<std::string_view> collective_from_kernel_name(std::string_view kernel);
// A C++ type name as the profiler writes it in "Input type" ("float", "long int",
// "c10::Half") -> the ScalarType name Kineto writes in a kernel's `dtype` ("Float", "Long", "Half").
std::optional<std::string_view> scalar_type_name(std::string_view input_type);

}  // namespace sollens::ranks
