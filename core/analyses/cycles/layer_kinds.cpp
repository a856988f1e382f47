#include "analyses/cycles/layer_kinds.h"

#include <algorithm>
#include <optional>

#include "analyses/cycles/cycle_windows.h"

namespace sollens {

using namespace cycle_windows;

namespace {

// Runs of back-to-back layer windows inside the first step (an extra kernel inside a
// layer keeps the run going): where each starts and how many windows it holds.
struct LayerRun {
  uint32_t start = 0, end = 0;  // kernel indices, end exclusive
  uint32_t windows = 0;
};

std::vector<LayerRun> first_step_runs(const CyclePattern& p) {
  std::vector<LayerRun> runs;
  const uint32_t o = p.outer.start, end = p.outer.start + p.outer.length, length = p.layer->length;
  for (uint32_t s : p.layer->starts) {
    if (s < o || s + length > end) continue;
    if (runs.empty() || s > runs.back().end + 1) runs.push_back({s, s, 0});
    runs.back().end = s + length;
    ++runs.back().windows;
  }
  return runs;
}

// The distance most run starts share (the median gap), when at least half of the gaps
// are within the tolerance of it; 0 otherwise.
uint32_t common_gap(const std::vector<LayerRun>& runs, size_t pct) {
  std::vector<uint32_t> gaps;
  for (size_t i = 1; i < runs.size(); ++i) gaps.push_back(runs[i].start - runs[i - 1].start);
  if (gaps.size() < 2) return 0;
  std::vector<uint32_t> sorted = gaps;
  std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
  const uint32_t g = sorted[sorted.size() / 2];
  const size_t tol = tolerance(g, pct);
  size_t near = 0;
  for (uint32_t x : gaps) near += (x > g ? x - g : g - x) <= tol;
  return near * 2 >= gaps.size() ? g : 0;
}

// The layers of a kind in a run before the other kinds take over: more than this and
// the runs are passes of the network (guidance runs 38 blocks twice), not layer kinds.
constexpr uint32_t kMaxLayersOfOneKind = 8;

// Layers in the hole between two runs: k when its kernels repeat k times (k <= 4),
// else one layer of the other kind.
uint32_t layers_in_hole(const Ids& sig, uint32_t begin, uint32_t size, double share) {
  for (uint32_t k = 4; k >= 2; --k) {
    if (size % k || size / k < 2) continue;
    const uint32_t part = size / k;
    bool repeats = true;
    for (uint32_t i = 1; i < k && repeats; ++i) repeats = windows_match(sig, begin, begin + i * part, part, share);
    if (repeats) return k;
  }
  return 1;
}

}  // namespace

bool merge_alternating_kinds(const KernelSequence& seq, CyclePattern& p, const CycleOptions& opt) {
  if (!p.layer || p.layers_of_kinds > 1 || p.outer.repetitions() == 0) return false;
  const std::vector<LayerRun> runs = first_step_runs(p);
  if (runs.size() < 3) return false;
  const uint32_t period = common_gap(runs, opt.sub_gap_tolerance_pct);
  if (period == 0) return false;
  // A run followed by the next one a period later, with a hole of another kind (at
  // least a short layer) between them.
  const LayerRun* seed = nullptr;
  for (size_t i = 1; i < runs.size() && !seed; ++i)
    if (runs[i].start - runs[i - 1].start == period && runs[i - 1].windows <= kMaxLayersOfOneKind &&
        runs[i].start >= runs[i - 1].end + opt.min_sub_length)
      seed = &runs[i - 1];
  if (!seed) return false;
  // The periodic run of kernels around it.
  const Ids& sig = seq.sig;
  const uint32_t o = p.outer.start, end = p.outer.start + p.outer.length;
  uint32_t a = seed->start, b = seed->start + period;
  while (a > o && sig[a - 1] == sig[a - 1 + period]) --a;
  while (b < end && sig[b] == sig[b - period]) ++b;
  const uint32_t periods = (b - a) / period;
  if (periods < 2) return false;
  // Tile from the run's start or its end; keep the tiling with more windows (the
  // start on ties).
  std::optional<CyclePattern> best;
  for (uint32_t ref : {a, b - periods * period}) {
    CyclePattern q = p;
    q.layer.reset();
    collect_layers(seq, q, ref, period, opt);
    if (q.layer && (!best || q.layer->repetitions() > best->layer->repetitions())) best = std::move(q);
  }
  if (!best || best->layers_per_outer < 2) return false;
  best->layers_of_kinds =
      seed->windows + layers_in_hole(sig, seed->end, seed->start + period - seed->end, opt.sub_match);
  p = std::move(*best);
  return true;
}

void drop_duplicate_patterns(std::vector<CyclePattern>& patterns) {
  std::vector<CyclePattern> kept;
  for (CyclePattern& p : patterns) {
    const bool same = std::any_of(kept.begin(), kept.end(), [&](const CyclePattern& k) {
      return k.outer.length == p.outer.length && k.outer.starts == p.outer.starts &&
             k.layer.has_value() == p.layer.has_value() &&
             (!k.layer || (k.layer->length == p.layer->length && k.layer->starts == p.layer->starts));
    });
    if (!same) kept.push_back(std::move(p));
  }
  patterns = std::move(kept);
}

}  // namespace sollens
