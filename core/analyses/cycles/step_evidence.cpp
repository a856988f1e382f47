#include "analyses/cycles/step_evidence.h"

#include <algorithm>
#include <utility>

namespace sollens {

LaunchTimes launch_times(const EventStore& store) {
  LaunchTimes out;
  for (size_t r = 0; r < store.size(); ++r)
    if (is_runtime(store.category[r]) && store.correlation[r] >= 0 && store.correlation[r] != kNoValue)
      out.emplace(store.correlation[r], store.ts[r]);
  return out;
}

std::vector<KernelSpan> cpu_annotation_spans(const EventStore& store, const KernelSequence& seq,
                                             const LaunchTimes& launches, std::string_view prefix) {
  std::vector<std::pair<double, double>> spans;  // (begin, end), by begin
  for (size_t r = 0; r < store.size(); ++r) {
    const Category c = store.category[r];
    if ((c == Category::kUserAnnotation || c == Category::kCpuOp) &&
        store.name_of(r).substr(0, prefix.size()) == prefix)
      spans.emplace_back(store.ts[r], store.ts[r] + store.dur[r]);
  }
  std::sort(spans.begin(), spans.end());
  std::vector<KernelSpan> out(spans.size());
  std::vector<uint8_t> used(spans.size(), 0);
  if (spans.empty() || launches.empty()) return {};
  for (uint32_t i = 0; i < seq.size(); ++i) {
    const auto it = launches.find(store.correlation[seq.rows[i]]);
    if (it == launches.end()) continue;
    const double t = it->second;
    // The last span beginning at or before t; annotations of one kind do not nest.
    auto k = std::upper_bound(spans.begin(), spans.end(), std::pair{t, 1e300});
    if (k == spans.begin()) continue;
    const size_t j = static_cast<size_t>(k - spans.begin()) - 1;
    if (t > spans[j].second) continue;
    if (!used[j]) out[j] = {i, i}, used[j] = 1;
    out[j].first = std::min(out[j].first, i);
    out[j].last = std::max(out[j].last, i);
  }
  std::vector<KernelSpan> kept;
  for (size_t j = 0; j < out.size(); ++j)
    if (used[j]) kept.push_back(out[j]);
  return kept;
}

std::vector<KernelSpan> iterations_ending_in(const std::vector<KernelSpan>& optimizer_steps) {
  std::vector<KernelSpan> out;
  uint32_t next = 0;
  for (const KernelSpan& s : optimizer_steps) {
    if (s.last < next) continue;
    out.push_back({next, s.last});
    next = s.last + 1;
  }
  return out;
}

}  // namespace sollens
