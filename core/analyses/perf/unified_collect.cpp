// unified_perf_summary's collection (tracelens-semantics.md §2.9): a DFS from the cpu
// roots (and parentless python_function roots when Python frames are in the tree) that
// stops at the outermost modeled op, at the sole backward op of a modeled forward op, or
// at a leaf cpu_op launching kernels.
#include <algorithm>

#include "analyses/ops/op_categories.h"
#include "analyses/perf/unified_perf_summary.h"
#include "store/gpu_class.h"

namespace sollens {

namespace {

bool contains_nccl(std::string_view name) {
  for (size_t i = 0; i + 4 <= name.size(); ++i)
    if ((name[i] | 0x20) == 'n' && (name[i + 1] | 0x20) == 'c' && (name[i + 2] | 0x20) == 'c' &&
        (name[i + 3] | 0x20) == 'l')
      return true;
  return false;
}

// In TraceLens's op -> perf-model map, or a torch.compile Triton kernel op (TraceLens's
// TritonCompiledPerfModel, matched by name prefix).
bool has_tracelens_perf_model(std::string_view name) {
  if (name.starts_with("triton_poi_") || name.starts_with("triton_red_") || name.starts_with("triton_per_"))
    return true;
  const auto entry = find_op_registry_entry(name);
  return entry && entry->has_perf_model;
}

// The facts §2.9's traversal asks of every node, precomputed in one pass each.
class Collector {
 public:
  Collector(const EventStore& s, const TraceTree& tree, const ModeledOps& ops)
      : s_(s), tree_(tree), ops_(ops), has_gpu_(s.size(), 0), modeled_(s.size(), 0),
        modeled_below_(s.size(), 0), visited_(s.size(), 0) {
    // has_gpu: the node's gpu_events list is non-empty (a linked GPU event below it).
    for (uint32_t g : tree.gpu_events)
      for (int32_t p = tree.parent[g]; p != kNoParent && !has_gpu_[static_cast<size_t>(p)];
           p = tree.parent[static_cast<size_t>(p)])
        has_gpu_[static_cast<size_t>(p)] = 1;
    // modeled: in TraceLens's op -> perf-model map (whether or not sollens implements
    // the model); modeled_below: a descendant cpu_op is modeled and has GPU work.
    std::vector<int8_t> by_name;
    for (uint32_t e = 0; e < s.size(); ++e) {
      if (s.category[e] != Category::kCpuOp || !tree.in_tree[e]) continue;
      if (s.name[e] >= by_name.size()) by_name.resize(s.name[e] + 1024, -1);
      int8_t& m = by_name[s.name[e]];
      if (m < 0) m = has_tracelens_perf_model(s.name_of(e)) ? 1 : 0;
      modeled_[e] = static_cast<uint8_t>(m);
    }
    for (uint32_t e = 0; e < s.size(); ++e) {
      if (!modeled_[e] || !has_gpu_[e]) continue;
      for (int32_t p = tree.parent[e]; p != kNoParent && !modeled_below_[static_cast<size_t>(p)];
           p = tree.parent[static_cast<size_t>(p)])
        modeled_below_[static_cast<size_t>(p)] = 1;
    }
  }

  std::vector<UnifiedOp> run(bool python_roots) {
    for (uint32_t r : tree_.cpu_roots) traverse(r);
    if (python_roots)
      for (uint32_t e = 0; e < s_.size(); ++e)
        if (s_.category[e] == Category::kPythonFunction && tree_.in_tree[e] && tree_.parent[e] == kNoParent)
          traverse(e);
    return std::move(out_);
  }

