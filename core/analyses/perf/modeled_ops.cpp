#include "analyses/perf/modeled_ops.h"

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>

#include "analyses/ops/kernel_launchers.h"
#include "analyses/perf/step_annotations.h"
#include "store/gpu_class.h"

namespace sollens {

namespace {

constexpr std::string_view kBwdPrefix = "autograd::engine::evaluate_function:";

void append_u32(std::string& key, uint32_t v) { key.append(reinterpret_cast<const char*>(&v), sizeof v); }

struct KeyHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
};

}  // namespace

void append_subtree_kernels(const EventStore& s, const TraceTree& tree, uint32_t event,
                            std::vector<uint32_t>& out, std::vector<uint32_t>& stack) {
  const size_t begin = out.size();
  append_subtree_gpu_events(s, tree, event, out, stack);
  if (out.size() - begin < 2) return;
  const auto first = out.begin() + static_cast<std::ptrdiff_t>(begin);
  std::sort(first, out.end(), [&](uint32_t a, uint32_t b) { return s.ts[a] < s.ts[b] || (s.ts[a] == s.ts[b] && a < b); });
  out.erase(std::unique(first, out.end()), out.end());
}

double kernels_busy_us(const EventStore& s, std::span<const uint32_t> kernels) {
  if (kernels.empty()) return 0;
  if (kernels.size() == 1) return s.t_end(kernels[0]) - s.ts[kernels[0]];
  return busy_time_us(s, kernels);
}

