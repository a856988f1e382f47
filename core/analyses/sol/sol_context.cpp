#include "analyses/sol/sol_context.h"

#include <algorithm>

namespace sollens {

namespace {

constexpr std::string_view kModulePrefix = "nn.Module: ";

uint64_t thread_key(const EventStore& s, uint32_t e) {
  return (static_cast<uint64_t>(s.pid[e]) << 32) | s.tid[e];
}

bool is_step_mark(std::string_view name) { return name.starts_with("ProfilerStep#"); }

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

PhaseLookup::PhaseLookup(const EventStore& s) : store_(s) {
  for (uint32_t e = 0; e < s.size(); ++e) {
    if (s.category[e] != Category::kUserAnnotation || s.phase[e] != Phase::kComplete) continue;
    if (is_step_mark(s.name_of(e))) continue;
    by_thread_[thread_key(s, e)].push_back({s.ts[e], s.t_end(e), e});
  }
  for (auto& [key, spans] : by_thread_)
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
      return a.start < b.start || (a.start == b.start && (a.end > b.end || (a.end == b.end && a.event < b.event)));
    });
}

std::string_view PhaseLookup::phase_of(uint32_t event) const {
  const auto it = by_thread_.find(thread_key(store_, event));
  if (it == by_thread_.end()) return kNoPhase;
  const double t = store_.ts[event];
  const std::vector<Span>& spans = it->second;
  // The latest-starting span that holds t is the innermost one (annotations nest).
  auto hi = std::upper_bound(spans.begin(), spans.end(), t, [](double v, const Span& sp) { return v < sp.start; });
  while (hi != spans.begin()) {
    --hi;
    if (hi->end > t || (hi->end == t && hi->start == t)) return store_.name_of(hi->event);
  }
  return kNoPhase;
}

}  // namespace sollens