 private:
  void traverse(uint32_t e) {
    if (visited_[e]) return;
    visited_[e] = 1;
    const Category c = s_.category[e];
    if (c == Category::kPythonFunction) {  // transparent
      for (uint32_t ch : tree_.children(e)) traverse(ch);
      return;
    }
    if (c != Category::kCpuOp || !has_gpu_[e]) return;
    if (modeled_[e]) {
      out_.push_back({e, UnifiedOp::Kind::kModeled, -1});
      return;
    }
    if (!modeled_below_[e]) {
      if (const int32_t fwd = sole_backward_forward(e); fwd >= 0) {
        out_.push_back({e, UnifiedOp::Kind::kSoleBackward, fwd});
        return;
      }
      if (is_leaf(e, 0)) {
        if (!launches_nccl(e)) out_.push_back({e, UnifiedOp::Kind::kLeaf, -1});
        return;
      }
    }
    for (uint32_t ch : tree_.children(e)) traverse(ch);
  }

  // Reaches a GPU event through cuda_runtime / python_function nodes only, ≤ 10 levels.
  bool is_leaf(uint32_t e, int depth) const {
    if (depth >= 10) return false;
    for (uint32_t ch : tree_.children(e)) {
      const Category c = s_.category[ch];
      if (is_gpu_activity(c)) return true;
      if ((c == Category::kCudaRuntime || c == Category::kPythonFunction) && is_leaf(ch, depth + 1)) return true;
    }
    return false;
  }

  bool launches_nccl(uint32_t e) {
    kernels_.clear();
    append_subtree_kernels(s_, tree_, e, kernels_, stack_);
    for (uint32_t k : kernels_)
      if (contains_nccl(s_.name_of(k))) return true;
    return false;
  }

  // The modeled forward op whose backward metrics this op gets, or -1: an ancestor
  // within 5 levels is a backward event linked to a forward op with a bwd model, and
  // below that wrapper exactly one cpu_op with GPU work carries the wrapper's op name.
  int32_t sole_backward_forward(uint32_t e) {
    int32_t wrapper = -1;
    int32_t cur = static_cast<int32_t>(e);
    for (int level = 0; level < 5; ++level) {
      const int32_t p = tree_.parent[static_cast<size_t>(cur)];
      if (p == kNoParent) break;
      if (ops_.forward_of_backward[static_cast<size_t>(p)] >= 0) {
        wrapper = p;
        break;
      }
      cur = p;
    }
    if (wrapper < 0) return -1;
    const int32_t fwd = ops_.forward_of_backward[static_cast<size_t>(wrapper)];
    const int32_t eval = ops_.eval_of_event[static_cast<size_t>(fwd)];
    if (eval < 0) return -1;
    const perf::ModelResult& r = ops_.evals[static_cast<size_t>(eval)].result;
    if (r.status != perf::Status::kOk || r.bwd.status != perf::Status::kOk) return -1;
    const std::string_view wrapper_name = s_.name_of(static_cast<size_t>(wrapper));
    const size_t colon = wrapper_name.find(": ");
    const std::string_view main = colon == std::string_view::npos ? "" : wrapper_name.substr(colon + 2);
    size_t count = 0;
    stack_.assign(1, static_cast<uint32_t>(wrapper));
    while (!stack_.empty() && count < 2) {
      const uint32_t x = stack_.back();
      stack_.pop_back();
      for (uint32_t ch : tree_.children(x)) {
        if (s_.category[ch] != Category::kCpuOp) continue;
        if (has_gpu_[ch] && (colon == std::string_view::npos || s_.name_of(ch) == main)) ++count;
        stack_.push_back(ch);
      }
    }
    return count == 1 ? fwd : -1;
  }

  const EventStore& s_;
  const TraceTree& tree_;
  const ModeledOps& ops_;
  std::vector<uint8_t> has_gpu_, modeled_, modeled_below_, visited_;
  std::vector<UnifiedOp> out_;
  std::vector<uint32_t> kernels_, stack_;
};

}  // namespace

std::vector<UnifiedOp> collect_unified_ops(const EventStore& s, const TraceTree& tree, const ModeledOps& ops) {
  bool python_in_tree = false;
  for (uint32_t e = 0; e < s.size() && !python_in_tree; ++e)
    python_in_tree = s.category[e] == Category::kPythonFunction && tree.in_tree[e];
  return Collector(s, tree, ops).run(python_in_tree);
}

}  // namespace sollens