RowMap forward_events_of_backward(const EventStore& s) {
  // cpu_ops by Sequence number, each number's in file order (a sorted array: a hash map
  // of vectors held about 100 bytes an op of a training trace).
  std::vector<std::pair<int64_t, uint32_t>> by_seq;
  for (uint32_t e = 0; e < s.size(); ++e)
    if (s.sequence_number[e] != kNoValue && s.category[e] == Category::kCpuOp) by_seq.emplace_back(s.sequence_number[e], e);
  std::stable_sort(by_seq.begin(), by_seq.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::pair<uint32_t, int32_t>> fwd;
  for (size_t begin = 0, end = 0; begin < by_seq.size(); begin = end) {
    while (end < by_seq.size() && by_seq[end].first == by_seq[begin].first) ++end;
    for (size_t i = begin; i < end; ++i) {
      const uint32_t b = by_seq[i].second;
      if (!s.name_of(b).starts_with(kBwdPrefix)) continue;
      int64_t best = -1;
      for (size_t j = begin; j < end; ++j) {
        const uint32_t f = by_seq[j].second;
        if (s.pid[f] == s.pid[b] && s.tid[f] == s.tid[b]) continue;
        if (best < 0 || s.ts[f] > s.ts[static_cast<size_t>(best)]) best = f;
      }
      if (best >= 0) fwd.emplace_back(b, static_cast<int32_t>(best));
    }
  }
  return RowMap::from_pairs(s.size(), std::move(fwd));
}

namespace {

// The forward op whose cached params a backward model reads: TraceLens keeps the last
// forward model built per Sequence number; here the last such op in the trace's order.
class ForwardOpsBySequence {
 public:
  int32_t find(const EventStore& s, const TraceTree& tree, std::string_view op, int64_t seq) {
    auto [it, inserted] = by_op_.try_emplace(std::string(op));
    if (inserted)
      for (uint32_t e = 0; e < s.size(); ++e)
        if (s.category[e] == Category::kCpuOp && tree.in_tree[e] && s.sequence_number[e] != kNoValue &&
            s.name_of(e) == op)
          it->second[s.sequence_number[e]] = e;
    const auto f = it->second.find(seq);
    return f == it->second.end() ? -1 : static_cast<int32_t>(f->second);
  }

 private:
  std::unordered_map<std::string, std::unordered_map<int64_t, uint32_t>> by_op_;
};

// Each forward op with exactly one backward op linked to it, to that backward op.
RowMap one_to_one_backward(const RowMap& fwd) {
  std::vector<std::pair<uint32_t, int32_t>> pairs;  // (forward, backward), by forward
  fwd.for_each([&](uint32_t b, int32_t f) { pairs.emplace_back(static_cast<uint32_t>(f), static_cast<int32_t>(b)); });
  std::stable_sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::pair<uint32_t, int32_t>> link;
  for (size_t i = 0; i < pairs.size(); ++i) {
    const bool alone = (i == 0 || pairs[i - 1].first != pairs[i].first) &&
                       (i + 1 == pairs.size() || pairs[i + 1].first != pairs[i].first);
    if (alone) link.push_back(pairs[i]);
  }
  return RowMap::from_pairs(fwd.rows(), std::move(link));
}

}  // namespace

RowMap linked_backward_events(const EventStore& s) {
  return one_to_one_backward(forward_events_of_backward(s));
}

ModeledOps evaluate_modeled_ops(const EventStore& s, const TraceTree& tree) {
  ModeledOps out(s);
  std::vector<std::pair<uint32_t, int32_t>> eval_of_event, fwd_row_of_event;
  out.forward_of_backward = forward_events_of_backward(s);
  out.bwd_link = one_to_one_backward(out.forward_of_backward);
  // Model lookups cached per interned name (most cpu_op names have no model).
  std::vector<const perf::PerfModelEntry*> entry_of_name;
  std::vector<uint8_t> looked_up;
  std::unordered_map<std::string, uint32_t, KeyHash, std::equal_to<>> eval_index;
  std::string key;
  std::vector<uint32_t> stack;
  std::vector<std::string_view> kernel_names;
  std::optional<perf::StepAnnotations> step_annotations;  // built for the first attention op
  ForwardOpsBySequence forward_ops;
  for (uint32_t e = 0; e < s.size(); ++e) {
    if (s.category[e] != Category::kCpuOp || !tree.in_tree[e]) continue;
    const StrId name = s.name[e];
    if (name >= looked_up.size()) {
      looked_up.resize(name + 1024, 0);
      entry_of_name.resize(name + 1024, nullptr);
    }
    if (!looked_up[name]) {
      looked_up[name] = 1;
      entry_of_name[name] = perf::find_perf_model(s.name_of(e));
    }
    const perf::PerfModelEntry* entry = entry_of_name[name];
    if (!entry) continue;

    const auto kernels_begin = static_cast<uint32_t>(out.kernels.size());
    append_subtree_kernels(s, tree, e, out.kernels, stack);
    const std::span<const uint32_t> kernels(out.kernels.data() + kernels_begin, out.kernels.size() - kernels_begin);
    const uint32_t args = out.args.intern(e);
    std::optional<uint32_t> forward_args;
    if (const std::string_view forward_op = perf::forward_op_of(entry->model);
        !forward_op.empty() && s.sequence_number[e] != kNoValue) {
      const int32_t f = forward_ops.find(s, tree, forward_op, s.sequence_number[e]);
      if (f >= 0) forward_args = out.args.intern(static_cast<uint32_t>(f));
    }
    key.clear();
    append_u32(key, name);
    append_u32(key, args);
    append_u32(key, forward_args.value_or(~0u));
    if (perf::perf_family(entry->family).reads_kernel_names || perf::reads_kernel_names(entry->model))
      for (uint32_t k : kernels) append_u32(key, s.name[k]);
    std::string_view annotation;
    if (entry->family == perf::Family::kInferenceAttention) {
      if (!step_annotations) step_annotations.emplace(s);
      const auto step = step_annotations->of(e);
      if (step) annotation = s.name_of(*step);
      append_u32(key, step ? s.name[*step] : ~StrId{0});
    }
    auto [it, inserted] = eval_index.try_emplace(key, static_cast<uint32_t>(out.evals.size()));
    if (inserted) {
      kernel_names.clear();
      for (uint32_t k : kernels) kernel_names.push_back(s.name_of(k));
      ModelEval& ev = out.evals.emplace_back();
      ev.entry = entry;
      ev.args = args;
      ev.result = perf::evaluate(entry->model, {s.name_of(e), out.args[args].args, kernel_names, annotation,
                                                forward_args ? &out.args[*forward_args].args : nullptr});
      ev.compute_spec = perf::compute_spec(ev.result);
    }
    const uint32_t eval = it->second;
    eval_of_event.emplace_back(e, static_cast<int32_t>(eval));
    const perf::ModelResult& r = out.evals[eval].result;
    if (r.status != perf::Status::kOk) {
      out.kernels.resize(kernels_begin);
      continue;
    }
    if (r.fwd.status == perf::Status::kOk) {
      fwd_row_of_event.emplace_back(e, static_cast<int32_t>(out.rows.size()));
      out.rows.push_back({e, eval, false, kernels_begin, static_cast<uint32_t>(out.kernels.size()),
                          kernels_busy_us(s, kernels)});
    } else {
      out.kernels.resize(kernels_begin);
    }
    // bwd rows: the forward op's 1:1-linked backward subtree, in the families that
    // have them (conv's bwd rows are the convolution_backward ops themselves, §4.7).
    if (perf::perf_family(entry->family).linked_bwd_rows && !entry->is_bwd_model && out.bwd_link[e] >= 0 &&
        r.bwd.status == perf::Status::kOk) {
      const auto begin = static_cast<uint32_t>(out.kernels.size());
      append_subtree_kernels(s, tree, static_cast<uint32_t>(out.bwd_link[e]), out.kernels, stack);
      const std::span<const uint32_t> bk(out.kernels.data() + begin, out.kernels.size() - begin);
      out.rows.push_back({e, eval, true, begin, static_cast<uint32_t>(out.kernels.size()), kernels_busy_us(s, bk)});
    }
  }
  out.eval_of_event = RowMap::from_pairs(s.size(), std::move(eval_of_event));
  out.fwd_row_of_event = RowMap::from_pairs(s.size(), std::move(fwd_row_of_event));
  return out;
}

}  // namespace sollens
