#pragma once
// How GPU events are tied to the runtime call that launched them.
#include <cstdint>
#include <optional>
#include <string_view>

namespace sollens {

enum class LinkMode : uint8_t {
  // TraceLens: through the launch flow pairs (ac2g; graph launches by correlation id).
  // A trace without flow events links nothing.
  kFlows,
  // HTA: each GPU event to the runtime event (cuda_runtime / cuda_driver) whose
  // args.correlation is the GPU event's.
  kCorrelation,
  // kCorrelation when the trace has no launch flow event at all (ac2g or legacy) and
  // its GPU events carry correlation ids; kFlows otherwise.
  kAuto,
};

// "flows", "correlation", "auto".
std::string_view link_mode_name(LinkMode mode);
std::optional<LinkMode> link_mode_from_name(std::string_view name);

}  // namespace sollens
