#include "analyses/cycles/cycle_detect.h"

#include <algorithm>
#include <map>
#include <span>
#include <tuple>
#include <utility>

namespace sollens {

namespace {

using Ids = std::vector<uint32_t>;

// Occurrence lists of every id, as one CSR array: O(n + universe).
struct Occurrences {
  std::vector<uint32_t> offset;
  std::vector<uint32_t> pos;
  std::span<const uint32_t> of(uint32_t id) const {
    return {pos.data() + offset[id], offset[id + 1] - offset[id]};
  }
};

Occurrences index_occurrences(const Ids& ids, size_t universe) {
  Occurrences o;
  o.offset.assign(universe + 1, 0);
  for (uint32_t id : ids) ++o.offset[id + 1];
  for (size_t i = 0; i < universe; ++i) o.offset[i + 1] += o.offset[i];
  o.pos.resize(ids.size());
  std::vector<uint32_t> fill(o.offset.begin(), o.offset.end() - 1);
  for (size_t i = 0; i < ids.size(); ++i) o.pos[fill[ids[i]]++] = static_cast<uint32_t>(i);
  return o;
}

size_t tolerance(size_t length, size_t pct) { return std::max<size_t>(1, length * pct / 100); }

// Every gap after the first within the tolerance of the first (uplifter's spacing check).
bool evenly_spaced(std::span<const uint32_t> p, size_t length, size_t pct) {
  const size_t tol = tolerance(length, pct);
  for (size_t i = 2; i < p.size(); ++i) {
    const size_t gap = p[i] - p[i - 1];
    if ((gap > length ? gap - length : length - gap) > tol) return false;
  }
  return true;
}

// Occurrences before the first gap outside the tolerance of `length`.
size_t first_run_size(const std::vector<uint32_t>& p, size_t length, size_t pct) {
  const size_t tol = tolerance(length, pct);
  size_t i = 1;
  while (i < p.size()) {
    const size_t gap = p[i] - p[i - 1];
    if ((gap > length ? gap - length : length - gap) > tol) break;
    ++i;
  }
  return i;
}

// The earliest start from which the sequence is still periodic with this length:
// step back while ids[s−1] == ids[s−1+length], never below `floor`, at most length−1.
uint32_t align_back(const Ids& ids, uint32_t s, uint32_t length, uint32_t floor) {
  uint32_t a = s;
  while (a > floor && s - a + 1 < length && ids[a - 1] == ids[a - 1 + length]) --a;
  return a;
}

// Stops as soon as too many positions differ; the answer is the full count's.
bool windows_match(const Ids& ids, size_t a, size_t b, size_t length, double share) {
  size_t same = 0, differ = 0;
  // The most differing positions that can still match (the estimate is at most 1 over).
  size_t allowed = std::min(length, static_cast<size_t>(static_cast<double>(length) * (1.0 - share)) + 1);
  while (allowed > 0 && static_cast<double>(length - allowed) / static_cast<double>(length) < share)
    --allowed;
  for (size_t j = 0; j < length; ++j) {
    if (ids[a + j] == ids[b + j]) ++same;
    else if (++differ > allowed) return false;
  }
  return static_cast<double>(same) / static_cast<double>(length) >= share;
}

// A layer window at b matching the one at a: `length` kernels at `share`, or, for a
// layer with one extra kernel, `length` + 1 kernels of which one is skipped. Returns
// the kernels taken (0: no match). O(length).
size_t layer_window(const Ids& sig, size_t a, size_t b, size_t length, size_t end, double share) {
  if (windows_match(sig, a, b, length, share)) return length;
  // The window must start like the layer, or a window one kernel early would pass.
  if (b + length + 1 > end || sig[a] != sig[b]) return 0;
  // pre: matches of a[0..j) with b[0..j); suf: a[j..L) with b[j+1..L+1).
  size_t suf = 0;
  for (size_t j = 0; j < length; ++j) suf += sig[a + j] == sig[b + j + 1];
  size_t pre = 0, best = suf;
  for (size_t j = 0; j < length; ++j) {
    pre += sig[a + j] == sig[b + j];
    suf -= sig[a + j] == sig[b + j + 1];
    best = std::max(best, pre + suf);
  }
  return static_cast<double>(best) / static_cast<double>(length) >= share ? length + 1 : 0;
}

// A first or last layer that differs: at least half of its kernels (as a multiset)
// are the layer's, and a kernel that occurs once in the layer sits at the same offset
// (e.g. the attention kernel). O(length log length).
bool loosely_matches(const Ids& sig, size_t a, size_t b, size_t length) {
  std::vector<uint32_t> x(sig.begin() + a, sig.begin() + a + length);
  std::vector<uint32_t> y(sig.begin() + b, sig.begin() + b + length);
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  size_t common = 0;
  for (size_t i = 0, j = 0; i < length && j < length;) {
    if (x[i] == y[j]) ++common, ++i, ++j;
    else if (x[i] < y[j]) ++i;
    else ++j;
  }
  if (common * 2 < length) return false;
  for (size_t k = 0; k < length; ++k) {
    if (sig[a + k] != sig[b + k]) continue;
    const auto [lo, hi] = std::equal_range(x.begin(), x.end(), sig[a + k]);
    if (hi - lo == 1) return true;
  }
  return false;
}

struct SubCycle {
  uint32_t offset = 0;  // inside the outer window
  uint32_t length = 0;
  uint32_t repetitions = 0;
};

// uplifter's findSubCycle on the signatures of the outer window [base, base + m), with
// canonical alignment; the smallest accepted length wins, then the most repetitions,
// then the earliest offset.
std::optional<SubCycle> find_sub_cycle(const Ids& sig, uint32_t base, uint32_t m,
                                       const CycleOptions& opt) {
  std::vector<std::pair<uint32_t, uint32_t>> by_sig;  // (signature, offset)
  by_sig.reserve(m);
  for (uint32_t j = 0; j < m; ++j) by_sig.emplace_back(sig[base + j], j);
  std::sort(by_sig.begin(), by_sig.end());
  std::vector<std::pair<uint32_t, uint32_t>> candidates;  // (length, first offset)
  std::vector<uint32_t> p;
  for (size_t i = 0; i < by_sig.size();) {
    size_t k = i;
    p.clear();
    while (k < by_sig.size() && by_sig[k].first == by_sig[i].first) p.push_back(by_sig[k++].second);
    i = k;
    if (p.size() < opt.min_sub_anchor_count) continue;
    const uint32_t length = p[1] - p[0];
    if (length < opt.min_sub_length || length >= m / 2) continue;
    // Structure mode: the first evenly spaced run is enough (layers of several passes,
    // or of a layer with an extra kernel, have deviating gaps between the runs).
    if (opt.structure ? first_run_size(p, length, opt.sub_gap_tolerance_pct) < opt.min_sub_anchor_count
                      : !evenly_spaced(p, length, opt.sub_gap_tolerance_pct))
      continue;
    candidates.emplace_back(length, p[0]);
  }
  std::sort(candidates.begin(), candidates.end());
  std::optional<SubCycle> best;
  std::vector<std::pair<uint32_t, uint32_t>> tried;  // aligned (length, offset)
  for (const auto& [length, first] : candidates) {
    if (best && length > best->length) break;
    const uint32_t a = align_back(sig, base + first, length, base) - base;
    if (std::find(tried.begin(), tried.end(), std::pair{length, a}) != tried.end()) continue;
    tried.emplace_back(length, a);
    uint32_t reps = 1;
    while (static_cast<size_t>(a) + (reps + 1) * static_cast<size_t>(length) <= m &&
           windows_match(sig, base + a, base + a + reps * length, length, opt.sub_match))
      ++reps;
    if (reps < opt.min_sub_repetitions) continue;
    if (!best || reps > best->repetitions || (reps == best->repetitions && a < best->offset))
      best = SubCycle{a, length, reps};
  }
  return best;
}

// uplifter's outer cycles: one candidate per anchor, every gap within the tolerance,
// fixed-stride windows; a layer replaces nothing (see the header).
void find_uplifter_cycles(const KernelSequence& seq, const Occurrences& occ,
                          const std::vector<uint32_t>& candidates, const CycleOptions& opt,
                          std::vector<CyclePattern>& found) {
  const Ids& ids = seq.name;
  const size_t n = ids.size();
  for (uint32_t anchor : candidates) {
    const auto p = occ.of(anchor);
    if (p.size() < std::max<size_t>(opt.min_anchor_count, 2)) continue;
    const uint32_t length = p[1] - p[0];
    if (length < opt.min_cycle_length) continue;
    if (!evenly_spaced(p, length, opt.gap_tolerance_pct)) continue;
    // Another kernel of a cycle already found: it would find the same cycle again.
    const bool covered = std::any_of(found.begin(), found.end(), [&](const CyclePattern& f) {
      return f.outer.length == length && f.outer.start <= p[0] && p[0] < f.outer.end();
    });
    if (covered) continue;
    Cycle outer;
    outer.length = length;
    outer.start = align_back(ids, p[0], length, 0);
    outer.starts.push_back(outer.start);
    for (size_t i = 1; i < p.size(); ++i) {
      const size_t at = outer.start + i * static_cast<size_t>(length);
      if (at + length > n) break;
      if (windows_match(ids, outer.start, at, length, opt.cycle_match))
        outer.starts.push_back(static_cast<uint32_t>(at));
    }
    if (outer.repetitions() < std::max<size_t>(opt.min_repetitions, 1)) continue;
    CyclePattern pattern;
    pattern.anchor = anchor;
    if (opt.find_sub_cycles && length > opt.sub_cycle_above) {
      if (auto sub = find_sub_cycle(seq.sig, outer.start, length, opt)) {
        Cycle layer;
        layer.length = sub->length;
        layer.start = outer.start + sub->offset;
        for (uint32_t o : outer.starts)
          for (uint32_t j = 0; j < sub->repetitions; ++j)
            layer.starts.push_back(o + sub->offset + j * sub->length);
        pattern.layer = std::move(layer);
        pattern.layer_offset = sub->offset;
        pattern.layers_per_outer = sub->repetitions;
      }
    }
    pattern.outer = std::move(outer);
    found.push_back(std::move(pattern));
  }

}

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

// A long cycle seen only 2..min_repetitions−1 times (training iterations in a short
// profile): anchors that occur that often, evenly, whose windows match at
// cycle_match and together cover at least half of the sequence not already covered.
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
    if (run.length < opt.few_steps_min_length) continue;
    if (!evenly_spaced(p, run.length, opt.gap_tolerance_pct)) continue;
    const bool overlaps = std::any_of(found.begin(), found.end(), [&](const CyclePattern& f) {
      return p[0] < f.outer.end() && f.outer.start < p.back() + run.length;
    });
    if (overlaps) continue;
    Cycle outer = anchored_windows(seq.name, p, run, opt);
    if (outer.repetitions() < lo || outer.repetitions() * outer.length * 2 < n) continue;
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

// One level up: both hold the same layers (about as many), and `outer` is longer
// without being a whole number of `inner` (two steps of a decode stream are not a
// level; a denoising step of two passes plus guidance and scheduler kernels is).
bool encloses(const CyclePattern& outer, const CyclePattern& inner) {
  if (!outer.layer || !inner.layer || outer.outer.length <= inner.outer.length) return false;
  if (outer.outer.length % inner.outer.length == 0) return false;
  return outer.layer->repetitions() * 20 >= inner.layer->repetitions() * 19;  // within 5 %
}

// Structure mode's choice between two patterns with the same layer signature: the
// enclosing level (steps over passes), else the most repetitions.
bool replaces_in_structure(const CyclePattern& f, const CyclePattern& kept) {
  if (encloses(f, kept)) return true;
  if (encloses(kept, f)) return false;
  return f.effective().repetitions() > kept.effective().repetitions();
}

std::vector<uint32_t> signature_key(const KernelSequence& seq, const Cycle& c, size_t kernels) {
  const size_t k = std::min<size_t>(c.length, kernels);
  return {seq.sig.begin() + c.start, seq.sig.begin() + c.start + k};
}

// Share of one repetition's kernel time per signature, sorted by signature id.
std::vector<std::pair<uint32_t, double>> time_shares(const KernelSequence& seq, const Cycle& c) {
  std::map<uint32_t, double> by_sig;
  double total = 0;
  for (uint32_t j = 0; j < c.length; ++j) {
    by_sig[seq.sig[c.start + j]] += seq.dur[c.start + j];
    total += seq.dur[c.start + j];
  }
  std::vector<std::pair<uint32_t, double>> out;
  if (total <= 0) {  // no durations: share by kernel count
    for (uint32_t j = 0; j < c.length; ++j) by_sig[seq.sig[c.start + j]] = 0;
    for (uint32_t j = 0; j < c.length; ++j) by_sig[seq.sig[c.start + j]] += 1;
    total = c.length;
  }
  for (const auto& [s, t] : by_sig) out.emplace_back(s, t / total * 100.0);
  return out;
}

double weighted_jaccard(const std::vector<std::pair<uint32_t, double>>& a,
                        const std::vector<std::pair<uint32_t, double>>& b) {
  double lo = 0, hi = 0;
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && a[i].first < b[j].first)) {
      hi += a[i++].second;
    } else if (i == a.size() || b[j].first < a[i].first) {
      hi += b[j++].second;
    } else {
      lo += std::min(a[i].second, b[j].second);
      hi += std::max(a[i].second, b[j].second);
      ++i, ++j;
    }
  }
  return hi > 0 ? lo / hi : 1.0;
}

