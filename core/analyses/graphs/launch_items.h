#pragma once
// The two sides of a graph-replay alignment read from the store: GPU events (their
// name and grid) and capture-time runtime launches (the kernel named in their args).
#include <cstdint>
#include <optional>
#include <string_view>

#include "analyses/graphs/launch_alignment.h"
#include "model/trace_tree.h"
#include "store/event_store.h"
#include "store/raw_args.h"

namespace sollens {

// cudaGraphLaunch, hipGraphLaunch (any runtime event whose name ends so).
bool is_graph_launch(std::string_view runtime_name);
// What a runtime event puts on a stream, if it is a launch a graph can hold (kernel
// launches of every runtime and driver spelling, memcpy, memset); nullopt otherwise.
std::optional<LaunchKind> launch_kind_of_runtime(std::string_view runtime_name);
// True when the tree linked a GPU event to this runtime event (the launch ran).
bool has_gpu_child(const EventStore& store, const TraceTree& tree, uint32_t event);

// Reuses one args parser; not for sharing between threads.
class LaunchReader {
 public:
  explicit LaunchReader(const EventStore& store) : s_(store), args_(store) {}
  LaunchItem gpu_event(uint32_t event);
  // A runtime launch recorded at capture time: the kernel's name is in args.kernel
  // (ROCm); a CUDA trace has none, and the item then matches any kernel.
  LaunchItem capture_launch(uint32_t event, LaunchKind kind);

 private:
  std::string_view raw(uint32_t event, std::string_view key);
  const EventStore& s_;
  ArgsReader args_;
};

}  // namespace sollens
