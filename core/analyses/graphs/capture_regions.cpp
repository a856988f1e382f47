#include "analyses/graphs/capture_regions.h"

#include <algorithm>
#include <limits>

#include "analyses/graphs/launch_items.h"

namespace sollens {

namespace {

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

}  // namespace

int64_t batch_in_name(std::string_view name, std::string_view prefix) {
  if (!name.starts_with(prefix)) return -1;
  int64_t batch = 0;
  size_t i = prefix.size();
  for (; i < name.size() && name[i] >= '0' && name[i] <= '9' && batch < (int64_t{1} << 40); ++i)
    batch = batch * 10 + (name[i] - '0');
  const bool ends = i == name.size() || name[i] == '_';
  return i > prefix.size() && ends ? batch : -1;
}

BatchMarks::BatchMarks(const EventStore& s, std::string_view prefix) : s_(s) {
  for (uint32_t e = 0; e < s.size(); ++e) {
    if (s.category[e] != Category::kUserAnnotation || s.phase[e] != Phase::kComplete) continue;
    const int64_t batch = batch_in_name(s.name_of(e), prefix);
    if (batch >= 0) marks_.emplace_back(e, batch);
  }
}

int64_t BatchMarks::around(uint32_t event) const {
  int64_t batch = -1;
  double start = 0;
  for (const auto& [e, b] : marks_) {
    if (s_.pid[e] != s_.pid[event] || s_.tid[e] != s_.tid[event]) continue;
    if (s_.ts[event] < s_.ts[e] || s_.ts[event] >= s_.t_end(e) || (batch >= 0 && s_.ts[e] < start)) continue;
    batch = b;
    start = s_.ts[e];
  }
  return batch;
}

std::vector<CaptureRegion> capture_regions(const EventStore& s, const TraceTree& tree, bool whole_trace_when_unmarked) {
  std::vector<uint32_t> begins, ends, unexecuted;
  std::vector<LaunchKind> kinds;
  for (uint32_t r = 0; r < s.size(); ++r) {
    if (!is_runtime(s.category[r])) continue;
    const std::string_view name = s.name_of(r);
    if (contains(name, "BeginCapture")) begins.push_back(r);
    else if (contains(name, "EndCapture")) ends.push_back(r);
    else if (const auto kind = launch_kind_of_runtime(name); kind && !has_gpu_child(s, tree, r)) {
      unexecuted.push_back(r);
      kinds.push_back(*kind);
    }
  }
  std::vector<size_t> order(unexecuted.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return s.ts[unexecuted[a]] < s.ts[unexecuted[b]]; });
  LaunchReader reader(s);
  std::vector<CaptureRegion> regions;
  if (begins.empty()) {
    if (!whole_trace_when_unmarked || order.empty()) return regions;
    regions.emplace_back();
    for (size_t i : order) regions.back().launches.push_back(reader.capture_launch(unexecuted[i], kinds[i]));
    return regions;
  }
  const BatchMarks capture_marks(s, "capture_");
  const auto same_thread = [&](uint32_t a, uint32_t b) { return s.pid[a] == s.pid[b] && s.tid[a] == s.tid[b]; };
  for (uint32_t b : begins) {
    double end_ts = std::numeric_limits<double>::infinity();
    for (uint32_t e : ends)
      if (same_thread(b, e) && s.ts[e] >= s.ts[b]) end_ts = std::min(end_ts, s.t_end(e));
    CaptureRegion& region = regions.emplace_back();
    region.batch = capture_marks.around(b);
    for (size_t i : order) {
      const uint32_t r = unexecuted[i];
      if (same_thread(b, r) && s.ts[r] >= s.ts[b] && s.ts[r] <= end_ts)
        region.launches.push_back(reader.capture_launch(r, kinds[i]));
    }
    if (region.launches.empty()) regions.pop_back();
  }
  return regions;
}

}  // namespace sollens