// Phases (§a.6), by the centre of what uplifter reports, in kernel-index space.
void label_uplifter_phases(const KernelSequence& seq, const CycleOptions& opt,
                           std::vector<CyclePattern>& out) {
  const size_t n = seq.size();
  std::vector<size_t> significant;
  for (size_t i = 0; i < out.size(); ++i) {
    const Cycle& e = out[i].effective();
    if (static_cast<double>(e.repetitions() * e.length) >=
        static_cast<double>(n) * opt.significance_pct / 100.0)
      significant.push_back(i);
  }
  if (significant.empty())
    for (size_t i = 0; i < out.size(); ++i) significant.push_back(i);
  if (!significant.empty()) {
    size_t prefill = significant[0];
    for (size_t i : significant)
      if (out[i].effective().center() < out[prefill].effective().center()) prefill = i;
    std::optional<size_t> decode;
    const auto prefill_key = signature_key(seq, out[prefill].effective(), opt.signature_kernels);
    for (size_t i : significant) {
      if (signature_key(seq, out[i].effective(), opt.signature_kernels) == prefill_key) continue;
      if (!decode || out[i].effective().center() > out[*decode].effective().center()) decode = i;
    }
    if (decode) {
      out[prefill].phase = CyclePhase::kPrefill;
      out[*decode].phase = CyclePhase::kDecode;
    } else {
      out[prefill].phase = CyclePhase::kDecode;
    }
  }
}

