#include "analyses/cycles/launch_steps.h"

#include <algorithm>
#include <optional>
#include <string_view>

#include "store/event_store.h"

namespace sollens {

namespace {

// Runs of back-to-back layer windows inside the step [begin, end).
uint32_t count_passes(const Cycle& layer, uint32_t begin, uint32_t end) {
  std::vector<uint32_t> runs;
  uint32_t next = 0;
  for (uint32_t s : layer.starts) {
    if (s < begin || s >= end) continue;
    if (runs.empty() || s > next) runs.push_back(0);
    ++runs.back();
    next = s + layer.length;
  }
  return passes_of(runs);
}

// The pattern's cycle becomes the layer of one step covering kernels [first, last].
void make_layer_of_one_step(CyclePattern& p, uint32_t first, uint32_t last) {
  Cycle step;
  step.start = first;
  step.length = last - first + 1;
  step.starts = {first};
  p.layer_offset = p.outer.start - first;
  p.layers_per_outer = static_cast<uint32_t>(p.outer.repetitions());
  p.layer = std::move(p.outer);
  p.outer = std::move(step);
  p.passes = count_passes(*p.layer, p.outer.start, p.outer.end());
}

}  // namespace

void promote_single_launch_layers(const std::vector<int64_t>& launch,
                                  std::vector<CyclePattern>& patterns) {
  for (CyclePattern& p : patterns) {
    if (p.layer || p.outer.repetitions() == 0 || p.outer.end() > launch.size()) continue;
    const int64_t id = launch[p.outer.start];
    if (id < 0 || id == kNoValue) continue;
    bool one_launch = true;
    for (uint32_t i = p.outer.start; i < p.outer.end() && one_launch; ++i) one_launch = launch[i] == id;
    if (!one_launch) continue;
    // The step: every kernel of that launch in this sequence (they are contiguous in
    // a replay; a stray kernel of another launch in between stays inside the span).
    uint32_t first = p.outer.start, last = p.outer.end() - 1;
    for (uint32_t i = 0; i < launch.size(); ++i)
      if (launch[i] == id) {
        if (i < first) first = i;
        if (i > last) last = i;
      }
    make_layer_of_one_step(p, first, last);
    p.step_source = StepSource::kOneLaunch;
  }
}

void promote_single_annotation_layers(const KernelSequence& seq,
                                      const std::vector<AnnotationSpan>& annotations,
                                      std::vector<CyclePattern>& patterns) {
  for (CyclePattern& p : patterns) {
    if (p.layer || p.outer.repetitions() == 0 || p.outer.end() > seq.size()) continue;
    double begin = seq.ts[p.outer.start], end = begin;
    for (uint32_t i = p.outer.start; i < p.outer.end(); ++i) {
      begin = std::min(begin, seq.ts[i]);
      end = std::max(end, seq.ts[i] + seq.dur[i]);
    }
    const AnnotationSpan* inner = nullptr;
    for (const AnnotationSpan& a : annotations)
      if (a.begin <= begin && end <= a.end && (!inner || a.end - a.begin < inner->end - inner->begin))
        inner = &a;
    if (!inner) continue;
    // The step: the sequence's kernels that run inside the annotation (the sequence
    // is in time order, so they are contiguous around the pattern).
    uint32_t first = p.outer.start, last = p.outer.end() - 1;
    while (first > 0 && seq.ts[first - 1] >= inner->begin &&
           seq.ts[first - 1] + seq.dur[first - 1] <= inner->end)
      --first;
    while (last + 1 < seq.size() && seq.ts[last + 1] >= inner->begin &&
           seq.ts[last + 1] + seq.dur[last + 1] <= inner->end)
      ++last;
    make_layer_of_one_step(p, first, last);
    p.step_source = StepSource::kOneAnnotation;
    p.step_annotation = inner->name;
  }
}

std::vector<KernelSpan> kernel_spans(const KernelSequence& seq,
                                     const std::vector<AnnotationSpan>& annotations) {
  std::vector<KernelSpan> out;
  for (const AnnotationSpan& a : annotations) {
    const auto begin = std::lower_bound(seq.ts.begin(), seq.ts.end(), a.begin);
    uint32_t first = static_cast<uint32_t>(begin - seq.ts.begin());
    uint32_t last = first;
    bool any = false;
    for (uint32_t i = first; i < seq.size() && seq.ts[i] <= a.end; ++i)
      if (seq.ts[i] + seq.dur[i] <= a.end) {
        if (!any) first = i;
        last = i;
        any = true;
      }
    if (any) out.push_back({first, last});
  }
  std::sort(out.begin(), out.end(), [](const KernelSpan& a, const KernelSpan& b) {
    return a.first < b.first;
  });
  return out;
}

namespace {

// Index of the step holding kernels [s, s + length), or -1.
int step_holding(const std::vector<KernelSpan>& steps, uint32_t s, uint32_t length) {
  for (size_t k = 0; k < steps.size(); ++k)
    if (steps[k].first <= s && s + length - 1 <= steps[k].last) return static_cast<int>(k);
  return -1;
}

// The pattern's cycle becomes the layer of the given steps (repetitions of `length`
// kernels from each step's first kernel).
void make_layer_of_steps(CyclePattern& p, const std::vector<KernelSpan>& steps,
                         const std::vector<int>& used) {
  Cycle outer;
  outer.start = steps[used[0]].first;
  outer.length = steps[used[0]].size();
  for (int k : used) {
    outer.starts.push_back(steps[k].first);
    outer.length = std::min(outer.length, steps[k].size());
  }
  uint32_t in_first = 0;
  for (uint32_t s : p.outer.starts) in_first += s >= outer.start && s < outer.start + outer.length;
  p.layer_offset = p.outer.start - outer.start;
  p.layers_per_outer = in_first;
  p.layer = std::move(p.outer);
  p.outer = std::move(outer);
  p.passes = count_passes(*p.layer, p.outer.start, p.outer.start + p.outer.length);  // the first step
  p.step_source = StepSource::kAnnotations;
  p.confidence = Confidence::kHigh;
}

bool promote_into_steps(CyclePattern& p, const std::vector<KernelSpan>& steps) {
  if (p.layer || p.step_source != StepSource::kDetected || p.outer.repetitions() == 0) return false;
  std::vector<int> used;
  std::vector<uint32_t> per_step(steps.size(), 0);
  std::vector<uint32_t> inside;  // repetitions inside a marked step
  for (uint32_t s : p.outer.starts) {
    const int k = step_holding(steps, s, p.outer.length);
    if (k < 0) continue;
    if (used.empty() || used.back() != k) used.push_back(k);
    ++per_step[k];
    inside.push_back(s);
  }
  // Repetitions outside every marked step (the layers of a forward that began before
  // the profiler step) are not the steps' layers; most must be inside.
  if (inside.empty() || inside.size() * 2 < p.outer.repetitions()) return false;
  if (used.size() == 1 ? inside.size() < 2
                       : std::any_of(used.begin(), used.end(), [&](int k) { return per_step[k] < 2; }))
    return false;
  p.outer.starts = std::move(inside);
  p.outer.start = p.outer.starts[0];
  if (used.size() == 1) make_layer_of_one_step(p, steps[used[0]].first, steps[used[0]].last);
  else make_layer_of_steps(p, steps, used);
  p.step_source = StepSource::kAnnotations;
  p.confidence = Confidence::kHigh;
  return true;
}

// A detected step as long as the marked steps starts where the periodic sequence
// starts (canonical phase), often inside an iteration; the marks say where iterations
// begin. Repetitions become the marked steps of exactly that length, when there are
// at least as many; the layers are collected again inside them.
bool rephase_to_steps(const KernelSequence& seq, const std::vector<KernelSpan>& steps,
                      const CycleOptions& options, CyclePattern& p) {
  if (p.step_source != StepSource::kDetected || p.outer.repetitions() < 2) return false;
  std::vector<uint32_t> starts;
  for (const KernelSpan& s : steps) starts.push_back(s.first);
  if (p.few_steps && starts == p.outer.starts) {
    // Found from the kernel names alone with few repetitions: the marks confirm it.
    p.step_source = StepSource::kAnnotations;
    p.confidence = Confidence::kHigh;
    return true;
  }
  starts.clear();
  for (const KernelSpan& s : steps)
    if (s.size() == p.outer.length) starts.push_back(s.first);
  if (starts.size() < p.outer.repetitions() || starts == p.outer.starts) return false;
  std::optional<uint32_t> layer_start;
  if (p.layer)
    for (uint32_t s : p.layer->starts)
      if (s >= starts[0] && s + p.layer->length <= starts[0] + p.outer.length) {
        layer_start = s;
        break;
      }
  const uint32_t layer_length = p.layer ? p.layer->length : 0;
  p.outer.starts = std::move(starts);
  p.outer.start = p.outer.starts[0];
  p.step_source = StepSource::kAnnotations;
  p.confidence = Confidence::kHigh;
  p.layer.reset();
  p.layers_per_outer = 0;
  p.layer_offset = 0;
  p.passes = 1;
  if (layer_start) collect_layers(seq, p, *layer_start, layer_length, options);
  else if (options.find_sub_cycles && p.outer.length > options.sub_cycle_above) find_layers(seq, p, options);
  return true;
}

// One marked step that no pattern holds (a forward of 4 layers: no anchor is seen 5
// times) is a pattern of its own when layers repeat inside it.
void add_one_step_with_layers(const KernelSequence& seq, const KernelSpan& step, const std::string& evidence,
                              const CycleOptions& options, std::vector<CyclePattern>& patterns) {
  const bool held = std::any_of(patterns.begin(), patterns.end(), [&](const CyclePattern& p) {
    return p.outer.start <= step.last && step.first < p.outer.end();
  });
  if (held || !options.find_sub_cycles || step.size() <= options.sub_cycle_above) return;
  CyclePattern p;
  p.anchor = seq.name[step.first];
  p.step_source = StepSource::kAnnotations;
  p.step_annotation = evidence;
  p.outer.start = step.first;
  p.outer.length = step.size();
  p.outer.starts = {step.first};
  find_layers(seq, p, options);
  if (p.layer) patterns.push_back(std::move(p));
}

}  // namespace

void nest_in_detected_steps(const KernelSequence& seq, const CycleOptions& options,
                            std::vector<CyclePattern>& patterns) {
  for (CyclePattern& p : patterns) {
    if (p.layer || p.step_source != StepSource::kDetected || p.outer.repetitions() < 2) continue;
    for (const CyclePattern& q : patterns) {
      if (&q == &p || !q.layer || q.outer.repetitions() < 2 || q.outer.length <= p.outer.length) continue;
      std::vector<KernelSpan> steps;
      for (uint32_t s : q.outer.starts) steps.push_back({s, s + q.outer.length - 1});
      std::vector<int> used;
      for (uint32_t s : p.outer.starts) {
        const int k = step_holding(steps, s, p.outer.length);
        if (k < 0) {
          used.clear();
          break;
        }
        if (used.empty() || used.back() != k) used.push_back(k);
      }
      if (used.empty()) continue;
      const Confidence confidence = p.confidence;
      const uint32_t layer_start = p.outer.start, layer_length = p.outer.length;
      make_layer_of_steps(p, steps, used);
      p.step_source = StepSource::kDetected;  // steps and layers both detected: nesting
      p.confidence = confidence;
      if (used.size() < q.outer.repetitions()) {
        CyclePattern all = p;
        all.outer = q.outer;
        collect_layers(seq, all, layer_start, layer_length, options);
        if (all.layer && all.layer->repetitions() > p.layer->repetitions()) p = std::move(all);
      }
      break;
    }
  }
}

void promote_profiler_steps(const KernelSequence& seq, const std::vector<KernelSpan>& steps,
                            const std::string& evidence, const CycleOptions& options,
                            std::vector<CyclePattern>& patterns) {
  nest_in_detected_steps(seq, options, patterns);
  if (steps.empty()) return;
  for (CyclePattern& p : patterns) {
    if (promote_into_steps(p, steps)) p.step_annotation = evidence;
    else if (rephase_to_steps(seq, steps, options, p)) p.step_annotation = evidence;
  }
  if (steps.size() < 2) {
    add_one_step_with_layers(seq, steps[0], evidence, options, patterns);
    return;
  }
  uint32_t smallest = steps[0].size();
  for (const KernelSpan& s : steps) smallest = std::min(smallest, s.size());
  const bool have_steps = std::any_of(patterns.begin(), patterns.end(), [&](const CyclePattern& p) {
    return p.outer.repetitions() >= 2 && p.outer.length * 2 >= smallest;
  });
  if (have_steps) return;
  std::vector<int> all;
  for (size_t k = 0; k < steps.size(); ++k) all.push_back(static_cast<int>(k));
  CyclePattern p;
  p.anchor = seq.name[steps[0].first];
  p.step_source = StepSource::kAnnotations;
  p.step_annotation = evidence;
  p.outer.start = steps[0].first;
  p.outer.length = smallest;
  for (const KernelSpan& s : steps) p.outer.starts.push_back(s.first);
  if (options.find_sub_cycles && p.outer.length > options.sub_cycle_above) find_layers(seq, p, options);
  patterns.push_back(std::move(p));
  std::stable_sort(patterns.begin(), patterns.end(), [](const CyclePattern& a, const CyclePattern& b) {
    return a.effective().center() < b.effective().center();
  });
}

namespace {

bool any_name_has(const KernelSequence& seq, const Cycle& c,
                  std::initializer_list<std::string_view> parts) {
  for (uint32_t j = 0; j < c.length && c.start + j < seq.size(); ++j) {
    const std::string& name = seq.names[seq.name[c.start + j]];
    for (std::string_view part : parts)
      if (name.find(part) != std::string::npos) return true;
  }
  return false;
}

bool has_any(std::string_view text, std::initializer_list<std::string_view> parts) {
  for (std::string_view part : parts)
    if (text.find(part) != std::string_view::npos) return true;
  return false;
}

CyclePhase phase_evidence(const KernelSequence& seq, const CyclePattern& p) {
  const bool decode = p.step_source == StepSource::kOneLaunch ||
                      any_name_has(seq, p.outer, {"paged_attention", "splitkv", "decode_attention"});
  const bool prefill = has_any(p.step_annotation, {"context", "prefill", "extend"}) ||
                       any_name_has(seq, p.outer, {"varlen", "prefill", "context"});
  if (prefill != decode) return prefill ? CyclePhase::kPrefill : CyclePhase::kDecode;
  return CyclePhase::kOther;
}

}  // namespace

void label_llm_phases(const KernelSequence& seq, std::vector<CyclePattern>& patterns) {
  CyclePattern* best[2] = {nullptr, nullptr};  // prefill, decode
  for (CyclePattern& p : patterns) {
    const CyclePhase ph = phase_evidence(seq, p);
    p.phase = CyclePhase::kOther;
    if (ph == CyclePhase::kOther) continue;
    CyclePattern*& slot = best[ph == CyclePhase::kDecode];
    if (!slot || ranks_above(p, *slot)) slot = &p;
  }
  if (best[0]) best[0]->phase = CyclePhase::kPrefill;
  if (best[1]) best[1]->phase = CyclePhase::kDecode;
  if (!best[0] && !best[1]) label_main_step(patterns);
}

}  // namespace sollens
