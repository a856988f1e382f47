#include "analyses/hta/breakdown_events.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace sollens::hta {

namespace {

bool is_gpu_side(Category c) { return is_gpu_activity(c) || c == Category::kCudaSync; }

// A cuda_sync event sits on a stream when it has one HTA can read (not −1).
bool on_stream(const HtaTrace& trace, uint32_t e) { return trace.stream(e) != -1; }

std::vector<uint32_t> kept_syncs(const HtaTrace& trace, const StepCut& cut) {
  const EventStore& s = trace.store();
  std::vector<uint32_t> syncs;
  for (uint32_t i = 0; i < s.size(); ++i)
    if (s.phase[i] == Phase::kComplete && s.category[i] == Category::kCudaSync && on_stream(trace, i))
      syncs.push_back(i);
  if (syncs.empty()) return syncs;
  std::unordered_map<int64_t, double> launch_ts;  // correlation → first runtime call's start
  for (uint32_t i = 0; i < s.size(); ++i)
    if (is_runtime(s.category[i]) && s.phase[i] == Phase::kComplete && s.correlation[i] != kNoValue)
      launch_ts.try_emplace(s.correlation[i], trace.ts(i));
  std::erase_if(syncs, [&](uint32_t e) {
    const auto it = launch_ts.find(s.correlation[e]);
    return s.correlation[e] != kNoValue && it != launch_ts.end() && !cut.keeps(it->second);
  });
  std::stable_sort(syncs.begin(), syncs.end(), [&](uint32_t a, uint32_t b) { return trace.ts(a) < trace.ts(b); });
  return syncs;
}

}  // namespace

StepCut step_cut(const HtaTrace& trace) {
  if (trace.drops_last_step()) return {trace.last_step_start(), false};
  // One step or none: the events launched after it (or after the last host event) end.
  const EventStore& s = trace.store();
  double last_step_end = -std::numeric_limits<double>::infinity(), last_cpu_end = last_step_end;
  bool any_step = false;
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (s.phase[i] != Phase::kComplete || is_gpu_side(s.category[i])) continue;
    last_cpu_end = std::max(last_cpu_end, trace.end(i));
    if (!s.name_of(i).starts_with("ProfilerStep#")) continue;
    last_step_end = std::max(last_step_end, trace.end(i));
    any_step = true;
  }
  return {any_step ? last_step_end : last_cpu_end, true};
}

BreakdownEvents breakdown_events(const HtaTrace& trace) {
  const StepCut cut = step_cut(trace);
  BreakdownEvents out;
  for (uint32_t e : trace.gpu_events()) {
    const int32_t launch = trace.launch_of(e);
    if (launch == kNoLaunch || cut.keeps(trace.ts(static_cast<uint32_t>(launch)))) out.gpu.push_back(e);
  }
  out.syncs = kept_syncs(trace, cut);
  return out;
}

std::vector<Interval> merge_like_hta(std::vector<Interval> intervals) {
  std::stable_sort(intervals.begin(), intervals.end(),
                   [](const Interval& a, const Interval& b) { return a.start < b.start; });
  std::vector<Interval> merged;
  double latest_end = -std::numeric_limits<double>::infinity();
  for (const Interval& i : intervals) {
    if (merged.empty() || i.start > latest_end) merged.push_back(i);
    else merged.back().end = std::max(merged.back().end, i.end);
    latest_end = std::max(latest_end, i.end);
  }
  return merged;
}

double merged_length(const std::vector<Interval>& merged) {
  double total = 0;
  for (const Interval& i : merged) total += i.end - i.start;
  return total;
}



}  // namespace sollens::hta
