// The lanes and the events placed on them: one pass over the store, one sort.
#include <algorithm>
#include <charconv>
#include <string>
#include <unordered_map>

#include "analyses/ops/kernel_launchers.h"
#include "analyses/time_axis/time_axis_parts.h"
#include "store/gpu_class.h"

namespace sollens::time_axis {
namespace {

bool on_cpu_lane(Category c) { return c == Category::kCpuOp || c == Category::kUserAnnotation; }

// The lane kind an event is drawn on, or false when it is not drawn.
bool lane_kind_of(const EventStore& s, const TraceTree& tree, size_t i, LaneKind& kind) {
  if (s.phase[i] != Phase::kComplete) return false;
  const Category c = s.category[i];
  if (on_cpu_lane(c)) {
    kind = LaneKind::kCpu;
    return tree.in_tree[i] != 0;  // dropped ops would overlap their neighbours
  }
  if (is_runtime(c)) {
    kind = LaneKind::kRuntime;
    return true;
  }
  if (is_gpu_activity(c)) {
    kind = LaneKind::kGpu;
    return true;
  }
  return false;
}

uint64_t lane_key(const EventStore& s, size_t i, LaneKind kind) {
  const uint32_t stream = s.stream[i] == kNoValue ? ~uint32_t{0} : static_cast<uint32_t>(s.stream[i]);
  const uint64_t second = kind == LaneKind::kGpu ? stream : s.tid[i];
  return (static_cast<uint64_t>(kind) << 62) ^ (static_cast<uint64_t>(s.pid[i]) << 32) ^ second;
}

// Events on the same lane: the number of same-lane ancestors (CPU ops under CPU ops,
// runtime calls under runtime calls); memoised per lane kind (memo[r]: the count above
// r), so each ancestor chain is walked once.
uint32_t depth_of(const EventStore& s, const TraceTree& tree, uint32_t row, LaneKind kind,
                  std::vector<int32_t> (&memos)[2]) {
  if (kind == LaneKind::kGpu) return 0;
  std::vector<int32_t>& memo = memos[kind == LaneKind::kCpu ? 0 : 1];
  auto same_lane = [&](uint32_t r) {
    return kind == LaneKind::kCpu ? on_cpu_lane(s.category[r]) : is_runtime(s.category[r]);
  };
  std::vector<uint32_t> chain;
  int32_t p = tree.parent[row];
  uint32_t found = 0;
  while (p != kNoParent) {
    const uint32_t pr = static_cast<uint32_t>(p);
    if (memo[pr] >= 0) {
      found = static_cast<uint32_t>(memo[pr]) + (same_lane(pr) ? 1 : 0);
      break;
    }
    chain.push_back(pr);
    p = tree.parent[pr];
  }
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    memo[*it] = static_cast<int32_t>(found);
    if (same_lane(*it)) ++found;
  }
  memo[row] = static_cast<int32_t>(found);
  return found;
}

// Numbers by value, other text after them alphabetically.
bool id_less(std::string_view a, std::string_view b) {
  int64_t x = 0, y = 0;
  const bool na = std::from_chars(a.data(), a.data() + a.size(), x).ec == std::errc{};
  const bool nb = std::from_chars(b.data(), b.data() + b.size(), y).ec == std::errc{};
  if (na != nb) return na;
  return na ? x < y : a < b;
}

bool lane_less(const EventStore& s, const Lane& a, const Lane& b) {
  if (a.kind != b.kind) return a.kind < b.kind;
  if (a.kind == LaneKind::kGpu) {
    if (a.device != b.device) return a.device < b.device;
    if (a.pid != b.pid) return id_less(s.str(a.pid), s.str(b.pid));
    return a.stream < b.stream;
  }
  if (a.pid != b.pid) return id_less(s.str(a.pid), s.str(b.pid));
  return id_less(s.str(a.tid), s.str(b.tid));
}

// The lanes in sheet order; `events[].lane` renumbered to match.
void order_lanes(const EventStore& s, Placement& p) {
  std::vector<uint32_t> order(p.lanes.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return lane_less(s, p.lanes[a], p.lanes[b]); });
  std::vector<uint32_t> new_index(order.size());
  std::vector<Lane> lanes;
  lanes.reserve(order.size());
  for (uint32_t i = 0; i < order.size(); ++i) {
    new_index[order[i]] = i;
    lanes.push_back(p.lanes[order[i]]);
  }
  p.lanes = std::move(lanes);
  for (Placed& e : p.events) e.lane = new_index[e.lane];
}

}  // namespace