bool before(const CyclePattern& a, const CyclePattern& b) {
  const Cycle &x = a.effective(), &y = b.effective();
  return std::tie(x.start, x.length) < std::tie(y.start, y.length);
}

}  // namespace

const char* cycle_phase_name(CyclePhase phase) {
  switch (phase) {
    case CyclePhase::kPrefill: return "prefill";
    case CyclePhase::kDecode: return "decode";
    case CyclePhase::kStep: return "step";
    case CyclePhase::kOther: break;
  }
  return "other";
}

const char* confidence_name(Confidence c) {
  switch (c) {
    case Confidence::kMedium: return "medium";
    case Confidence::kLow: return "low";
    case Confidence::kHigh: break;
  }
  return "high";
}

std::string CyclePattern::found_by() const {
  std::string steps;
  switch (step_source) {
    case StepSource::kOneLaunch: steps = "graph launch"; break;
    case StepSource::kOneAnnotation: steps = "annotation"; break;
    case StepSource::kAnnotations: steps = "annotation " + step_annotation; break;
    case StepSource::kDetected:
      steps = few_steps ? "anchor (few repetitions)"
              : deviating_gaps ? "anchor (" + std::to_string(deviating_gaps) + " deviating gaps)"
                               : "anchor";
      return layer ? steps + ", layers by nesting" : steps;
  }
  // The layers of an evidence step were the detected cycle (its anchor) or were found
  // nested inside the step.
  return steps + (layer ? ", layers by anchor" : "");
}

