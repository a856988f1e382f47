#pragma once
// The event tree exactly as TraceLens builds it (tracelens-semantics.md §2): host
// call stacks per (pid, tid) from timestamps, then runtime → GPU links through the
// ac2g flows, or through the correlation id for graph launches. A trace without any
// flow event is linked by correlation id instead, as HTA does (TreeOptions::link).
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "model/link_mode.h"
#include "store/event_store.h"

namespace sollens {

enum class LinkingKey : uint8_t { kCorrelation, kExternalId };

struct TreeOptions {
  bool include_python = false;  // TraceLens's add_python_func (--include_call_stack)
  // 2021 traces name their launch flows "async" (and HTA's "async_cpu_to_gpu"); TraceLens
  // reads only "ac2g". When a trace has no ac2g flow at all, use those instead.
  bool legacy_flows_when_no_ac2g = true;
  // kFlows is TraceLens's rule; the default differs from it only for traces without
  // flow events, which TraceLens cannot link at all.
  LinkMode link = LinkMode::kAuto;
  // Before the tree is built, rename `sglang_profiler::X_<n>` cpu_ops to X's name, as the
  // first step of TraceLens's --enable_pseudo_ops does (model/sglang_op_names.h).
  bool strip_sglang_profiler_suffixes = false;
};

inline constexpr int32_t kNoParent = -1;

class TraceTree {
 public:
  static TraceTree build(const EventStore& store, const TreeOptions& options = {});
  // The same store's tree with other host options (python frames in or out): the host
  // stacks are built anew, the runtime → GPU links are `links_of`'s, which must have
  // been built with the same link options (they do not depend on the host events).
  static TraceTree build(const EventStore& store, const TreeOptions& options, const TraceTree& links_of);

  LinkingKey linking_key = LinkingKey::kExternalId;
  std::vector<int32_t> parent;   // per event; kNoParent for roots and events outside the tree
  std::vector<uint8_t> in_tree;  // TraceLens's "tree": host events placed, GPU events linked
  std::vector<uint32_t> cpu_roots;   // cpu_ops with no cpu_op below them on their stack
  std::vector<uint32_t> gpu_events;  // kernel / gpu_memcpy / gpu_memset rows, file order

  std::span<const uint32_t> children(uint32_t event) const {
    return {child_list_.data() + child_offsets_[event],
            child_offsets_[event + 1] - child_offsets_[event]};
  }

  // Counts for `sollens info` and warnings.
  size_t host_events = 0;
  size_t host_events_dropped = 0;  // stuck out of their parent by 1 µs or more
  size_t host_events_reparented = 0;  // bled out by under 1 µs: attached one level up
  size_t linked_gpu_events = 0;
  size_t launches_without_flow = 0;  // runtime launches whose ac2g pair is incomplete
  bool used_legacy_flows = false;
  LinkMode linked_by = LinkMode::kFlows;  // kFlows or kCorrelation: the rule applied
  bool has_launch_flows = false;          // any ac2g or legacy launch flow event
  // Correlation linking: GPU events whose id is on launches in two processes.
  size_t ambiguous_correlations = 0;

 private:
  static TraceTree build_with_links(const EventStore& store, const TreeOptions& options, const TraceTree* links_of);
  void copy_launch_links(const TraceTree& other);
  void index_children(const std::vector<std::pair<uint32_t, uint32_t>>& edges);

  std::vector<uint32_t> child_offsets_;
  std::vector<uint32_t> child_list_;
  std::vector<std::pair<uint32_t, uint32_t>> launch_edges_;  // (runtime, GPU event), in link order
};

}  // namespace sollens