const char* lane_kind_name(LaneKind kind) {
  switch (kind) {
    case LaneKind::kCpu: return "cpu";
    case LaneKind::kRuntime: return "runtime";
    case LaneKind::kGpu: return "gpu";
  }
  return "";
}

std::string lane_label(const EventStore& s, const Lane& lane) {
  const std::string tid(s.str(lane.tid));
  switch (lane.kind) {
    case LaneKind::kCpu: return "CPU thread " + tid;
    case LaneKind::kRuntime: return "launches, thread " + tid;
    case LaneKind::kGpu: {
      const std::string device = lane.device != kNoValue ? std::to_string(lane.device) : std::string(s.str(lane.pid));
      const std::string stream = lane.stream != kNoValue ? std::to_string(lane.stream) : std::string("?");
      return "GPU " + device + " · stream " + stream;
    }
  }
  return "";
}

Placement place_events(const EventStore& s, const TraceTree& tree) {
  Placement p;
  std::unordered_map<uint64_t, uint32_t> lane_of_key;
  std::vector<int32_t> memo[2];  // CPU lanes, runtime lanes: filled as needed
  memo[0].assign(s.size(), -1);
  memo[1].assign(s.size(), -1);
  uint64_t last_key = ~uint64_t{0};
  uint32_t last_lane = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    LaneKind kind{};
    if (!lane_kind_of(s, tree, i, kind)) continue;
    const uint64_t key = lane_key(s, i, kind);
    if (key != last_key) {  // events come in runs of one lane: one lookup per run
      auto [it, added] = lane_of_key.try_emplace(key, static_cast<uint32_t>(p.lanes.size()));
      if (added) p.lanes.push_back({kind, s.pid[i], kind == LaneKind::kGpu ? kEmptyStr : s.tid[i],
                                    kind == LaneKind::kGpu ? s.stream[i] : kNoValue,
                                    kind == LaneKind::kGpu ? s.device[i] : kNoValue, 0});
      last_key = key;
      last_lane = it->second;
    }
    const uint32_t row = static_cast<uint32_t>(i);
    const uint32_t depth = depth_of(s, tree, row, kind, memo);
    Lane& lane = p.lanes[last_lane];
    lane.depths = std::max(lane.depths, depth + 1);
    if (kind == LaneKind::kGpu && lane.device == kNoValue) lane.device = s.device[i];
    p.events.push_back({row, last_lane, depth});
  }
  order_lanes(s, p);
  std::sort(p.events.begin(), p.events.end(), [&](const Placed& a, const Placed& b) {
    if (a.lane != b.lane) return a.lane < b.lane;
    if (s.ts[a.row] != s.ts[b.row]) return s.ts[a.row] < s.ts[b.row];
    if (a.depth != b.depth) return a.depth < b.depth;  // the parent first
    return a.row < b.row;
  });
  p.sheet_row_of.assign(s.size(), -1);
  for (size_t r = 0; r < p.events.size(); ++r) p.sheet_row_of[p.events[r].row] = static_cast<int32_t>(r);
  return p;
}

std::vector<std::string_view> gpu_categories(const EventStore& s, const TraceTree& tree) {
  std::vector<std::string_view> out(s.size());
  const LauncherTable launchers = find_kernel_launchers(s, tree);
  for (const KernelLauncher& l : launchers.launchers)
    for (uint32_t k : l.kernels) out[k] = l.category;
  for (uint32_t g : tree.gpu_events) {
    const Category c = s.category[g];
    if (c == Category::kGpuMemcpy) out[g] = "memcpy";
    else if (c == Category::kGpuMemset) out[g] = "memset";
    else if (is_collective_kernel_name(s.name_of(g))) out[g] = "communication";
    else if (out[g].empty()) out[g] = "other";
  }
  return out;
}

}  // namespace sollens::time_axis
