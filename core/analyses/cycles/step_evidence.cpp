#include "analyses/cycles/step_evidence.h"

#include <algorithm>
#include <map>
#include <unordered_set>
#include <utility>

namespace sollens {

namespace {

// Each interval's kernels (placed by launch time in the last interval beginning at or
// before it, when it has not ended: intervals of one kind do not nest), as spans of
// the sequence; out[k] is intervals[k]'s, `used[k]` whether it holds any.
std::vector<KernelSpan> kernels_in(const EventStore& store, const KernelSequence& seq, const StepMarks& marks,
                                   const std::vector<MarkSpan>& intervals, std::vector<uint8_t>& used) {
  const auto& launches = marks.launch_time;
  std::vector<KernelSpan> out(intervals.size());
  used.assign(intervals.size(), 0);
  if (intervals.empty() || launches.empty()) return out;
  for (uint32_t i = 0; i < seq.size(); ++i) {
    const auto it = launches.find(store.correlation[seq.rows[i]]);
    if (it == launches.end()) continue;
    const double t = it->second;
    auto k = std::upper_bound(intervals.begin(), intervals.end(), MarkSpan{t, 0, 0},
                              [](const MarkSpan& a, const MarkSpan& b) { return a.begin < b.begin; });
    if (k == intervals.begin()) continue;
    const size_t j = static_cast<size_t>(k - intervals.begin()) - 1;
    if (t > intervals[j].end) continue;
    if (!used[j]) out[j] = {i, i}, used[j] = 1;
    out[j].first = std::min(out[j].first, i);
    out[j].last = std::max(out[j].last, i);
  }
  return out;
}

bool is_cpu_annotation(Category c) {
  return c == Category::kUserAnnotation || c == Category::kCpuOp || c == Category::kPythonFunction;
}

}  // namespace

StepMarks index_step_marks(const EventStore& store) {
  StepMarks m;
  for (size_t r = 0; r < store.size(); ++r) {
    const Category c = store.category[r];
    if (is_runtime(c)) {
      if (store.correlation[r] < 0 || store.correlation[r] == kNoValue) continue;
      m.launch_time.emplace(store.correlation[r], store.ts[r]);
      if (store.name_of(r).find("GraphLaunch") != std::string_view::npos) m.graph_launches.insert(store.correlation[r]);
      continue;
    }
    if (!is_cpu_annotation(c)) continue;
    const std::string_view name = store.name_of(r);
    const MarkSpan span{store.ts[r], store.ts[r] + store.dur[r], r};
    if (name.starts_with("ProfilerStep#")) m.profiler_steps.push_back(span);
    else if (name.starts_with("Optimizer.step")) m.optimizer_steps.push_back(span);
    else if (name.starts_with("DistributedDataParallel.forward")) m.ddp_forwards.push_back(span);
    else if (name.starts_with("nn.Module: DistributedDataParallel")) m.ddp_frames.push_back(span);
    if (c == Category::kPythonFunction && store.python_id[r] != kNoValue) m.python_frames.push_back(r);
  }
  for (auto* spans : {&m.profiler_steps, &m.optimizer_steps, &m.ddp_forwards, &m.ddp_frames})
    std::stable_sort(spans->begin(), spans->end());
  return m;
}

std::vector<KernelSpan> kernels_in_spans(const EventStore& store, const KernelSequence& seq,
                                         const StepMarks& marks, const std::vector<MarkSpan>& spans) {
  std::vector<uint8_t> used;
  const std::vector<KernelSpan> out = kernels_in(store, seq, marks, spans, used);
  std::vector<KernelSpan> kept;
  for (size_t j = 0; j < out.size(); ++j)
    if (used[j]) kept.push_back(out[j]);
  return kept;
}

std::vector<KernelSpan> iterations_ending_in(const std::vector<KernelSpan>& optimizer_steps) {
  std::vector<KernelSpan> out;
  uint32_t next = 0;
  for (const KernelSpan& s : optimizer_steps) {
    if (s.last < next) continue;
    out.push_back({next, s.last});
    next = s.last + 1;
  }
  return out;
}

std::vector<KernelSpan> iterations_starting_at(const std::vector<KernelSpan>& forwards, uint32_t kernels) {
  std::vector<KernelSpan> out;
  for (const KernelSpan& f : forwards) {
    if (!out.empty()) {
      if (f.first <= out.back().first) continue;  // nested or overlapping: the outer one counts
      out.back().last = f.first - 1;
    }
    out.push_back({f.first, kernels ? kernels - 1 : 0});
  }
  return out;
}

std::vector<KernelSpan> graph_launch_spans(const EventStore& store, const KernelSequence& seq,
                                           const StepMarks& marks) {
  const auto& graph_launches = marks.graph_launches;
  std::vector<KernelSpan> out;
  if (graph_launches.empty()) return out;
  std::map<int64_t, KernelSpan> by_launch;
  std::map<int64_t, uint32_t> count;
  for (uint32_t i = 0; i < seq.size(); ++i) {
    const int64_t c = store.correlation[seq.rows[i]];
    if (!graph_launches.count(c)) continue;
    auto [it, fresh] = by_launch.try_emplace(c, KernelSpan{i, i});
    it->second.last = i;
    ++count[c];
  }
  for (const auto& [c, span] : by_launch)
    if (count[c] >= 2) out.push_back(span);
  std::sort(out.begin(), out.end(), [](const KernelSpan& a, const KernelSpan& b) { return a.first < b.first; });
  return out;
}

std::vector<KernelSpan> repeated_python_frames(const EventStore& store, const KernelSequence& seq,
                                               const StepMarks& marks, std::string& name) {
  if (marks.python_frames.empty() || seq.size() == 0) return {};
  // The python call tree: frames without a known parent, children by parent id.
  std::unordered_set<int64_t> ids;
  for (size_t r : marks.python_frames) ids.insert(store.python_id[r]);
  std::unordered_map<int64_t, std::vector<size_t>> children;
  std::vector<size_t> level;
  for (size_t r : marks.python_frames) {
    const int64_t parent = store.python_parent_id[r];
    if (parent != kNoValue && ids.count(parent)) children[parent].push_back(r);
    else level.push_back(r);
  }
  const size_t half = (seq.size() + 1) / 2;
  for (int depth = 0; depth < 32 && !level.empty(); ++depth) {
    std::vector<MarkSpan> frames;
    for (size_t r : level) frames.push_back({store.ts[r], store.ts[r] + store.dur[r], r});
    std::stable_sort(frames.begin(), frames.end());
    std::vector<uint8_t> used;
    const std::vector<KernelSpan> spans = kernels_in(store, seq, marks, frames, used);
    // Frames holding kernels, by name: how many, how many kernels, the first one's start.
    std::map<std::string_view, std::pair<size_t, size_t>> by_name;  // name -> (frames, kernels)
    size_t widest = 0, repeated_kernels = 0;
    for (size_t k = 0; k < frames.size(); ++k) {
      if (!used[k]) continue;
      auto& [n, kernels] = by_name[store.name_of(frames[k].row)];
      ++n;
      kernels += spans[k].size();
      if (!used[widest] || spans[k].size() > spans[widest].size()) widest = k;
    }
    for (const auto& [frame, fk] : by_name)
      if (fk.first >= 2) repeated_kernels += fk.second;
    if (repeated_kernels >= half) {
      // The repeated name whose first frame comes first starts each iteration.
      for (size_t k = 0; k < frames.size(); ++k) {
        if (!used[k] || by_name[store.name_of(frames[k].row)].first < 2) continue;
        name = std::string(store.name_of(frames[k].row));
        std::vector<KernelSpan> starts;
        for (size_t j = 0; j < frames.size(); ++j)
          if (used[j] && store.name_of(frames[j].row) == name) starts.push_back(spans[j]);
        return iterations_starting_at(starts, static_cast<uint32_t>(seq.size()));
      }
    }
    if (used.empty() || !used[widest] || spans[widest].size() < half) return {};
    const auto c = children.find(store.python_id[frames[widest].row]);
    if (c == children.end()) return {};
    level = c->second;
  }
  return {};
}

}  // namespace sollens
