#pragma once
// Activation-checkpointing recompute (TraceLens --detect_recompute, tracelens-semantics.md
// §2.10): an event is recompute when a python_function frame above it in the tree names
// both torch/utils/checkpoint.py and recompute_fn. The tree must hold the python frames
// (TreeOptions::include_python); without them nothing is recompute.
#include <cstdint>
#include <vector>

#include "analyses/ops/kernel_launchers.h"
#include "model/trace_tree.h"
#include "store/event_store.h"

namespace sollens {

// Per event: 1 when it lies under a checkpoint recompute frame, else 0.
std::vector<uint8_t> find_recompute_events(const EventStore& store, const TraceTree& tree);

// Sets each launcher's is_recompute from `recompute` (one flag per event).
void mark_recompute_launchers(LauncherTable& launchers, const std::vector<uint8_t>& recompute);

}  // namespace sollens
