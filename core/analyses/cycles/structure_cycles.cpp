#include "analyses/cycles/structure_cycles.h"

#include <algorithm>
#include <limits>
#include <iterator>
#include <tuple>

#include "analyses/cycles/cycle_windows.h"

namespace sollens {

using namespace cycle_windows;

namespace {

bool covered_by(const std::vector<CyclePattern>& found, uint32_t first, uint32_t length) {
  return std::any_of(found.begin(), found.end(), [&](const CyclePattern& f) {
    return f.outer.length == length && f.outer.start <= first && first < f.outer.end();
  });
}

// Runs of an anchor's occurrences with even spacing: a run ends at the first gap
// outside the tolerance of its own first gap, and the next run starts after it.
struct Run {
  size_t first = 0, last = 0;  // indices into the occurrence list, inclusive
  uint32_t length = 0;
};

std::vector<Run> spaced_runs(std::span<const uint32_t> p, size_t pct) {
  std::vector<Run> runs;
  for (size_t i = 0; i + 1 < p.size();) {
    const uint32_t length = p[i + 1] - p[i];
    const size_t tol = tolerance(length, pct);
    size_t j = i + 1;
    while (j + 1 < p.size()) {
      const size_t gap = p[j + 1] - p[j];
      if ((gap > length ? gap - length : length - gap) > tol) break;
      ++j;
    }
    runs.push_back({i, j, length});
    i = j + 1;
  }
  return runs;
}

// Windows that follow the anchor: one per occurrence of the run, at the same offset
// from the occurrence as in the first (canonical) window; overlapping ones are skipped.
Cycle anchored_windows(const Ids& ids, std::span<const uint32_t> p, const Run& run,
                       const CycleOptions& opt) {
  const size_t n = ids.size();
  Cycle c;
  c.length = run.length;
  c.start = align_back(ids, p[run.first], run.length, 0);
  const uint32_t offset = p[run.first] - c.start;
  c.starts.push_back(c.start);
  for (size_t k = run.first + 1; k <= run.last; ++k) {
    const size_t at = p[k] - offset;
    if (at < static_cast<size_t>(c.starts.back()) + run.length) continue;
    if (at + run.length > n) break;
    if (layer_window(ids, c.start, at, run.length, n, opt.cycle_match))
      c.starts.push_back(static_cast<uint32_t>(at));
  }
  return c;
}

// One level up: both hold the same layers (about as many), and `outer` is longer
// without being a whole number of `inner` (two steps of a decode stream are not a
// level; a denoising step of two passes plus guidance and scheduler kernels is).
bool encloses(const CyclePattern& outer, const CyclePattern& inner) {
  if (!outer.layer || !inner.layer || outer.outer.length <= inner.outer.length) return false;
  if (outer.outer.length % inner.outer.length == 0) return false;
  return outer.layer->repetitions() * 20 >= inner.layer->repetitions() * 19;  // within 5 %
}

// `outer`'s layers are `inner`'s repetitions (about all of them): the layer-less
// cycle is the same layers seen without their step.
bool holds_as_layers(const CyclePattern& outer, const CyclePattern& inner) {
  if (!outer.layer || inner.layer || outer.layer->length != inner.outer.length) return false;
  return outer.layer->repetitions() * 20 >= inner.outer.repetitions() * 19;  // within 5 %
}

}  // namespace

// Structure mode's outer cycles: every evenly spaced run of an anchor is a candidate.
void find_structure_cycles(const KernelSequence& seq, const Occurrences& occ,
                           const std::vector<uint32_t>& candidates, const CycleOptions& opt,
                           std::vector<CyclePattern>& found) {
  const size_t min_run = std::max<size_t>(opt.min_anchor_count, 2);
  for (uint32_t anchor : candidates) {
    const auto p = occ.of(anchor);
    std::vector<Run> runs = spaced_runs(p, opt.gap_tolerance_pct);
    if (runs.empty()) continue;
    const size_t deviating = runs.size() - 1;
    if (runs.size() > opt.max_anchor_runs) {
      // Not a few deviating gaps but a kernel of a shorter cycle (every layer's gap to
      // the next step deviates): its longest run alone, so one verification per anchor.
      const auto longest = std::max_element(runs.begin(), runs.end(), [](const Run& a, const Run& b) {
        return a.last - a.first < b.last - b.first;
      });
      runs = {*longest};
    }
    for (const Run& run : runs) {
      if (run.last - run.first + 1 < min_run || run.length < opt.min_cycle_length) continue;
      if (covered_by(found, p[run.first], run.length)) continue;
      Cycle outer = anchored_windows(seq.name, p, run, opt);
      if (outer.repetitions() < std::max<size_t>(opt.min_repetitions, 1)) continue;
      CyclePattern pattern;
      pattern.anchor = anchor;
      pattern.deviating_gaps = static_cast<uint32_t>(deviating);
      pattern.confidence = deviating ? Confidence::kMedium : Confidence::kHigh;
      pattern.outer = std::move(outer);
      if (opt.find_sub_cycles && pattern.outer.length > opt.sub_cycle_above)
        find_layers(seq, pattern, opt);
      found.push_back(std::move(pattern));
    }
  }
}

// Three or more iterations from each anchor occurrence to the next, of different lengths: the
// shortest one's kernels found in order in each (cycle_match of them, skipping at most
// a tenth of its length: the first iteration's warm-up kernels, an extra sync). Every
// span must match, the last one too (a profile cut mid-iteration is left to the step
// marks): weaker evidence than windows of one length, it must not take a loop the
// trace marks.
// The cycle is as long as the shortest iteration.
Cycle iterations_between(const Ids& ids, std::span<const uint32_t> p, const CycleOptions& opt) {
  Cycle c;
  if (p.size() < 3) return c;  // two similar halves of a profile are no evidence of a loop
  uint32_t shortest = std::numeric_limits<uint32_t>::max();
  size_t ref = 0;
  for (size_t k = 0; k + 1 < p.size(); ++k)
    if (p[k + 1] - p[k] < shortest) shortest = p[k + 1] - p[k], ref = k;
  const size_t skip = shortest / 10;
  for (size_t k = 0; k < p.size(); ++k) {
    const bool last = k + 1 == p.size();
    const size_t b = p[k];
    const size_t b_end = last ? std::min(ids.size(), b + shortest + skip) : p[k + 1];
    const bool fits = b_end - b >= shortest && b_end - b <= shortest + skip;
    const size_t found = fits ? subsequence_matches(ids, p[ref], shortest, b, b_end, skip) : 0;
    if (static_cast<double>(found) < opt.cycle_match * static_cast<double>(shortest)) return {};
    c.starts.push_back(p[k]);
  }
  c.length = shortest;
  c.start = c.starts.empty() ? 0 : c.starts[0];
  return c;
}

// Repetitions back to back with the same kernels at every position.
bool identical_back_to_back(const Ids& ids, const Cycle& c) {
  for (size_t k = 1; k < c.starts.size(); ++k) {
    if (c.starts[k] != c.starts[0] + k * c.length) return false;
    for (uint32_t j = 0; j < c.length; ++j)
      if (ids[c.starts[k] + j] != ids[c.starts[0] + j]) return false;
  }
  return true;
}

// A long cycle seen only 2..min_repetitions−1 times (training iterations in a short
// profile): anchors that occur that often, evenly, whose windows match at
// cycle_match, together cover at least half of the sequence and overlap no pattern
// already found. A shorter one (min_cycle_length up to few_steps_min_length) only
// when its two or three repetitions are identical and back to back: the strongest
// evidence the names alone give.
void find_few_step_cycles(const KernelSequence& seq, const Occurrences& occ,
                          const CycleOptions& opt, std::vector<CyclePattern>& found) {
  const size_t n = seq.size();
  const size_t lo = std::max<size_t>(opt.few_steps_min_repetitions, 2);
  if (lo >= opt.min_repetitions) return;
  std::vector<uint32_t> candidates;
  for (uint32_t id = 0; id < seq.names.size(); ++id) {
    const size_t c = occ.of(id).size();
    if (c >= lo && c < opt.min_repetitions) candidates.push_back(id);
  }
  std::stable_sort(candidates.begin(), candidates.end(), [&](uint32_t a, uint32_t b) {
    return occ.of(a)[0] < occ.of(b)[0];
  });
  for (uint32_t anchor : candidates) {
    const auto p = occ.of(anchor);
    const Run run{0, p.size() - 1, p[1] - p[0]};
    if (run.length < opt.min_cycle_length) continue;
    const bool short_loop = run.length < opt.few_steps_min_length;
    if (!evenly_spaced(p, run.length, opt.gap_tolerance_pct)) continue;
    const bool overlaps = std::any_of(found.begin(), found.end(), [&](const CyclePattern& f) {
      return p[0] < f.outer.end() && f.outer.start < p.back() + run.length;
    });
    if (overlaps) continue;
    Cycle outer = anchored_windows(seq.name, p, run, opt);
    // Windows of one length failed: iterations of slightly different lengths.
    if (outer.repetitions() < lo && !short_loop) outer = iterations_between(seq.name, p, opt);
    if (outer.repetitions() < lo || outer.repetitions() * outer.length * 2 < n) continue;
    // Four or more short windows are a step's layers more often than its iterations
    // (bert-small's 4 layers of 12 in one ProfilerStep): the step marks find those.
    if (short_loop && (outer.repetitions() > 3 || !identical_back_to_back(seq.name, outer))) continue;
    CyclePattern pattern;
    pattern.anchor = anchor;
    pattern.few_steps = true;
    pattern.confidence = Confidence::kLow;
    pattern.outer = std::move(outer);
    if (opt.find_sub_cycles && pattern.outer.length > opt.sub_cycle_above)
      find_layers(seq, pattern, opt);
    found.push_back(std::move(pattern));
  }
}

bool joins_disjoint_repetitions(const CyclePattern& f, CyclePattern& kept) {
  if (f.layer || kept.layer || f.outer.length != kept.outer.length) return false;
  std::vector<uint32_t> starts;
  std::merge(kept.outer.starts.begin(), kept.outer.starts.end(), f.outer.starts.begin(), f.outer.starts.end(),
             std::back_inserter(starts));
  for (size_t i = 1; i < starts.size(); ++i)
    if (starts[i] < starts[i - 1] + f.outer.length) return false;  // overlapping windows
  kept.outer.starts = std::move(starts);
  kept.outer.start = kept.outer.starts[0];
  kept.deviating_gaps = std::max(kept.deviating_gaps, f.deviating_gaps);
  if (f.confidence > kept.confidence) kept.confidence = f.confidence;
  return true;
}

// Structure mode's choice between two patterns with the same layer signature: the
// enclosing level (steps over passes, steps over their own layers found alone), else
// the most repetitions.
bool replaces_in_structure(const CyclePattern& f, const CyclePattern& kept) {
  if (encloses(f, kept) || holds_as_layers(f, kept)) return true;
  if (encloses(kept, f) || holds_as_layers(kept, f)) return false;
  return f.effective().repetitions() > kept.effective().repetitions();
}

namespace {

// Kernels the steps cover, then more steps, then the surer (a second kind of layer
// nested in the same steps keeps its own anchor's confidence), then more layer
// kernels per step.
std::tuple<size_t, size_t, int, size_t> main_rank(const CyclePattern& p) {
  const size_t layer_kernels = p.layer ? p.layers_per_outer * p.layer->length : 0;
  return {p.outer.repetitions() * p.outer.length, p.outer.repetitions(), -static_cast<int>(p.confidence),
          layer_kernels};
}

}  // namespace

bool ranks_above(const CyclePattern& a, const CyclePattern& b) { return main_rank(a) > main_rank(b); }

uint32_t passes_of(const std::vector<uint32_t>& runs) {
  if (runs.size() < 2 || runs[0] < 2) return 1;
  for (uint32_t r : runs)
    if (r != runs[0]) return 1;
  return static_cast<uint32_t>(runs.size());
}

void label_main_step(std::vector<CyclePattern>& patterns) {
  CyclePattern* main = nullptr;
  for (CyclePattern& p : patterns) {
    p.phase = CyclePhase::kOther;
    if (!main || ranks_above(p, *main)) main = &p;
  }
  if (main) main->phase = CyclePhase::kStep;
}

void collect_layers(const KernelSequence& seq, CyclePattern& p, uint32_t layer_start,
                    uint32_t length, const CycleOptions& opt) {
  Cycle layer;
  layer.length = length;
  const uint32_t rel = layer_start - p.outer.start;
  uint32_t in_first = 0, first_offset = rel;
  std::vector<uint32_t> runs;  // layers per run of back-to-back layers, first repetition
  for (size_t r = 0; r < p.outer.starts.size(); ++r) {
    const uint32_t o = p.outer.starts[r];
    const size_t end = std::min<size_t>(static_cast<size_t>(o) + p.outer.length, seq.size());
    // A first layer that differs a little (share still met) before the reference one.
    size_t q = o + rel;
    while (q >= o + length && windows_match(seq.sig, layer_start, q - length, length, opt.sub_match))
      q -= length;
    // The first layer of a forward often differs more (rotary tables, masks, a fused
    // prologue): one more window when it loosely matches.
    size_t last_end = 0, first = q;
    bool any = false;
    if (q >= o + length && loosely_matches(seq.sig, layer_start, q - length, length)) {
      first = q - length;
    } else if (q + 1 >= o + length &&
               shorter_window_matches(seq.sig, layer_start, q + 1 - length, length, opt.sub_match)) {
      // One kernel short: recorded from its first kernel (the window reaches one kernel
      // into the layer after it, as a window with an extra kernel leaves one out).
      first = q + 1 - length;
    }
    if (first < q) {
      layer.starts.push_back(static_cast<uint32_t>(first));
      if (r == 0) ++in_first, runs.push_back(1);
      any = true;
      last_end = q;
    }
    if (r == 0) first_offset = static_cast<uint32_t>(first - o);
    while (q + length <= end) {
      const size_t taken = layer_window(seq.sig, layer_start, q, length, end, opt.sub_match);
      if (taken == 0) {
        ++q;
        continue;
      }
      // A window after unmatched kernels starts a new pass (an extra kernel inside a
      // layer is taken with it).
      if (r == 0) {
        ++in_first;
        if (!any || q > last_end) runs.push_back(0);
        ++runs.back();
      }
      layer.starts.push_back(static_cast<uint32_t>(q));
      any = true;
      last_end = q + taken;
      q += taken;
    }
    // Likewise the last layer, right after the last matched one.
    if (any && last_end + length <= end && loosely_matches(seq.sig, layer_start, last_end, length)) {
      if (r == 0) ++in_first, ++runs.back();
      layer.starts.push_back(static_cast<uint32_t>(last_end));
    } else if (any && last_end + length - 1 <= end &&
               shorter_window_matches(seq.sig, layer_start, last_end, length, opt.sub_match)) {
      if (r == 0) ++in_first, ++runs.back();
      // Recorded only where a whole window fits in the sequence (statistics read `length`).
      if (last_end + length <= seq.size()) layer.starts.push_back(static_cast<uint32_t>(last_end));
    }
  }
  if (in_first == 0) {  // the reference window was taken into a neighbour's: no layers
    p.layer.reset();
    p.layers_per_outer = 0;
    p.passes = 1;
    return;
  }
  layer.start = layer.starts[0];
  p.layer_offset = first_offset;
  p.layers_per_outer = in_first;
  p.passes = passes_of(runs);
  p.layer = std::move(layer);
}

}  // namespace sollens
