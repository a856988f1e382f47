#include "model/link_mode.h"

namespace sollens {

std::string_view link_mode_name(LinkMode mode) {
  switch (mode) {
    case LinkMode::kFlows: return "flows";
    case LinkMode::kCorrelation: return "correlation";
    case LinkMode::kAuto: return "auto";
  }
  return "auto";
}

std::optional<LinkMode> link_mode_from_name(std::string_view name) {
  for (LinkMode m : {LinkMode::kFlows, LinkMode::kCorrelation, LinkMode::kAuto})
    if (link_mode_name(m) == name) return m;
  return std::nullopt;
}

}  // namespace sollens
