#include "analyses/graphs/graph_replay_map.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <tuple>

#include "analyses/graphs/capture_regions.h"
#include "analyses/graphs/launch_alignment.h"
#include "analyses/graphs/launch_items.h"
#include "analyses/ops/kernel_launchers.h"

namespace sollens {

namespace {

// GPU events per stream by ts, streams by their first kernel.
std::vector<std::vector<uint32_t>> by_stream(const EventStore& s, std::vector<uint32_t> events) {
  std::stable_sort(events.begin(), events.end(), [&](uint32_t a, uint32_t b) {
    return std::pair(s.stream[a], s.ts[a]) < std::pair(s.stream[b], s.ts[b]);
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
