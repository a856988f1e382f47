#include "analyses/hta/comm_comp_overlap.h"

#include <algorithm>

namespace sollens::hta {

namespace {

std::vector<Interval> merged_of_type(const HtaTrace& trace, const std::vector<uint32_t>& gpu, KernelType type) {
  std::vector<Interval> of_type;
  for (uint32_t e : gpu)
    if (trace.kernel_type(e) == type) of_type.push_back({trace.ts(e), trace.end(e)});
  return merge_like_hta(std::move(of_type));
}

}  // namespace

CommCompOverlap comm_comp_overlap(const HtaTrace& trace, const BreakdownEvents& events) {
  const std::vector<Interval> comm = merged_of_type(trace, events.gpu, KernelType::kCommunication);
  const std::vector<Interval> comp = merged_of_type(trace, events.gpu, KernelType::kComputation);
  struct Edge {
    double time;
    int delta;  // communication ±1, computation ±2: running 3 is both
  };
  std::vector<Edge> edges;
  for (const Interval& i : comm) edges.insert(edges.end(), {{i.start, 1}, {i.end, -1}});
  for (const Interval& i : comp) edges.insert(edges.end(), {{i.start, 2}, {i.end, -2}});
  std::stable_sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.time < b.time; });
  CommCompOverlap out;
  out.comm_us = merged_length(comm);
  int running = 0;
  for (size_t i = 0; i + 1 < edges.size(); ++i) {
    running += edges[i].delta;
    if (running == 3) out.overlapped_us += edges[i + 1].time - edges[i].time;
  }
  return out;
}

Table comm_comp_overlap_table(const HtaTrace& trace, const TraceTree&, const HtaOptions&) {
  Table t("comm_comp_overlap", TableKind::kHta);
  Column& rank = t.add_column("rank", ColumnType::kInt);
  Column& pct = t.add_column("comp_comm_overlap_pctg", ColumnType::kFloat, Unit::kPercent);
  const CommCompOverlap o = comm_comp_overlap(trace, breakdown_events(trace));
  rank.push_int(trace.rank());
  if (o.comm_us != 0) pct.push_float(round_like_pandas(100 * (o.overlapped_us / o.comm_us), 2));
  else pct.push_null();
  return t;
}

}  // namespace sollens::hta
