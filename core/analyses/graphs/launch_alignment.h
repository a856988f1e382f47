#pragma once
// Aligning the kernels a graph replayed with the launches that made them, by kernel
// name and order (graph_replay_map.h says where those launches come from).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sollens {

// Matching tolerates this many extra or missing kernels in a row on either side.
inline constexpr size_t kReplayLookAhead = 8;

enum class LaunchKind : uint8_t { kKernel, kMemcpy, kMemset };

// One kernel (or copy / set) on either side of the alignment.
struct LaunchItem {
  uint32_t event = 0;
  LaunchKind kind = LaunchKind::kKernel;
  std::string_view name;  // "" on a capture-time launch whose kernel is not named: matches any kernel
  std::string_view grid;  // args.grid as written, "" when absent
  double ts = 0;
};

bool launches_match(const LaunchItem& source, const LaunchItem& replayed);

struct AlignmentScore {
  size_t matched = 0;
  size_t other_grid = 0;  // matched pairs whose grids are both known and differ
  // Worse: fewer matched, then more of them with another grid.
  bool operator<(const AlignmentScore& o) const {
    return matched != o.matched ? matched < o.matched : other_grid > o.other_grid;
  }
};

struct Alignment {
  // Per replayed kernel (the streams back to back): index into the source launches, or -1.
  std::vector<int32_t> source_of_kernel;
  std::vector<uint8_t> other_grid;  // per replayed kernel: matched with another grid
  AlignmentScore score;
};

// Walks the source launches in order. Each goes to the stream whose next kernel it
// matches (the earliest of them); when none does, it is an extra launch (no kernel in
// the replay) if one of the next kReplayLookAhead launches matches a stream's next
// kernel sooner than it matches a kernel up to kReplayLookAhead ahead on a stream
// (those kernels skipped: not in the source); else it is skipped.
Alignment align_launches(const std::vector<std::vector<LaunchItem>>& replay_streams,
                         std::span<const LaunchItem> source);

struct EagerMatch {
  Alignment alignment;          // indices into `run`
  std::vector<LaunchItem> run;  // the chosen eager windows, back to back
};

// The eager kernels of a trace, per stream, indexed by name.
class EagerRuns {
 public:
  explicit EagerRuns(std::vector<std::vector<LaunchItem>> streams);
  bool empty() const { return streams_.empty(); }
  // The eager kernels that best match a replay, stream by stream: for each replay stream
  // the window of an eager stream starting where its rarest kernel name (the fewest
  // eager occurrences) says it should, at up to 16 places.
  EagerMatch find(const std::vector<std::vector<LaunchItem>>& replay_streams) const;

 private:
  std::vector<size_t> candidate_starts(const std::vector<LaunchItem>& replay, size_t stream) const;
  std::vector<std::vector<LaunchItem>> streams_;
  std::vector<std::unordered_map<std::string_view, std::vector<size_t>>> where_;  // per stream: name -> positions
};

}  // namespace sollens
