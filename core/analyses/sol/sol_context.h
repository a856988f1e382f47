#pragma once
// Where an op ran, for the SOL groupings: its innermost nn.Module frame (layer type
// and instance path) and its innermost user annotation (phase).
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
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

inline constexpr std::string_view kNoPhase = "(no phase)";

// The innermost user annotation (cat user_annotation) on an event's thread whose span
// holds the event's start. ProfilerStep#N marks are steps, not phases (by_step has them).
class PhaseLookup {
 public:
  explicit PhaseLookup(const EventStore& store);
  // kNoPhase when no annotation holds the event.
  std::string_view phase_of(uint32_t event) const;

 private:
  struct Span {
    double start, end;
    uint32_t event;
  };
  const EventStore& store_;
  std::unordered_map<uint64_t, std::vector<Span>> by_thread_;  // sorted by start, longer first
};

}  // namespace sollens
