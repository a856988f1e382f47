#include "analyses/hta/critical_path/cp_queue.h"

#include <algorithm>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analyses/hta/counter_series.h"
#include "analyses/hta/critical_path/cp_names.h"

namespace sollens::hta::cp {

namespace {

struct QueueStep {
  double ts;
  int64_t stream;
  uint32_t row;
  int delta;
};

}  // namespace

// Launch calls (with a GPU partner) take the stream of the GPU events sharing their
// correlation; GPU events count only where a launch call has their correlation. Steps
// are ordered by time as pandas orders them (numpy's quicksort: ties as it leaves them).
QueueLengths::QueueLengths(const CpView& view) {
  const EventStore& s = view.store();
  const HtaTrace& t = view.trace();
  length_.resize(s.size());  // kNone: NarrowColumn's absent value
  // Sorted arrays rather than hash maps of vectors: a trace of millions of kernels held
  // about 100 bytes a kernel in those, 16 here.
  std::vector<std::pair<int64_t, uint32_t>> gpu_by_correlation;  // by id, then file order
  for (uint32_t i = 0; i < s.size(); ++i)
    if (view.kept(i) && view.stream(i) != -1) gpu_by_correlation.emplace_back(view.correlation(i), i);
  std::stable_sort(gpu_by_correlation.begin(), gpu_by_correlation.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  auto gpu_events_of = [&](int64_t id) {
    return std::equal_range(gpu_by_correlation.begin(), gpu_by_correlation.end(), std::pair<int64_t, uint32_t>(id, 0),
                            [](const auto& a, const auto& b) { return a.first < b.first; });
  };

  std::vector<QueueStep> steps;
  std::vector<int64_t> launch_correlations;
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (!view.kept(i) || view.index_correlation(i) <= 0 || !is_launch_call(s.name_of(i))) continue;
    launch_correlations.push_back(view.correlation(i));
    const auto [first, last] = gpu_events_of(view.correlation(i));
    for (auto g = first; g != last; ++g) steps.push_back({t.ts(i), view.stream(g->second), i, +1});
  }
  std::sort(launch_correlations.begin(), launch_correlations.end());
  for (uint32_t i = 0; i < s.size(); ++i)
    if (view.kept(i) && view.stream(i) != -1 &&
        std::binary_search(launch_correlations.begin(), launch_correlations.end(), view.correlation(i)))
      steps.push_back({t.ts(i), view.stream(i), i, -1});
  std::vector<std::pair<int64_t, uint32_t>>().swap(gpu_by_correlation);
  std::vector<int64_t>().swap(launch_correlations);
  // pandas' sort_values("ts") on the concatenation: numpy's (unstable) quicksort order.
  std::vector<double> keys(steps.size());
  for (size_t i = 0; i < steps.size(); ++i) keys[i] = steps[i].ts;
  std::unordered_map<int64_t, int64_t> running;
  for (const uint32_t i : numpy_quicksort_order(keys))
    length_.set(steps[i].row, running[steps[i].stream] += steps[i].delta);
}

}  // namespace sollens::hta::cp
