#include "analyses/ops/kernel_launchers.h"

#include <algorithm>

#include "analyses/ops/op_categories.h"
#include "store/gpu_class.h"
#include "base/interval_math.h"
#include "model/flat_index.h"

namespace sollens {

std::optional<uint32_t> launcher_of_gpu_event(const EventStore& s, const TraceTree& tree,
                                              uint32_t gpu_event) {
  const int32_t runtime = tree.parent[gpu_event];
  if (runtime == kNoParent) return std::nullopt;
  int32_t cur = tree.parent[static_cast<size_t>(runtime)];
  while (cur != kNoParent) {
    const auto c = static_cast<size_t>(cur);
    const Category cat = s.category[c];
    if (cat == Category::kCpuOp) {
      if (s.name_of(c) != "execute") return static_cast<uint32_t>(cur);
    } else if (cat != Category::kPythonFunction) {
      break;
    }
    cur = tree.parent[c];
  }
  return static_cast<uint32_t>(runtime);
}

void append_subtree_gpu_events(const EventStore& s, const TraceTree& tree, uint32_t event,
                               std::vector<uint32_t>& out, std::vector<uint32_t>& stack) {
  stack.assign(1, event);
  while (!stack.empty()) {
    const uint32_t e = stack.back();
    stack.pop_back();
    // GPU events are children of runtime events only, and have no children.
    for (uint32_t c : tree.children(e)) {
      if (is_gpu_activity(s.category[c])) out.push_back(c);
      else stack.push_back(c);
    }
  }
}

double busy_time_us(const EventStore& s, std::span<const uint32_t> events) {
  IntervalList intervals;
  intervals.reserve(events.size());
  for (uint32_t e : events) intervals.push_back({s.ts[e], s.t_end(e)});
  return total_length(merge_intervals(std::move(intervals)));
}

bool is_gpu_only_trace(const EventStore& s) {
  for (Category c : s.category)
    if (c == Category::kCpuOp || c == Category::kPythonFunction) return false;
  return true;
}

LauncherTable find_kernel_launchers(const EventStore& s, const TraceTree& tree) {
  LauncherTable table;
  FlatIndex<int64_t, IdHash> index_of_launcher;  // while the launchers are found
  std::vector<int8_t> collective_by_name;  // cached per interned name; -1 = unknown
  for (uint32_t g : tree.gpu_events) {
    if (s.name[g] >= collective_by_name.size()) collective_by_name.resize(s.name[g] + 256, -1);
    int8_t& collective = collective_by_name[s.name[g]];
    if (collective < 0) collective = is_collective_kernel_name(s.name_of(g)) ? 1 : 0;
    if (collective) continue;
    const auto launcher = launcher_of_gpu_event(s, tree, g);
    if (!launcher) continue;
    std::optional<uint32_t> index = index_of_launcher.find(*launcher);
    if (!index) {
      index = static_cast<uint32_t>(table.launchers.size());
      index_of_launcher.insert_if_absent(*launcher, *index);
      table.launchers.push_back({});
      table.launchers.back().event = *launcher;
    }
    table.launchers[*index].kernels.push_back(g);
  }
  // By ts, stable: ties keep the order of their first kernel (Python's sorted()).
  std::stable_sort(table.launchers.begin(), table.launchers.end(),
                   [&](const KernelLauncher& a, const KernelLauncher& b) {
                     return s.ts[a.event] < s.ts[b.event];
                   });
  index_of_launcher = FlatIndex<int64_t, IdHash>();
  std::vector<std::pair<uint32_t, int32_t>> index_pairs;
  index_pairs.reserve(table.launchers.size());
  std::vector<uint32_t> subtree, stack;
  for (size_t i = 0; i < table.launchers.size(); ++i) {
    KernelLauncher& l = table.launchers[i];
    index_pairs.emplace_back(l.event, static_cast<int32_t>(i));
    std::stable_sort(l.kernels.begin(), l.kernels.end(),
                     [&](uint32_t a, uint32_t b) { return s.ts[a] < s.ts[b]; });
    l.direct_time_us = busy_time_us(s, l.kernels);
    subtree.clear();
    append_subtree_gpu_events(s, tree, l.event, subtree, stack);
    l.subtree_time_us = busy_time_us(s, subtree);
    l.category = categorize_op(s.name_of(l.event), s.name_of(l.kernels.front()));
  }
  table.launcher_index = RowMap::from_pairs(s.size(), std::move(index_pairs));
  return table;
}

}  // namespace sollens
