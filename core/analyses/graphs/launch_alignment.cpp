#include "analyses/graphs/launch_alignment.h"

#include <algorithm>
#include <optional>

namespace sollens {

namespace {

struct StreamCursor {
  const std::vector<LaunchItem>* items;
  size_t head = 0;
  size_t offset = 0;  // of this stream's first kernel in the flattened replay
  bool done() const { return head >= items->size(); }
  const LaunchItem& next() const { return (*items)[head]; }
};

// The stream whose next kernel `source` matches (the earliest by ts), or -1.
int matching_stream(const std::vector<StreamCursor>& streams, const LaunchItem& source) {
  int best = -1;
  for (size_t s = 0; s < streams.size(); ++s) {
    if (streams[s].done() || !launches_match(source, streams[s].next())) continue;
    if (best < 0 || streams[s].next().ts < streams[static_cast<size_t>(best)].next().ts) best = static_cast<int>(s);
  }
  return best;
}

// How many source launches past `i` come before one that matches a stream's next kernel.
std::optional<size_t> source_skip(const std::vector<StreamCursor>& streams, std::span<const LaunchItem> source, size_t i) {
  for (size_t d = 1; d <= kReplayLookAhead && i + d < source.size(); ++d)
    if (matching_stream(streams, source[i + d]) >= 0) return d;
  return std::nullopt;
}

struct ReplaySkip {
  size_t stream = 0, kernels = 0;
};
// The fewest kernels to skip on one stream before a kernel that `source` matches.
std::optional<ReplaySkip> replay_skip(const std::vector<StreamCursor>& streams, const LaunchItem& source) {
  std::optional<ReplaySkip> best;
  for (size_t s = 0; s < streams.size(); ++s) {
    const StreamCursor& c = streams[s];
    for (size_t d = 1; d <= kReplayLookAhead && c.head + d < c.items->size(); ++d) {
      if (!launches_match(source, (*c.items)[c.head + d])) continue;
      if (!best || d < best->kernels) best = ReplaySkip{s, d};
      break;
    }
  }
  return best;
}

void pair(StreamCursor& c, const LaunchItem& source, size_t source_index, Alignment& out) {
  const size_t k = c.offset + c.head;
  out.source_of_kernel[k] = static_cast<int32_t>(source_index);
  ++out.score.matched;
  const std::string_view grid = c.next().grid;
  if (!grid.empty() && !source.grid.empty() && grid != source.grid) {
    out.other_grid[k] = 1;
    ++out.score.other_grid;
  }
  ++c.head;
}

}  // namespace

bool launches_match(const LaunchItem& source, const LaunchItem& replayed) {
  if (source.kind != replayed.kind) return false;
  return source.kind != LaunchKind::kKernel || source.name.empty() || source.name == replayed.name;
}

Alignment align_launches(const std::vector<std::vector<LaunchItem>>& replay_streams,
                         std::span<const LaunchItem> source) {
  std::vector<StreamCursor> streams;
  size_t kernels = 0;
  for (const auto& items : replay_streams) {
    streams.push_back({&items, 0, kernels});
    kernels += items.size();
  }
  Alignment out;
  out.source_of_kernel.assign(kernels, -1);
  out.other_grid.assign(kernels, 0);
  for (size_t i = 0; i < source.size(); ++i) {
    if (const int s = matching_stream(streams, source[i]); s >= 0) {
      pair(streams[static_cast<size_t>(s)], source[i], i, out);
      continue;
    }
    const std::optional<ReplaySkip> skip = replay_skip(streams, source[i]);
    const std::optional<size_t> extra = source_skip(streams, source, i);
    if (!skip || (extra && *extra <= skip->kernels)) continue;  // a launch the replay does not have
    StreamCursor& c = streams[skip->stream];
    c.head += skip->kernels;  // kernels the source does not have stay unmapped
    pair(c, source[i], i, out);
  }
  return out;
}

EagerRuns::EagerRuns(std::vector<std::vector<LaunchItem>> streams) : streams_(std::move(streams)) {
  where_.resize(streams_.size());
  for (size_t s = 0; s < streams_.size(); ++s)
    for (size_t i = 0; i < streams_[s].size(); ++i) where_[s][streams_[s][i].name].push_back(i);
}

// Where a replay stream should start in an eager stream: at each occurrence of its
// rarest kernel name, less that name's position in the replay.
std::vector<size_t> EagerRuns::candidate_starts(const std::vector<LaunchItem>& replay, size_t stream) const {
  const std::vector<size_t>* rarest = nullptr;
  size_t anchor = 0;
  for (size_t i = 0; i < replay.size(); ++i) {
    const auto it = where_[stream].find(replay[i].name);
    if (it == where_[stream].end() || (rarest && rarest->size() <= it->second.size())) continue;
    rarest = &it->second;
    anchor = i;
  }
  std::vector<size_t> starts;
  if (!rarest) return starts;
  for (size_t p : *rarest) {
    starts.push_back(p > anchor ? p - anchor : 0);
    if (starts.size() == 16) break;
  }
  starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
  return starts;
}

EagerMatch EagerRuns::find(const std::vector<std::vector<LaunchItem>>& replay_streams) const {
  EagerMatch out;
  for (const auto& replay : replay_streams) {
    const std::vector<std::vector<LaunchItem>> one{replay};
    Alignment best;
    std::span<const LaunchItem> best_window;
    for (size_t s = 0; s < streams_.size(); ++s) {
      const std::vector<LaunchItem>& eager = streams_[s];
      for (size_t start : candidate_starts(replay, s)) {
        const size_t length = std::min(eager.size() - start, replay.size() + 2 * kReplayLookAhead);
        const std::span<const LaunchItem> window(eager.data() + start, length);
        Alignment a = align_launches(one, window);
        if (best_window.empty() || best.score < a.score) {
          best = std::move(a);
          best_window = window;
        }
      }
    }
    if (best_window.empty()) {
      best.source_of_kernel.assign(replay.size(), -1);
      best.other_grid.assign(replay.size(), 0);
    }
    const auto base = static_cast<int32_t>(out.run.size());
    for (size_t k = 0; k < replay.size(); ++k) {
      const int32_t c = best.source_of_kernel[k];
      out.alignment.source_of_kernel.push_back(c < 0 ? -1 : c + base);
      out.alignment.other_grid.push_back(best.other_grid[k]);
    }
    out.alignment.score.matched += best.score.matched;
    out.alignment.score.other_grid += best.score.other_grid;
    out.run.insert(out.run.end(), best_window.begin(), best_window.end());
  }
  return out;
}

}  // namespace sollens
