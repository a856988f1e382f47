#pragma once
// Where an op ran, for the SOL groupings: its innermost nn.Module frame (layer type
// and instance path). The phase is in sol_phase.h.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/trace_tree.h"
#include "store/event_store.h"

namespace sollens {

struct ModuleContext {
  bool in_module = false;
  std::string layer_type;  // class of the innermost module, e.g. "Qwen2MLP"
  std::string instance;    // frames outermost first, e.g. "Qwen2Model_0.Qwen2DecoderLayer_3.Qwen2MLP_3"
};

// "nn.Module: Qwen2MLP_3" -> "Qwen2MLP_3"; "" for any other frame name.
std::string_view module_frame_instance(std::string_view frame_name);
// "Qwen2MLP_3" -> "Qwen2MLP" (the Kineto instance counter dropped).
std::string_view module_class(std::string_view instance);

// The nn.Module frames above `event` in the tree (present when it was built with
// python frames).
ModuleContext module_context(const EventStore& store, const TraceTree& tree, uint32_t event);

// True when the store has nn.Module python frames, and when the tree placed them.
struct ModuleFramePresence {
  bool in_store = false;
  bool in_tree = false;
};
ModuleFramePresence module_frame_presence(const EventStore& store, const TraceTree& tree);

}  // namespace sollens
