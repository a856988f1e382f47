#include "analyses/hta/annotation_breakdown.h"

#include <algorithm>
#include <map>
#include <utility>

#include "analyses/hta/kernel_breakdown.h"

namespace sollens::hta {

namespace {

using Lane = std::pair<StrId, StrId>;  // pid, tid (interned text)

Lane lane_of(const EventStore& s, uint32_t e) {
  return {s.pid[e], s.tid[e]};
}

// The latest-starting annotation of `lane` (by start) that overlaps [start, end), else −1.
int64_t innermost_overlapping(const HtaTrace& trace, const std::vector<uint32_t>& lane, double start, double end) {
  auto it = std::lower_bound(lane.begin(), lane.end(), end,
                             [&](uint32_t a, double t) { return trace.ts(a) < t; });
  while (it != lane.begin()) {
    --it;
    if (trace.end(*it) > start) return *it;
  }
  return -1;
}

}  // namespace

std::vector<uint32_t> kept_gpu_annotations(const HtaTrace& trace) {
  const EventStore& s = trace.store();
  const StepCut cut = step_cut(trace);
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < s.size(); ++i)
    if (s.phase[i] == Phase::kComplete && s.category[i] == Category::kGpuUserAnnotation && cut.keeps(trace.ts(i)))
      out.push_back(i);
  std::stable_sort(out.begin(), out.end(), [&](uint32_t a, uint32_t b) { return trace.ts(a) < trace.ts(b); });
  return out;
}

Table gpu_user_annotation_breakdown_table(const HtaTrace& trace, const TraceTree&, const HtaOptions& options) {
  Table t("gpu_user_annotation_breakdown", TableKind::kHta);
  NamedStatsColumns stats(t);
  Column& rank = t.add_column("rank", ColumnType::kInt);
  std::map<std::string_view, std::vector<double>> by_name;
  for (uint32_t e : kept_gpu_annotations(trace)) by_name[trace.store().name_of(e)].push_back(trace.dur(e));
  std::vector<NamedDurations> groups;
  for (auto& [n, durations] : by_name) groups.push_back({n, std::move(durations)});
  for (const NamedStats& s : aggregate_like_hta(groups, options.annotation_duration_ratio, options.num_annotations)) {
    stats.push(s);
    rank.push_int(trace.rank());
  }
  return t;
}

Table gpu_kernels_with_user_annotations_table(const HtaTrace& trace, const TraceTree&, const HtaOptions&) {
  Table t("gpu_kernels_with_user_annotations", TableKind::kHta);
  Column& rank = t.add_column("rank", ColumnType::kInt);
  Column& stream = t.add_column("stream", ColumnType::kInt);
  Column& name = t.add_column("name", ColumnType::kString);
  Column& ts = t.add_column("ts", ColumnType::kFloat, Unit::kTimestamp);
  Column& dur = t.add_column("dur", ColumnType::kFloat, Unit::kMicroseconds);
  Column& annotation = t.add_column("user_annotation", ColumnType::kString);
  const EventStore& s = trace.store();
  std::map<Lane, std::vector<uint32_t>> lanes;
  for (uint32_t a : kept_gpu_annotations(trace)) lanes[lane_of(s, a)].push_back(a);
  for (uint32_t e : breakdown_events(trace).gpu) {
    rank.push_int(trace.rank());
    stream.push_int(trace.stream(e));
    name.push_string(s.name_of(e));
    ts.push_float(trace.ts(e));
    dur.push_float(trace.dur(e));
    const auto lane = lanes.find(lane_of(s, e));
    const int64_t a = lane == lanes.end() ? -1 : innermost_overlapping(trace, lane->second, trace.ts(e), trace.end(e));
    annotation.push_string(a < 0 ? std::string_view() : s.name_of(static_cast<uint32_t>(a)));
  }
  return t;
}

}  // namespace sollens::hta
