#include "analyses/sol/sol_pass.h"

#include <algorithm>
#include <iterator>

namespace sollens {

namespace {

constexpr std::string_view kBackwardPrefix = "autograd::engine::evaluate_function:";

uint64_t thread_key(const EventStore& s, uint32_t e) { return (static_cast<uint64_t>(s.pid[e]) << 32) | s.tid[e]; }

// PyTorch's optimizers annotate their step and zero_grad calls with these names.
bool is_optimizer_mark(std::string_view name) {
  return name.starts_with("Optimizer.step#") || name.starts_with("Optimizer.zero_grad#");
}

}  // namespace

const char* sol_pass_name(SolPass pass) {
  switch (pass) {
    case SolPass::kForward: return "forward";
    case SolPass::kBackward: return "backward";
    case SolPass::kOptimizer: return "optimizer";
    case SolPass::kOther: break;
  }
  return "other";
}

PassLookup::PassLookup(const EventStore& s, const TraceTree& tree, const RowMap& forward_of_backward)
    : store_(s), tree_(tree), forward_of_backward_(forward_of_backward) {
  for (uint32_t e = 0; e < s.size(); ++e)
    if (s.category[e] == Category::kUserAnnotation && s.phase[e] == Phase::kComplete && is_optimizer_mark(s.name_of(e)))
      optimizer_by_thread_[thread_key(s, e)].push_back({s.ts[e], s.t_end(e)});
  for (auto& [key, spans] : optimizer_by_thread_)
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.start < b.start; });
}

bool PassLookup::in_optimizer(uint32_t event) const {
  const auto it = optimizer_by_thread_.find(thread_key(store_, event));
  if (it == optimizer_by_thread_.end()) return false;
  const double t = store_.ts[event];
  const std::vector<Span>& spans = it->second;
  // Optimizer calls do not nest: the last span starting at or before t is the only candidate.
  auto after = std::upper_bound(spans.begin(), spans.end(), t, [](double v, const Span& sp) { return v < sp.start; });
  return after != spans.begin() && std::prev(after)->end >= t;
}

OpPass PassLookup::of(uint32_t event, bool in_module) const {
  if (in_optimizer(event)) return {SolPass::kOptimizer, -1};
  bool recorded_by_autograd = false;
  for (int32_t e = static_cast<int32_t>(event); e != kNoParent; e = tree_.parent[static_cast<size_t>(e)]) {
    const auto u = static_cast<uint32_t>(e);
    if (store_.category[u] != Category::kCpuOp) continue;
    if (store_.name_of(u).starts_with(kBackwardPrefix)) {
      const int32_t forward = forward_of_backward_[u];
      return {SolPass::kBackward, forward};
    }
    if (store_.sequence_number[u] != kNoValue) recorded_by_autograd = true;
  }
  return {in_module || recorded_by_autograd ? SolPass::kForward : SolPass::kOther, -1};
}

}  // namespace sollens
