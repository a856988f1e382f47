#include "analyses/graphs/graph_replay_map.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <tuple>

#include "analyses/graphs/launch_alignment.h"
#include "analyses/ops/kernel_launchers.h"
#include "store/raw_args.h"

namespace sollens {

namespace {

bool is_graph_launch(std::string_view name) {
  return name.size() >= 11 && name.substr(name.size() - 11) == "GraphLaunch";
}

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// What a runtime event puts on a stream, if it is a launch a graph can hold.
std::optional<LaunchKind> launch_kind_of_runtime(std::string_view name) {
  if (contains(name, "Graph")) return std::nullopt;
  if (contains(name, "Launch") && contains(name, "Kernel")) return LaunchKind::kKernel;
  if (contains(name, "Memcpy")) return LaunchKind::kMemcpy;
  if (contains(name, "Memset")) return LaunchKind::kMemset;
  return std::nullopt;
}

LaunchKind launch_kind_of_gpu_event(Category c) {
  if (c == Category::kGpuMemcpy) return LaunchKind::kMemcpy;
  if (c == Category::kGpuMemset) return LaunchKind::kMemset;
  return LaunchKind::kKernel;
}

bool has_gpu_child(const EventStore& s, const TraceTree& tree, uint32_t event) {
  for (uint32_t c : tree.children(event))
    if (is_gpu_activity(s.category[c])) return true;
  return false;
}

// Kernel name and grid of launches and GPU events, read from their args.
class LaunchReader {
 public:
  explicit LaunchReader(const EventStore& s) : s_(s), args_(s) {}

  LaunchItem gpu_event(uint32_t g) {
    LaunchItem item{g, launch_kind_of_gpu_event(s_.category[g]), s_.name_of(g), {}, s_.ts[g]};
    item.grid = raw(g, "grid");
    return item;
  }
  // A runtime launch recorded at capture time: the kernel's name is in args.kernel
  // (ROCm); a CUDA trace has none and matches any kernel.
  LaunchItem capture_launch(uint32_t r, LaunchKind kind) {
    LaunchItem item{r, kind, {}, {}, s_.ts[r]};
    if (kind == LaunchKind::kKernel) item.name = unquote(raw(r, "kernel"));
    item.grid = raw(r, "grid");
    return item;
  }

