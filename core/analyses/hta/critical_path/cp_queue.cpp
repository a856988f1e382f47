#include "analyses/hta/critical_path/cp_queue.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

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
  length_.assign(s.size(), kNone);
  std::unordered_map<int64_t, std::vector<uint32_t>> gpu_by_correlation;
  for (uint32_t i = 0; i < s.size(); ++i)
    if (view.kept(i) && view.stream(i) != -1) gpu_by_correlation[view.correlation(i)].push_back(i);

  std::vector<QueueStep> steps;
  std::unordered_set<int64_t> launch_correlations;
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (!view.kept(i) || view.index_correlation(i) <= 0 || !is_launch_call(s.name_of(i))) continue;
    launch_correlations.insert(view.correlation(i));
    const auto it = gpu_by_correlation.find(view.correlation(i));
    if (it == gpu_by_correlation.end()) continue;
    for (const uint32_t g : it->second) steps.push_back({t.ts(i), view.stream(g), i, +1});
  }
  for (uint32_t i = 0; i < s.size(); ++i)
    if (view.kept(i) && view.stream(i) != -1 && launch_correlations.contains(view.correlation(i)))
      steps.push_back({t.ts(i), view.stream(i), i, -1});
  // pandas' sort_values("ts") on the concatenation: numpy's (unstable) quicksort order.
  std::vector<double> keys(steps.size());
  for (size_t i = 0; i < steps.size(); ++i) keys[i] = steps[i].ts;
  std::unordered_map<int64_t, int64_t> running;
  for (const uint32_t i : numpy_quicksort_order(keys))
    length_[steps[i].row] = running[steps[i].stream] += steps[i].delta;
}

}  // namespace sollens::hta::cp
