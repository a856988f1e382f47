#include "analyses/perf/step_annotations.h"

#include <algorithm>

#include "analyses/perf/iteration_annotation.h"

namespace sollens::perf {

namespace {

uint64_t thread_key(const EventStore& s, uint32_t e) {
  return (static_cast<uint64_t>(s.pid[e]) << 32) | s.tid[e];
}

}  // namespace

StepAnnotations::StepAnnotations(const EventStore& s) : store_(s) {
  std::unordered_map<StrId, bool> is_step;  // per distinct name
  for (uint32_t e = 0; e < s.size(); ++e) {
    if (s.category[e] != Category::kUserAnnotation || s.phase[e] != Phase::kComplete) continue;
    auto [it, inserted] = is_step.try_emplace(s.name[e], false);
    if (inserted) it->second = is_iteration_annotation(s.name_of(e));
    if (it->second) by_thread_[thread_key(s, e)].push_back({s.ts[e], s.t_end(e), e});
  }
  for (auto& [key, spans] : by_thread_)
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
      return a.start < b.start || (a.start == b.start && (a.end > b.end || (a.end == b.end && a.event < b.event)));
    });
}

std::optional<uint32_t> StepAnnotations::of(uint32_t event) const {
  const auto it = by_thread_.find(thread_key(store_, event));
  if (it == by_thread_.end()) return std::nullopt;
  const double t = store_.ts[event];
  const std::vector<Span>& spans = it->second;
  // The latest-starting span that holds t is the innermost one (annotations nest).
  auto hi = std::upper_bound(spans.begin(), spans.end(), t, [](double v, const Span& sp) { return v < sp.start; });
  while (hi != spans.begin()) {
    --hi;
    if (hi->end > t) return hi->event;
  }
  return std::nullopt;
}

}  // namespace sollens::perf
