#include "analyses/cycles/cycle_detect.h"

#include <algorithm>
#include <map>
#include <span>
#include <tuple>
#include <utility>

#include "analyses/cycles/cycle_windows.h"
#include "analyses/cycles/structure_cycles.h"

namespace sollens {

using namespace cycle_windows;

namespace {

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
    case CyclePhase::kChunkedPrefill: return "chunked_prefill";
    case CyclePhase::kMixed: return "mixed";
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
  const std::string kinds = layers_of_kinds > 1 ? " (each window " + std::to_string(layers_of_kinds) +
                                                      " layers of alternating kinds)"
                                                : std::string();
  std::string steps;
  switch (step_source) {
    case StepSource::kOneLaunch: steps = "graph launch"; break;
    case StepSource::kOneAnnotation: steps = "annotation"; break;
    case StepSource::kAnnotations:
      // Graph launches, python frames and inferred forwards are evidence too, but not annotations.
      steps = step_annotation.rfind("graph launches", 0) == 0 || step_annotation.rfind("python frame ", 0) == 0 ||
                      step_annotation.rfind("inferred ", 0) == 0
                  ? step_annotation
                  : "annotation " + step_annotation;
      break;
    case StepSource::kDetected:
      steps = few_steps ? "anchor (few repetitions)"
              : deviating_gaps ? "anchor (" + std::to_string(deviating_gaps) + " deviating gaps)"
                               : "anchor";
      return layer ? steps + ", layers by nesting" + kinds : steps;
  }
  // The layers of an evidence step were the detected cycle (its anchor) or were found
  // nested inside the step.
  return steps + (layer ? ", layers by anchor" + kinds : "");
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
    } else if (opt.structure && joins_disjoint_repetitions(f, grouped[it->second])) {
      continue;
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
