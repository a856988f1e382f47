#include "analyses/timeline/gpu_timeline.h"

#include <limits>
#include <vector>

#include "store/gpu_class.h"
#include "base/interval_math.h"

namespace sollens {

GpuTimeline compute_gpu_timeline(const EventStore& s, const TraceTree& tree,
                                 const GpuTimelineOptions& options) {
  IntervalList computation, communication, memcpy, all;
  std::vector<int8_t> class_by_name;  // cached per interned name; -1 = not yet known
  GpuTimeline t;
  for (uint32_t e : tree.gpu_events) {
    if (!tree.in_tree[e] && !options.include_unlinked) continue;
    if (options.only_pid && s.pid[e] != *options.only_pid) continue;
    if (options.recompute_flags && ((*options.recompute_flags)[e] != 0) != options.only_recompute) continue;
    const Interval interval{s.ts[e], s.t_end(e)};
    // The class depends on category and name; memcpy rows never share names with kernels.
    GpuClass cls;
    if (s.category[e] == Category::kKernel) {
      if (s.name[e] >= class_by_name.size()) class_by_name.resize(s.name[e] + 256, -1);
      int8_t& cached = class_by_name[s.name[e]];
      if (cached < 0) cached = static_cast<int8_t>(classify_gpu_event(Category::kKernel, s.name_of(e)));
      cls = static_cast<GpuClass>(cached);
    } else {
      cls = classify_gpu_event(s.category[e], s.name_of(e));
    }
    (cls == GpuClass::kMemcpy ? memcpy : cls == GpuClass::kCommunication ? communication
                                                                         : computation)
        .push_back(interval);
    all.push_back(interval);
    ++t.events;
  }
  computation = merge_intervals(std::move(computation));
  communication = merge_intervals(std::move(communication));
  memcpy = merge_intervals(std::move(memcpy));
  all = merge_intervals(std::move(all));

  t.total_us = all.empty() ? 0.0 : all.back().end - all.front().start;
  t.computation_us = total_length(computation);
  t.exposed_comm_us = total_length(subtract_intervals(communication, computation));
  t.exposed_memcpy_us =
      total_length(subtract_intervals(subtract_intervals(memcpy, computation), communication));
  t.busy_us = total_length(all);
  t.idle_us = t.total_us - t.busy_us;
  t.total_comm_us = total_length(communication);
  t.total_memcpy_us = total_length(memcpy);
  if (options.micro_idle_threshold_us) {
    double micro = 0, macro = 0;
    for (size_t i = 1; i < all.size(); ++i) {
      const double gap = all[i].start - all[i - 1].end;
      (gap < *options.micro_idle_threshold_us ? micro : macro) += gap;
    }
    t.micro_idle_us = micro;
    t.macro_idle_us = macro;
  }
  return t;
}

namespace {

// Appends the rows of one timeline; `is_recompute` (when given) gets its value.
void append_timeline_rows(Table& table, const GpuTimeline& t, Column* is_recompute, bool recompute) {
  std::vector<std::pair<const char*, double>> rows = {
      {"computation_time", t.computation_us}, {"exposed_comm_time", t.exposed_comm_us},
      {"exposed_memcpy_time", t.exposed_memcpy_us}, {"busy_time", t.busy_us},
  };
  if (t.micro_idle_us) {
    rows.push_back({"micro_idle_time", *t.micro_idle_us});
    rows.push_back({"macro_idle_time", *t.macro_idle_us});
  } else {
    rows.push_back({"idle_time", t.idle_us});
  }
  rows.insert(rows.end(), {{"total_time", t.total_us},
                           {"total_comm_time", t.total_comm_us},
                           {"total_memcpy_time", t.total_memcpy_us}});
  Column& type = table.column(0);
  Column& ms = table.column(1);
  Column& percent = table.column(2);
  for (const auto& [name, us] : rows) {
    type.push_string(name);
    ms.push_float(us / 1e3);
    // TraceLens divides the µs values; empty when there is no GPU time.
    if (t.total_us > 0) percent.push_float(us / t.total_us * 100);
    else percent.push_null();
    if (is_recompute) is_recompute->push_bool(recompute);
  }
}

Table empty_timeline_table() {
  Table table("gpu_timeline", TableKind::kTimeline);
  table.add_column("type", ColumnType::kString);
  table.add_column("time ms", ColumnType::kFloat, Unit::kMilliseconds);
  table.add_column("percent", ColumnType::kFloat, Unit::kPercent);
  return table;
}

}  // namespace

Table gpu_timeline_table(const GpuTimeline& t) {
  Table table = empty_timeline_table();
  append_timeline_rows(table, t, nullptr, false);
  return table;
}

Table gpu_timeline_table(const GpuTimeline& rest, const GpuTimeline& recompute) {
  Table table = empty_timeline_table();
  Column& is_recompute = table.add_column("is_recompute", ColumnType::kBool);
  append_timeline_rows(table, rest, &is_recompute, false);
  append_timeline_rows(table, recompute, &is_recompute, true);
  return table;
}

}  // namespace sollens
