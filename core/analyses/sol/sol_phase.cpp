#include "analyses/sol/sol_phase.h"

#include <algorithm>

namespace sollens {

namespace {

uint64_t thread_key(const EventStore& s, uint32_t e) {
  return (static_cast<uint64_t>(s.pid[e]) << 32) | s.tid[e];
}

bool is_step_mark(std::string_view name) { return name.starts_with("ProfilerStep#"); }

}  // namespace

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
