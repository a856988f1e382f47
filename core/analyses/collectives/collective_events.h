#pragma once
// Collective kernels of one rank's trace (tracelens-semantics.md §8.1), read from the
// event store instead of re-reading the JSON as TraceLens does: `kernel` events whose
// name matches nccl|rccl|cross_device_reduce (any case) and whose args carry
// `correlation` or `External id`, in file order, with the record_param_comms fields
// Kineto copies onto them.
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "analyses/collectives/group_key.h"
#include "store/event_store.h"

namespace sollens::collectives {

// The metadata fields, in TraceLens's order (also the order of the group keys after
// `rank`).
enum Field : uint8_t {
  kProcessGroupName,
  kProcessGroupRanks,
  kCollectiveName,
  kGroupSize,
  kDtype,
  kInMsgNelems,
  kOutMsgNelems,
  kInSplitSize,
  kOutSplitSize,
  kStream,
  kFieldCount
};
inline constexpr std::array<std::string_view, kFieldCount> kFieldNames = {
    "Process Group Name", "Process Group Ranks", "Collective name", "Group size", "dtype",
    "In msg nelems",      "Out msg nelems",      "In split size",   "Out split size", "stream"};

struct CollectiveEvent {
  uint32_t event = 0;  // row in the store (TraceLens UID)
  double ts = 0, dur = 0;
  std::array<PyValue, kFieldCount> fields;  // lists as tuples (list_to_tuple)
  // nelems · bytes(dtype) / 1024², None when the dtype is not one TraceLens sizes or
  // the element count is not a number.
  std::optional<double> in_msg_mb, out_msg_mb;
};

// Bytes per element of the dtypes TraceLens knows (Float 4, Int 4, Long 8, BFloat16 2,
// Bool 1, Byte 1, Double 8, Half 2, Short 2); nullopt for any other name.
std::optional<int> dtype_bytes(std::string_view dtype);

// The collective kernels of `store`, in file order. A missing `Collective name` is
// inferred from the kernel name (`cross_device_reduce` -> allreduce); the process
// group name is not filled in here (see coll_analysis.h).
std::vector<CollectiveEvent> extract_collective_events(const EventStore& store);

}  // namespace sollens::collectives
