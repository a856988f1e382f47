#include "analyses/time_axis/time_axis.h"

#include <algorithm>
#include <limits>

#include "analyses/time_axis/time_axis_parts.h"
#include "analyses/time_axis/time_axis_spans.h"

namespace sollens {
namespace {

using time_axis::Lane;
using time_axis::Placement;

const char* event_kind(Category c) {
  switch (c) {
    case Category::kCpuOp: return "cpu_op";
    case Category::kUserAnnotation: return "user_annotation";
    case Category::kCudaRuntime: return "runtime";
    case Category::kCudaDriver: return "driver";
    case Category::kKernel: return "kernel";
    case Category::kGpuMemcpy: return "gpu_memcpy";
    case Category::kGpuMemset: return "gpu_memset";
    default: return "other";
  }
}

Table lanes_table(const EventStore& s, const Placement& p) {
  Table t("time_axis_lanes", TableKind::kTimeline);
  Column& lane = t.add_column("lane", ColumnType::kInt);
  Column& kind = t.add_column("kind", ColumnType::kString);
  Column& label = t.add_column("label", ColumnType::kString);
  Column& pid = t.add_column("pid", ColumnType::kString);
  Column& tid = t.add_column("tid", ColumnType::kString);
  Column& depths = t.add_column("depths", ColumnType::kInt);
  for (size_t i = 0; i < p.lanes.size(); ++i) {
    const Lane& l = p.lanes[i];
    lane.push_int(static_cast<int64_t>(i));
    kind.push_string(time_axis::lane_kind_name(l.kind));
    label.push_string(time_axis::lane_label(s, l));
    pid.push_string(s.str(l.pid));
    if (l.kind == time_axis::LaneKind::kGpu) tid.push_null();
    else tid.push_string(s.str(l.tid));
    depths.push_int(l.depths);
  }
  return t;
}

// The launch ↔ GPU counterpart's sheet row: a GPU event's launching runtime call, a
// runtime call's first GPU event (a graph launch has many; the first stands for them).
int32_t partner_of(const EventStore& s, const TraceTree& tree, const Placement& p, uint32_t row) {
  if (is_gpu_activity(s.category[row])) {
    const int32_t parent = tree.parent[row];
    if (!tree.in_tree[row] || parent == kNoParent || !is_runtime(s.category[static_cast<uint32_t>(parent)])) return -1;
    return p.sheet_row_of[static_cast<uint32_t>(parent)];
  }
  if (!is_runtime(s.category[row])) return -1;
  for (uint32_t child : tree.children(row))
    if (is_gpu_activity(s.category[child]) && p.sheet_row_of[child] >= 0) return p.sheet_row_of[child];
  return -1;
}

Table events_table(const EventStore& s, const TraceTree& tree, const Placement& p, double origin,
                   const std::vector<float>& efficiency) {
  const std::vector<std::string_view> categories = time_axis::gpu_categories(s, tree);
  Table t("time_axis_events", TableKind::kTimeline);
  Column& lane = t.add_column("lane", ColumnType::kInt);
  Column& depth = t.add_column("depth", ColumnType::kInt);
  Column& start = t.add_column("start_us", ColumnType::kFloat, Unit::kMicroseconds);
  Column& dur = t.add_column("dur_us", ColumnType::kFloat, Unit::kMicroseconds);
  Column& kind = t.add_column("kind", ColumnType::kString);
  Column& category = t.add_column("category", ColumnType::kString);
  Column& name = t.add_column("name", ColumnType::kString);
  Column& row = t.add_column("row", ColumnType::kInt);
  Column& partner = t.add_column("partner", ColumnType::kInt);
  Column& sol = t.add_column("sol_efficiency", ColumnType::kFloat);
  for (const time_axis::Placed& e : p.events) {
    lane.push_int(e.lane);
    depth.push_int(e.depth);
    start.push_float(s.ts[e.row] - origin);
    dur.push_float(s.dur[e.row]);
    kind.push_string(event_kind(s.category[e.row]));
    category.push_string(categories[e.row]);
    name.push_string(s.name_of(e.row));
    row.push_int(e.row);
    partner.push_int(partner_of(s, tree, p, e.row));
    const float eff = e.row < efficiency.size() ? efficiency[e.row] : -1.0f;
    if (eff >= 0) sol.push_float(eff);
    else sol.push_null();
  }
  return t;
}

}  // namespace

double trace_start_us(const EventStore& s) {
  double first = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < s.size(); ++i)
    if (s.phase[i] == Phase::kComplete || s.phase[i] == Phase::kInstant) first = std::min(first, s.ts[i]);
  return first == std::numeric_limits<double>::infinity() ? 0 : first;
}

TimeAxis build_time_axis(const EventStore& store, const TraceTree& tree, const TimeAxisInputs& inputs) {
  TimeAxis axis;
  axis.trace_start_us = trace_start_us(store);
  Placement placed = time_axis::place_events(store, tree);
  axis.lanes = lanes_table(store, placed);
  axis.events = events_table(store, tree, placed, axis.trace_start_us, inputs.gpu_sol_efficiency);
  axis.spans = time_axis::spans_table(store, tree, placed, axis.trace_start_us, inputs);
  axis.sheet_row_of = std::move(placed.sheet_row_of);
  return axis;
}

}  // namespace sollens
