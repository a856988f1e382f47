#pragma once
// What the time axis's files share (not for other analyses): the lanes found and the
// events placed on them, before they become sheets.
#include <cstdint>
#include <string>
#include <vector>

#include "model/trace_tree.h"
#include "store/event_store.h"
#include "table/table.h"

namespace sollens::time_axis {

enum class LaneKind : uint8_t { kCpu, kRuntime, kGpu };
const char* lane_kind_name(LaneKind kind);  // "cpu", "runtime", "gpu"

struct Lane {
  LaneKind kind = LaneKind::kCpu;
  StrId pid = kEmptyStr;
  StrId tid = kEmptyStr;     // CPU and runtime lanes
  int64_t stream = kNoValue;  // GPU lanes
  int64_t device = kNoValue;  // GPU lanes: args.device where given
  uint32_t depths = 0;
};

struct Placed {
  uint32_t row = 0;   // store row
  uint32_t lane = 0;  // index into the lanes, in sheet order once ordered
  uint32_t depth = 0;
};

struct Placement {
  std::vector<Lane> lanes;      // in sheet order
  std::vector<Placed> events;   // by (lane, ts, longer first)
  std::vector<int32_t> sheet_row_of;  // per store row: index into events, or -1
};

// Every cpu_op and user_annotation in the tree, runtime / driver call and GPU event
// (kernel, memcpy, memset) on its lane, at its nesting depth, ordered.
Placement place_events(const EventStore& store, const TraceTree& tree);

std::string lane_label(const EventStore& store, const Lane& lane);

// The GPU events' categories by what they do: the launcher's op category (GEMM,
// SDPA_fwd, elementwise, ...), "communication" for collectives, "memcpy", "memset";
// "other" for a kernel with no launcher. Per store row; "" for host rows.
std::vector<std::string_view> gpu_categories(const EventStore& store, const TraceTree& tree);

}  // namespace sollens::time_axis