namespace {

// Kernels the steps cover, then more steps, then more layer kernels per step.
std::tuple<size_t, size_t, size_t> main_rank(const CyclePattern& p) {
  const size_t layer_kernels = p.layer ? p.layers_per_outer * p.layer->length : 0;
  return {p.outer.repetitions() * p.outer.length, p.outer.repetitions(), layer_kernels};
}

}  // namespace

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
    if (!main || main_rank(p) > main_rank(*main)) main = &p;
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
    size_t last_end = 0;
    bool any = false;
    if (q >= o + length && loosely_matches(seq.sig, layer_start, q - length, length)) {
      layer.starts.push_back(static_cast<uint32_t>(q - length));
      if (r == 0) ++in_first, runs.push_back(1);
      any = true;
      last_end = q;
    }
    if (r == 0) first_offset = static_cast<uint32_t>((any ? q - length : q) - o);
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
    }
  }
  layer.start = layer.starts.empty() ? layer_start : layer.starts[0];
  p.layer_offset = first_offset;
  p.layers_per_outer = in_first;
  p.passes = passes_of(runs);
  p.layer = std::move(layer);
}

void find_layers(const KernelSequence& seq, CyclePattern& p, const CycleOptions& opt) {
  if (p.outer.repetitions() == 0) return;
  if (auto sub = find_sub_cycle(seq.sig, p.outer.start, p.outer.length, opt))
    collect_layers(seq, p, p.outer.start + sub->offset, sub->length, opt);
}