 private:
  std::string_view raw(uint32_t event, std::string_view key) {
    std::string_view value;
    if (!s_.has_args(event) || !args_.find_raw(event, std::span(&key, 1), std::span(&value, 1))) return {};
    return value;
  }
  static std::string_view unquote(std::string_view v) {
    return v.size() >= 2 && v.front() == '"' ? v.substr(1, v.size() - 2) : v;
  }
  const EventStore& s_;
  ArgsReader args_;
};

// GPU events per stream by ts, streams by their first kernel.
std::vector<std::vector<uint32_t>> by_stream(const EventStore& s, std::vector<uint32_t> events) {
  std::stable_sort(events.begin(), events.end(), [&](uint32_t a, uint32_t b) {
    return std::tie(s.stream[a], s.ts[a]) < std::tie(s.stream[b], s.ts[b]);
  });
  std::vector<std::vector<uint32_t>> streams;
  for (size_t i = 0; i < events.size(); ++i) {
    if (i == 0 || s.stream[events[i]] != s.stream[events[i - 1]]) streams.emplace_back();
    streams.back().push_back(events[i]);
  }
  std::sort(streams.begin(), streams.end(),
            [&](const auto& a, const auto& b) { return s.ts[a.front()] < s.ts[b.front()]; });
  return streams;
}

std::vector<GraphReplay> find_graph_replays(const EventStore& s, const TraceTree& tree,
                                            std::vector<std::vector<std::vector<uint32_t>>>& streams_of) {
  std::vector<GraphReplay> replays;
  for (uint32_t r = 0; r < s.size(); ++r) {
    if (!is_runtime(s.category[r]) || !is_graph_launch(s.name_of(r))) continue;
    std::vector<uint32_t> gpu;
    for (uint32_t c : tree.children(r))
      if (is_gpu_activity(s.category[c])) gpu.push_back(c);
    if (gpu.empty()) continue;
    GraphReplay& replay = replays.emplace_back();
    replay.launch = r;
    streams_of.push_back(by_stream(s, std::move(gpu)));
    for (const auto& stream : streams_of.back()) replay.kernels.insert(replay.kernels.end(), stream.begin(), stream.end());
    replay.source_launch.assign(replay.kernels.size(), kUnmapped);
    replay.kernel_us = busy_time_us(s, replay.kernels);
  }
  return replays;
}

// The batch size a serving framework writes into its step and capture annotations:
// `execute_32_context_…` around a replay (vLLM, SGLang), `capture_32_FULL` /
// `capture_32_DECODE` around a capture. -1 when the name is not of that form.
int64_t batch_in_name(std::string_view name, std::string_view prefix) {
  if (!name.starts_with(prefix)) return -1;
  int64_t batch = 0;
  size_t i = prefix.size();
  for (; i < name.size() && name[i] >= '0' && name[i] <= '9' && batch < (int64_t{1} << 40); ++i) batch = batch * 10 + (name[i] - '0');
  const bool ends = i == name.size() || name[i] == '_';
  return i > prefix.size() && ends ? batch : -1;
}

// The annotations of one prefix that carry a batch size, and the batch around an event.
class BatchMarks {
 public:
  BatchMarks(const EventStore& s, std::string_view prefix) : s_(s) {
    for (uint32_t e = 0; e < s.size(); ++e)
      if (s.category[e] == Category::kUserAnnotation && s.phase[e] == Phase::kComplete &&
          batch_in_name(s.name_of(e), prefix) >= 0)
        marks_.push_back({e, batch_in_name(s.name_of(e), prefix)});
  }
  // The innermost mark on the event's thread holding its start; -1 when none.
  int64_t around(uint32_t event) const {
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

 private:
  const EventStore& s_;
  std::vector<std::pair<uint32_t, int64_t>> marks_;
};

struct CaptureRegion {
  std::vector<LaunchItem> launches;
  int64_t batch = -1;  // from the capture annotation around it, -1 when unknown
};

// The launches recorded between each cuda/hipStreamBeginCapture and the next
// EndCapture of the same thread, that never ran (a capture records, it does not run).
// With no capture marks at all (`whole_trace_when_unmarked`), every launch that never ran.
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

std::vector<std::vector<LaunchItem>> replay_items(LaunchReader& reader, const std::vector<std::vector<uint32_t>>& streams) {
  std::vector<std::vector<LaunchItem>> items(streams.size());
  for (size_t i = 0; i < streams.size(); ++i)
    for (uint32_t g : streams[i]) items[i].push_back(reader.gpu_event(g));
  return items;
}

// Copies an alignment into the replay: each mapped kernel's launch at capture time.
void record(GraphReplay& replay, const Alignment& a, std::span<const LaunchItem> source, ReplaySource how,
            const EventStore& s, const TraceTree* eager_tree) {
  std::vector<uint32_t> mapped;
  for (size_t k = 0; k < replay.kernels.size(); ++k) {
    const int32_t c = a.source_of_kernel[k];
    if (c < 0) continue;
    const uint32_t event = source[static_cast<size_t>(c)].event;
    // An eager match is a GPU event: what maps is the launch that ran it.
    const int32_t launch = eager_tree ? eager_tree->parent[event] : static_cast<int32_t>(event);
    if (launch == kNoParent) continue;
    replay.source_launch[k] = launch;
    mapped.push_back(replay.kernels[k]);
  }
  replay.source = mapped.empty() ? ReplaySource::kNone : how;
  replay.mapped_kernels = mapped.size();
  replay.mapped_us = busy_time_us(s, mapped);
}

// A source that maps under half of a replay's kernels is another graph.
bool maps_most(const AlignmentScore& score, size_t kernels) { return score.matched > 0 && score.matched * 2 >= kernels; }

// The region (of `regions`) that maps most of the replay, then the one captured for the
// replay's batch size (when both annotations give one), then with the fewest grids that
// differ, then with the launch count nearest the replay's kernel count; -1 when none maps
// most kernels.
int best_region(const std::vector<CaptureRegion>& regions, const std::vector<std::vector<LaunchItem>>& replay,
                size_t kernels, int64_t replay_batch) {
  using Rank = std::tuple<size_t, bool, int64_t, int64_t>;  // larger is better
  int best = -1;
  Rank best_rank;
  for (size_t i = 0; i < regions.size(); ++i) {
    const size_t n = regions[i].launches.size();
    if (n * 2 < kernels || n > kernels * 2 + kReplayLookAhead) continue;  // another graph
    const AlignmentScore score = align_launches(replay, regions[i].launches).score;
    if (!maps_most(score, kernels)) continue;
    const bool same_batch = replay_batch >= 0 && regions[i].batch == replay_batch;
    const auto distance = static_cast<int64_t>(n > kernels ? n - kernels : kernels - n);
    const Rank rank{score.matched, same_batch, -static_cast<int64_t>(score.other_grid), -distance};
    if (best >= 0 && !(best_rank < rank)) continue;
    best = static_cast<int>(i);
    best_rank = rank;
  }
  return best;
}

// A replay's kernel names, stream by stream: replays with equal keys map alike.
std::string sequence_key(const EventStore& s, const std::vector<std::vector<uint32_t>>& streams) {
  std::string key;
  for (const auto& stream : streams) {
    key += std::to_string(stream.size()) + ':';
    for (uint32_t g : stream) key.append(reinterpret_cast<const char*>(&s.name[g]), sizeof(StrId));
  }
  return key;
}

void map_from_regions(const EventStore& s, const std::vector<CaptureRegion>& regions, ReplaySource how,
                      GraphReplayMap& out, const std::vector<std::vector<std::vector<uint32_t>>>& streams_of) {
  if (regions.empty()) return;
  LaunchReader reader(s);
  const BatchMarks step_marks(s, "execute_");
  std::map<std::string, int> region_of_sequence;  // same kernels, same batch: same capture
  for (size_t i = 0; i < out.replays.size(); ++i) {
    GraphReplay& replay = out.replays[i];
    if (replay.source != ReplaySource::kNone) continue;
    const auto items = replay_items(reader, streams_of[i]);
    const int64_t batch = step_marks.around(replay.launch);
    auto [it, inserted] = region_of_sequence.try_emplace(sequence_key(s, streams_of[i]) + std::to_string(batch), -1);
    if (inserted) it->second = best_region(regions, items, replay.kernels.size(), batch);
    if (it->second < 0) continue;
    const auto& region = regions[static_cast<size_t>(it->second)].launches;
    record(replay, align_launches(items, region), region, how, s, nullptr);
  }
}

bool under_graph_launch(const EventStore& s, const TraceTree& tree, uint32_t gpu_event) {
  const int32_t launch = tree.parent[gpu_event];
  return launch != kNoParent && is_graph_launch(s.name_of(static_cast<size_t>(launch)));
}

// The eager kernels (launched one by one, linked to their launch), per stream by ts.
std::vector<std::vector<LaunchItem>> eager_streams(const EventStore& s, const TraceTree& tree) {
  std::vector<uint32_t> eager;
  for (uint32_t g : tree.gpu_events)
    if (tree.parent[g] != kNoParent && !under_graph_launch(s, tree, g)) eager.push_back(g);
  LaunchReader reader(s);
  std::vector<std::vector<LaunchItem>> streams;
  for (const auto& stream : by_stream(s, std::move(eager))) {
    streams.emplace_back();
    for (uint32_t g : stream) streams.back().push_back(reader.gpu_event(g));
  }
  return streams;
}

void map_from_eager_runs(const EventStore& s, const TraceTree& tree, GraphReplayMap& out,
                         const std::vector<std::vector<std::vector<uint32_t>>>& streams_of) {
  const auto pending = [](const GraphReplay& r) { return r.source == ReplaySource::kNone; };
  if (std::none_of(out.replays.begin(), out.replays.end(), pending)) return;
  const EagerRuns eager(eager_streams(s, tree));
  if (eager.empty()) return;
  LaunchReader reader(s);
  std::map<std::string, EagerMatch> match_of_sequence;  // replays of the same kernels and grids
  for (size_t i = 0; i < out.replays.size(); ++i) {
    GraphReplay& replay = out.replays[i];
    if (!pending(replay)) continue;
    const auto items = replay_items(reader, streams_of[i]);
    std::string key = sequence_key(s, streams_of[i]);
    for (const auto& stream : items)
      for (const LaunchItem& item : stream) key.append(item.grid).push_back(';');
    auto [it, inserted] = match_of_sequence.try_emplace(std::move(key));
    if (inserted) it->second = eager.find(items);
    EagerMatch match = it->second;
    if (!maps_most(match.alignment.score, replay.kernels.size())) continue;
    // Another grid means other shapes: the eager op's estimate would not be this kernel's.
    Alignment& a = match.alignment;
    for (size_t k = 0; k < a.source_of_kernel.size(); ++k)
      if (a.other_grid[k]) a.source_of_kernel[k] = -1;
    record(replay, a, match.run, ReplaySource::kEagerRun, s, &tree);
    replay.other_grid_kernels = a.score.other_grid;
  }
}

}  // namespace

std::string_view replay_source_name(ReplaySource source) {
  switch (source) {
    case ReplaySource::kCaptureTrace: return "capture trace";
    case ReplaySource::kCaptureInTrace: return "capture in this trace";
    case ReplaySource::kEagerRun: return "eager run";
    case ReplaySource::kNone: break;
  }
  return "unmapped";
}

uint32_t launcher_of_launch(const EventStore& s, const TraceTree& tree, uint32_t launch) {
  for (int32_t cur = tree.parent[launch]; cur != kNoParent; cur = tree.parent[static_cast<size_t>(cur)]) {
    const auto c = static_cast<size_t>(cur);
    if (s.category[c] == Category::kCpuOp) {
      if (s.name_of(c) != "execute") return static_cast<uint32_t>(c);
    } else if (s.category[c] != Category::kPythonFunction) {
      break;
    }
  }
  return launch;
}

GraphReplayMap map_graph_replays(const EventStore& s, const TraceTree& tree, TraceAndTree capture) {
  GraphReplayMap out;
  out.capture_given = capture.store != nullptr;
  std::vector<std::vector<std::vector<uint32_t>>> streams_of;
  out.replays = find_graph_replays(s, tree, streams_of);
  if (out.replays.empty()) return out;
  if (capture.store) {
    const auto regions = capture_regions(*capture.store, *capture.tree, /*whole_trace_when_unmarked=*/true);
    map_from_regions(s, regions, ReplaySource::kCaptureTrace, out, streams_of);
  }
  map_from_regions(s, capture_regions(s, tree, false), ReplaySource::kCaptureInTrace, out, streams_of);
  map_from_eager_runs(s, tree, out, streams_of);
  return out;
}

}  // namespace sollens
