#include "analyses/sol/sol_context.h"

namespace sollens {

namespace {

constexpr std::string_view kModulePrefix = "nn.Module: ";

}  // namespace

std::string_view module_frame_instance(std::string_view frame_name) {
  return frame_name.starts_with(kModulePrefix) ? frame_name.substr(kModulePrefix.size()) : std::string_view{};
}

std::string_view module_class(std::string_view instance) {
  const size_t us = instance.rfind('_');
  if (us == std::string_view::npos || us + 1 == instance.size()) return instance;
  for (size_t i = us + 1; i < instance.size(); ++i)
    if (instance[i] < '0' || instance[i] > '9') return instance;
  return instance.substr(0, us);
}

ModuleContext module_context(const EventStore& s, const TraceTree& tree, uint32_t event) {
  std::vector<std::string_view> frames;  // innermost first
  for (int32_t e = static_cast<int32_t>(event); e != kNoParent; e = tree.parent[static_cast<size_t>(e)]) {
    const auto u = static_cast<uint32_t>(e);
    if (s.category[u] != Category::kPythonFunction) continue;
    const std::string_view inst = module_frame_instance(s.name_of(u));
    if (!inst.empty()) frames.push_back(inst);
  }
  ModuleContext c;
  if (frames.empty()) return c;
  c.in_module = true;
  c.layer_type = module_class(frames.front());
  for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
    if (!c.instance.empty()) c.instance += '.';
    c.instance += *it;
  }
  return c;
}

ModuleFramePresence module_frame_presence(const EventStore& s, const TraceTree& tree) {
  ModuleFramePresence p;
  for (uint32_t e = 0; e < s.size() && !p.in_tree; ++e) {
    if (s.category[e] != Category::kPythonFunction || !s.name_of(e).starts_with(kModulePrefix)) continue;
    p.in_store = true;
    p.in_tree = tree.in_tree[e] != 0;
  }
  return p;
}

}  // namespace sollens