std::string cycle_signature(const KernelSequence& seq, const Cycle& cycle, size_t kernels) {
  std::string out;
  for (uint32_t s : signature_key(seq, cycle, kernels)) {
    if (!out.empty()) out += '|';
    out += seq.signatures[s];
  }
  return out;
}

std::vector<CyclePattern> detect_cycles(const KernelSequence& seq, const CycleOptions& opt) {
  const Ids& ids = seq.name;
  const size_t n = ids.size();
  if (n == 0) return {};
  const Occurrences occ = index_occurrences(ids, seq.names.size());

  // Anchor candidates, most frequent first, ties by first occurrence.
  std::vector<uint32_t> candidates;
  const size_t max_count = opt.max_anchor_divisor ? n / opt.max_anchor_divisor : n;
  for (uint32_t id = 0; id < seq.names.size(); ++id) {
    const size_t c = occ.of(id).size();
    if (c >= opt.min_anchor_count && c <= max_count) candidates.push_back(id);
  }
  std::stable_sort(candidates.begin(), candidates.end(), [&](uint32_t a, uint32_t b) {
    const size_t ca = occ.of(a).size(), cb = occ.of(b).size();
    return ca != cb ? ca > cb : occ.of(a)[0] < occ.of(b)[0];
  });

  std::vector<CyclePattern> found;
  if (opt.structure) {
    find_structure_cycles(seq, occ, candidates, opt, found);
    find_few_step_cycles(seq, occ, opt, found);
  } else {
    find_uplifter_cycles(seq, occ, candidates, opt, found);
  }

  // Group by signature of what uplifter reports; keep the most repetitions (the first
  // found on ties).
  std::map<std::vector<uint32_t>, size_t> by_signature;
  std::vector<CyclePattern> grouped;
  for (auto& f : found) {
    auto key = signature_key(seq, f.effective(), opt.signature_kernels);
    auto [it, fresh] = by_signature.try_emplace(std::move(key), grouped.size());
    if (fresh) {
      grouped.push_back(std::move(f));
    } else if (opt.structure ? replaces_in_structure(f, grouped[it->second])
                             : f.effective().repetitions() > grouped[it->second].effective().repetitions()) {
      grouped[it->second] = std::move(f);
    }
  }
  std::stable_sort(grouped.begin(), grouped.end(), before);

  // Near-duplicates: similar length and weighted Jaccard of time shares; keep the member
  // with the most repetitions (the earliest on ties).
  std::vector<std::vector<std::pair<uint32_t, double>>> shares;
  for (const auto& g : grouped) shares.push_back(time_shares(seq, g.effective()));
  std::vector<uint8_t> dropped(grouped.size(), 0);
  for (size_t i = 0; i < grouped.size(); ++i) {
    if (dropped[i]) continue;
    size_t keep = i;
    for (size_t j = i + 1; j < grouped.size(); ++j) {
      if (dropped[j]) continue;
      const size_t li = grouped[i].effective().length, lj = grouped[j].effective().length;
      const size_t diff = li > lj ? li - lj : lj - li;
      if (diff > std::max(li, lj) * opt.dedup_length_tolerance_pct / 100) continue;
      if (weighted_jaccard(shares[i], shares[j]) < opt.dedup_jaccard) continue;
      dropped[j] = 1;
      if (grouped[j].effective().repetitions() > grouped[keep].effective().repetitions()) keep = j;
    }
    if (keep != i) {
      dropped[i] = 1;
      dropped[keep] = 0;
    }
  }
  std::vector<CyclePattern> out;
  for (size_t i = 0; i < grouped.size(); ++i)
    if (!dropped[i]) out.push_back(std::move(grouped[i]));

  if (opt.structure) label_main_step(out);
  else label_uplifter_phases(seq, opt, out);
  std::stable_sort(out.begin(), out.end(), [](const CyclePattern& a, const CyclePattern& b) {
    return a.effective().center() < b.effective().center();
  });
  return out;
}

}  // namespace sollens
