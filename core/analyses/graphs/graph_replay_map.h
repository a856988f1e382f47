#pragma once
// Kernels replayed by a CUDA / HIP graph launch, mapped back to the launches that put
// them into the graph. A graph launch is one runtime event over many GPU events (the
// tree links them by correlation id); the ops that launched those kernels ran once,
// at capture time. They are found, in this order:
//   1. in a capture trace given beside the replay trace (the launches recorded between
//      cuda/hipStreamBeginCapture and EndCapture, which never ran on the GPU);
//   2. in a capture region of the replay trace itself (torch.compile's cudagraph trees
//      capture in the profiled run);
//   3. in an eager run of the same kernel sequence in the replay trace (a warm-up or
//      prefill forward): each replayed kernel maps to the eager kernel at the same
//      position, when it was launched with the same grid (other shapes otherwise).
// Matching is by kernel name and order, per stream, with a bounded look-ahead so that a
// few kernels missing on either side do not shift the rest.
#include <cstdint>
#include <string_view>
#include <vector>

#include "model/trace_tree.h"
#include "store/event_store.h"

namespace sollens {

enum class ReplaySource : uint8_t { kNone, kCaptureTrace, kCaptureInTrace, kEagerRun };
// "capture trace", "capture in this trace", "eager run", "unmapped".
std::string_view replay_source_name(ReplaySource source);

// A trace and its tree (the capture trace, or the replay trace itself).
struct TraceAndTree {
  const EventStore* store = nullptr;
  const TraceTree* tree = nullptr;
};

inline constexpr int32_t kUnmapped = -1;

struct GraphReplay {
  uint32_t launch = 0;             // the …GraphLaunch runtime event
  std::vector<uint32_t> kernels;   // its GPU events, stream by stream, each by ts
  // Per kernel: the runtime event that launched it at capture time (kCaptureTrace: a
  // row of the capture trace; otherwise of this trace; kEagerRun: the eager kernel's
  // launch), or kUnmapped.
  std::vector<int32_t> source_launch;
  ReplaySource source = ReplaySource::kNone;
  size_t mapped_kernels = 0;
  size_t other_grid_kernels = 0;   // kEagerRun: same name and place, other grid: not mapped
  double kernel_us = 0;            // busy time of every kernel
  double mapped_us = 0;            // busy time of the mapped kernels
};

struct GraphReplayMap {
  std::vector<GraphReplay> replays;  // by launch time
  bool capture_given = false;
};

// `capture`: the capture trace, or a null store when none is given.
GraphReplayMap map_graph_replays(const EventStore& store, const TraceTree& tree, TraceAndTree capture = {});

// The op that made a launch: the first cpu_op above the runtime event other than
// `execute`, past python frames (the kernel-launcher rule, analyses/ops/kernel_launchers.h);
// the runtime event itself when there is none.
uint32_t launcher_of_launch(const EventStore& store, const TraceTree& tree, uint32_t launch);

}  // namespace sollens
