#include "analyses/ops/recompute.h"

#include <string_view>

namespace sollens {

namespace {

// A frame counts only when placed in the tree (the python frames are left out by default).
bool is_recompute_frame(const EventStore& s, const TraceTree& tree, uint32_t e) {
  if (s.category[e] != Category::kPythonFunction || !tree.in_tree[e]) return false;
  const std::string_view name = s.name_of(e);
  return name.find("torch/utils/checkpoint.py") != std::string_view::npos &&
         name.find("recompute_fn") != std::string_view::npos;
}

}  // namespace

std::vector<uint8_t> find_recompute_events(const EventStore& s, const TraceTree& tree) {
  constexpr uint8_t kUnknown = 2;
  std::vector<uint8_t> flag(s.size(), kUnknown);
  std::vector<uint32_t> path;
  for (uint32_t e = 0; e < s.size(); ++e) {
    // Walk up to the first ancestor already decided (or the root), then decide the path
    // top-down, so every event is visited once.
    path.clear();
    uint32_t at = e;
    while (flag[at] == kUnknown) {
      path.push_back(at);
      const int32_t p = tree.parent[at];
      if (p == kNoParent) break;
      at = static_cast<uint32_t>(p);
    }
    uint8_t above = flag[at] == kUnknown ? 0 : flag[at];
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
      // A frame's own flag covers what lies below it, so mark the frame itself too.
      above = above || is_recompute_frame(s, tree, *it);
      flag[*it] = above;
    }
  }
  return flag;
}

void mark_recompute_launchers(LauncherTable& launchers, const std::vector<uint8_t>& recompute) {
  for (KernelLauncher& l : launchers.launchers) l.is_recompute = l.event < recompute.size() && recompute[l.event];
}

}  // namespace sollens
