#include "analyses/solar/solar_graph.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <unordered_map>
#include <utility>

#include "analyses/solar/solar_weights.h"

namespace sollens::solar {
namespace {

// A tensor's identity at one moment: (tensor id, storage id). Both are reused after
// a free, so a key names the latest tensor that had it.
using Key = std::pair<int64_t, int64_t>;
Key key_of(const EtTensor& t) { return {t.id, t.storage}; }

bool is_op(const EtNode& n) { return !n.op_schema.empty(); }

struct Topology {
  std::vector<uint32_t> by_id;     // node indices in id (start) order
  std::vector<int32_t> parent;     // index of the parent node, -1 for roots
};

Topology topology_of(const ExecutionGraph& graph) {
  Topology t;
  t.by_id.resize(graph.nodes.size());
  std::iota(t.by_id.begin(), t.by_id.end(), 0u);
  std::stable_sort(t.by_id.begin(), t.by_id.end(), [&](uint32_t a, uint32_t b) {
    return graph.nodes[a].id < graph.nodes[b].id;
  });
  std::unordered_map<int64_t, uint32_t> index_of;
  for (uint32_t i = 0; i < graph.nodes.size(); ++i) index_of.emplace(graph.nodes[i].id, i);
  t.parent.assign(graph.nodes.size(), -1);
  for (uint32_t i = 0; i < graph.nodes.size(); ++i) {
    const EtNode& n = graph.nodes[i];
    auto it = index_of.find(n.parent);
    // A parent written with a larger id would make a cycle possible: ids follow start order.
    if (it != index_of.end() && it->second != i && graph.nodes[it->second].id < n.id)
      t.parent[i] = static_cast<int32_t>(it->second);
  }
  return t;
}

bool is_counted_kind(OpKind k) {
  return k != OpKind::kAllocation && k != OpKind::kView && k != OpKind::kCommunication;
}

bool is_optimizer_step(const EtNode& n) { return n.name.starts_with("Optimizer.step"); }

// Storages the optimizer updates in place (list 0 of _foreach_ ops, self of
// per-parameter ops) that are also read outside the optimizer and that no optimizer op
// creates: the parameters, not its state (momentum buffers, Adam moments are touched
// only by the optimizer) nor its temporaries.
std::set<int64_t> optimizer_parameters(const ExecutionGraph& graph, const Topology& topo,
                                       const std::vector<uint8_t>& in_optimizer_step,
                                       const std::vector<Segment>& segment) {
  std::set<int64_t> updated, created;
  for (uint32_t i = 0; i < graph.nodes.size(); ++i) {
    const EtNode& n = graph.nodes[i];
    if (!is_op(n) || !in_optimizer_step[i]) continue;
    if (!is_in_place(op_base_name(n.name))) {
      // Temporaries (Adam's sqrt of the second moment) live in storages freed activations
      // used before: updating them in place does not make them parameters.
      for (const EtValue& v : n.outputs)
        for (uint32_t t : v.tensors) created.insert(graph.tensors[t].storage);
      continue;
    }
    if (n.inputs.empty()) continue;
    for (uint32_t t : n.inputs[0].tensors) updated.insert(graph.tensors[t].storage);
  }
  for (int64_t s : created) updated.erase(s);
  std::set<int64_t> params;
  if (updated.empty()) return params;
  for (uint32_t i : topo.by_id) {
    const EtNode& n = graph.nodes[i];
    if (!is_op(n) || segment[i] == Segment::kOptimizer) continue;
    for (const EtValue& v : n.inputs)
      for (uint32_t t : v.tensors)
        if (updated.count(graph.tensors[t].storage)) params.insert(graph.tensors[t].storage);
  }
  return params;
}

double total_elements(const std::vector<Access>& a) {
  double n = 0;
  for (const Access& x : a) n += x.elements;
  return n;
}

// Solar's per-op memory: every input read, every output written, with its overrides.
void fill_accesses(const EtNode& n, OpKind kind, const ExecutionGraph& graph, SolarNode& s) {
  for (const EtValue& v : n.inputs)
    for (uint32_t t : v.tensors)
      s.reads.push_back({t, static_cast<double>(graph.tensors[t].numel)});
  for (const EtValue& v : n.outputs)
    for (uint32_t t : v.tensors)
      s.writes.push_back({t, static_cast<double>(graph.tensors[t].numel)});
  // An in-place _foreach_ op lists no outputs: it writes its first list.
  if (s.writes.empty() && is_in_place(op_base_name(n.name)) && !n.inputs.empty())
    for (uint32_t t : n.inputs[0].tensors)
      s.writes.push_back({t, static_cast<double>(graph.tensors[t].numel)});
  if (kind == OpKind::kEmbedding && !s.reads.empty()) {
    const double read = std::min(total_elements(s.reads), total_elements(s.writes));
    for (Access& a : s.reads) a.elements = 0;
    s.reads.back().elements = read;
    for (Access& a : s.writes) a.elements = 0;
  }
  if (kind == OpKind::kScatter) {
    // The target (largest input) is not read; the source's size is what is written.
    std::vector<double> sizes;
    for (const Access& a : s.reads) sizes.push_back(a.elements);
    std::sort(sizes.begin(), sizes.end());
    const double written = sizes.size() > 1 ? sizes[sizes.size() - 2] : 0;
    for (Access& a : s.reads) a.elements = 0;
    for (Access& a : s.writes) a.elements = 0;
    if (!s.writes.empty()) s.writes.front().elements = written;
  }
  for (auto* list : {&s.reads, &s.writes})
    for (Access& a : *list) a.bytes = a.elements * static_cast<double>(graph.tensors[a.tensor].itemsize);
}

double largest_output(const EtNode& n, const ExecutionGraph& graph) {
  double largest = 0;
  for (const EtValue& v : n.outputs)
    for (uint32_t t : v.tensors) largest = std::max(largest, static_cast<double>(graph.tensors[t].numel));
  return largest;
}

// The elements a gather takes from its source: one per target row for the losses,
// one per output element for gather / index_select / take_along_dim.
double gathered_elements(const EtNode& n, const ExecutionGraph& graph) {
  if (op_base_name(n.name).starts_with("nll_loss"))
    for (const EtValue& v : n.inputs)
      if (v.name == "target" && !v.tensors.empty())
        return static_cast<double>(graph.tensors[v.tensors.front()].numel);
  return largest_output(n, graph);
}

// Solar's traffic with our corrections, access by access (README: "Corrected per-op
// bytes"): a fill reads nothing, copy_ does not read its destination, a gather reads
// one element of its source per index.
void correct_accesses(const EtNode& n, const ExecutionGraph& graph, SolarNode& s) {
  for (auto* list : {&s.reads, &s.writes})
    for (Access& a : *list) {
      a.corrected_elements = a.elements;
      a.corrected_bytes = a.bytes;
    }
  const auto unread = [](Access& a) { a.corrected_elements = a.corrected_bytes = 0; };
  if (s.kind == OpKind::kFill)
    for (Access& a : s.reads) unread(a);
  if (op_base_name(n.name) == "copy_" && !s.reads.empty()) unread(s.reads.front());
  if (s.kind == OpKind::kGather)
    for (const EtValue& v : n.inputs) {
      if ((v.name != "self" && v.name != "input") || v.tensors.empty()) continue;
      for (Access& a : s.reads)
        if (a.tensor == v.tensors.front()) {
          a.corrected_elements = std::min(a.elements, gathered_elements(n, graph));
          a.corrected_bytes = a.corrected_elements * static_cast<double>(graph.tensors[a.tensor].itemsize);
        }
      break;
    }
  s.corrected_unfused_bytes = 0;
  for (auto* list : {&s.reads, &s.writes})
    for (const Access& a : *list) s.corrected_unfused_bytes += a.corrected_bytes;
}

class Builder {
 public:
  explicit Builder(const ExecutionGraph& graph) : graph_(graph), topo_(topology_of(graph)) {}

  SolarGraph build() {
    classify_nodes();
    mark_segments();
    choose_counted();
    const NodeView view{graph_, topo_.by_id, kind_, counted_};
    std::set<int64_t> params = optimizer_parameters(graph_, topo_, in_optimizer_step_, segment_);
    result_.parameters_from_optimizer = !params.empty();
    if (params.empty()) params = inferred_parameters(view);
    result_.parameters = params.size();
    result_.parameter_source = result_.parameters_from_optimizer ? ParameterSource::kOptimizer
                               : params.empty()                  ? ParameterSource::kNone
                                                                 : ParameterSource::kInferred;
    const std::set<int64_t> state = state_storages(view, params);
    result_.state_storages = state.size();
    link_dataflow();
    classify_tensors(params, state);
    const WeightReads w = weight_reads(result_.nodes, graph_);
    result_.weight_elements_once = w.elements_once;
    result_.weight_bytes_once = w.bytes_once;
    result_.weight_elements_read = w.elements_read;
    result_.weight_bytes_read = w.bytes_read;
    result_.weight_passes = w.max_passes;
    return std::move(result_);
  }

 private:
  void classify_nodes() {
    kind_.assign(graph_.nodes.size(), OpKind::kElementwise);
    for (uint32_t i = 0; i < graph_.nodes.size(); ++i) {
      if (!is_op(graph_.nodes[i])) continue;
      ++result_.op_nodes;
      kind_[i] = classify_op(graph_.nodes[i], graph_);
      if (kind_[i] == OpKind::kView) ++result_.view_nodes;
      if (kind_[i] == OpKind::kAllocation) ++result_.allocation_nodes;
      if (kind_[i] == OpKind::kCommunication) ++result_.communication_nodes;
    }
  }

  // Parents come before children in id order.
  void mark_segments() {
    segment_.assign(graph_.nodes.size(), Segment::kForward);
    in_optimizer_step_.assign(graph_.nodes.size(), 0);
    for (uint32_t i : topo_.by_id) {
      const EtNode& n = graph_.nodes[i];
      const int32_t p = topo_.parent[i];
      Segment s = p >= 0 ? segment_[p] : Segment::kForward;
      in_optimizer_step_[i] = (p >= 0 && in_optimizer_step_[p]) || is_optimizer_step(n);
      if (n.name.starts_with("Optimizer.")) s = Segment::kOptimizer;
      else if (s != Segment::kOptimizer &&
               (n.scope == 1 || n.name.starts_with("autograd::engine::evaluate_function")))
        s = Segment::kBackward;
      segment_[i] = s;
    }
  }

  // A node is counted when it does work and no descendant is counted: children come
  // after parents in id order, so walk it backwards.
  void choose_counted() {
    counted_.assign(graph_.nodes.size(), 0);
    std::vector<uint8_t> counted_below(graph_.nodes.size(), 0);
    for (auto it = topo_.by_id.rbegin(); it != topo_.by_id.rend(); ++it) {
      const uint32_t i = *it;
      const bool work = is_op(graph_.nodes[i]) && is_counted_kind(kind_[i]);
      if (work && counted_below[i]) ++result_.composite_nodes;
      counted_[i] = work && !counted_below[i];
      const int32_t p = topo_.parent[i];
      if (p >= 0 && (counted_[i] || counted_below[i])) counted_below[p] = 1;
    }
  }

  Key resolve(Key k) const {
    for (int hops = 0; hops < 64; ++hops) {
      auto it = alias_.find(k);
      if (it == alias_.end() || it->second == k) return k;
      k = it->second;
    }
    return k;
  }

  void record_view(const EtNode& n) {
    const EtTensor* base = nullptr;
    for (const EtValue& v : n.inputs)
      if (!v.tensors.empty()) {
        base = &graph_.tensors[v.tensors.front()];
        break;
      }
    if (!base) return;
    const Key target = resolve(key_of(*base));
    for (const EtValue& v : n.outputs)
      for (uint32_t t : v.tensors) {
        const Key k = key_of(graph_.tensors[t]);
        if (resolve(target) == k) continue;
        alias_[k] = target;
        producer_.erase(k);  // a reused id: the key now names this view, not what it named
      }
  }

  int32_t producer_of(const EtTensor& t) const {
    auto it = producer_.find(key_of(t));
    if (it == producer_.end()) it = producer_.find(resolve(key_of(t)));
    return it == producer_.end() ? -1 : static_cast<int32_t>(it->second.first);
  }

  void link_dataflow() {
    for (uint32_t i : topo_.by_id) {
      const EtNode& n = graph_.nodes[i];
      if (!is_op(n)) continue;
      if (kind_[i] == OpKind::kView) record_view(n);
      if (!counted_[i]) continue;
      SolarNode s;
      s.node = i;
      s.kind = kind_[i];
      s.segment = segment_[i];
      s.cost = op_cost(n, kind_[i], graph_);
      const bool needs_shapes = s.kind == OpKind::kMatmul || s.kind == OpKind::kConvolution ||
                                s.kind == OpKind::kConvolutionBackward ||
                                s.kind == OpKind::kAttention ||
                                s.kind == OpKind::kAttentionBackward;
      if (needs_shapes && s.cost.macs == 0) ++result_.uncosted_compute_nodes;
      for (int32_t p = topo_.parent[i]; p >= 0; p = topo_.parent[p])
        if (is_user_annotation(graph_.nodes[p])) s.annotations.push_back(static_cast<uint32_t>(p));
      fill_accesses(n, s.kind, graph_, s);
      correct_accesses(n, graph_, s);
      const uint32_t self = static_cast<uint32_t>(result_.nodes.size());
      for (Access& a : s.reads) {
        a.producer = producer_of(graph_.tensors[a.tensor]);
        if (a.producer >= 0) mark_consumed(a);
      }
      for (uint32_t w = 0; w < s.writes.size(); ++w) {
        const Key k = key_of(graph_.tensors[s.writes[w].tensor]);
        // A fresh output whose key was a view's (ids are reused) is no view any more;
        // an in-place write through a view also updates the view's base.
        if (!reads_key(s, k)) alias_.erase(k);
        const Key base = resolve(k);
        producer_[k] = {self, w};
        if (base != k) producer_[base] = {self, w};  // written through a view
      }
      result_.nodes.push_back(std::move(s));
    }
  }

  bool reads_key(const SolarNode& s, const Key& k) const {
    for (const Access& a : s.reads)
      if (key_of(graph_.tensors[a.tensor]) == k) return true;
    return false;
  }

  void mark_consumed(const Access& read) {
    const EtTensor& t = graph_.tensors[read.tensor];
    auto it = producer_.find(key_of(t));
    if (it == producer_.end()) it = producer_.find(resolve(key_of(t)));
    if (it == producer_.end()) return;
    result_.nodes[it->second.first].writes[it->second.second].consumed = true;
  }

  void classify_tensors(const std::set<int64_t>& params, const std::set<int64_t>& state) {
    std::map<Key, std::pair<double, double>> unique_inputs;  // largest (elements, bytes)
    for (SolarNode& s : result_.nodes) {
      for (Access& a : s.reads) {
        const EtTensor& t = graph_.tensors[a.tensor];
        a.weight = params.count(t.storage) > 0;
        a.state = !a.weight && state.count(t.storage) > 0;
        if (a.state) {
          s.state_elements += a.elements;
          s.state_bytes += a.bytes;
        }
        if (a.weight) {
          s.weight_elements += a.elements;
          s.weight_bytes += a.bytes;
        }
        if (!a.weight && !a.state && a.producer >= 0) {
          s.intermediate_elements += a.elements;
          s.intermediate_bytes += a.bytes;
        } else {
          s.model_io_elements += a.elements;
          s.model_io_bytes += a.bytes;
          auto& u = unique_inputs[resolve(key_of(t))];
          u.first = std::max(u.first, a.elements);
          u.second = std::max(u.second, a.bytes);
        }
      }
      for (Access& a : s.writes) {
        a.state = state.count(graph_.tensors[a.tensor].storage) > 0;
        if (a.state) {
          s.state_elements += a.elements;
          s.state_bytes += a.bytes;
        }
        if (a.consumed && !a.state) {
          s.intermediate_elements += a.elements;
          s.intermediate_bytes += a.bytes;
          ++result_.intermediate_tensors;
        } else {
          s.model_io_elements += a.elements;
          s.model_io_bytes += a.bytes;
          result_.unique_external_elements += a.elements;
          result_.unique_external_bytes += a.bytes;
        }
      }
      s.unfused_elements = s.intermediate_elements + s.model_io_elements;
      s.unfused_bytes = s.intermediate_bytes + s.model_io_bytes;
    }
    for (const auto& [key, u] : unique_inputs) {
      result_.unique_external_elements += u.first;
      result_.unique_external_bytes += u.second;
    }
  }

  const ExecutionGraph& graph_;
  Topology topo_;
  std::vector<OpKind> kind_;
  std::vector<Segment> segment_;
  std::vector<uint8_t> in_optimizer_step_;
  std::vector<uint8_t> counted_;
  std::map<Key, Key> alias_;
  std::map<Key, std::pair<uint32_t, uint32_t>> producer_;  // → (SolarNode, write slot)
  SolarGraph result_;
};

}  // namespace

std::string_view segment_name(Segment s) {
  switch (s) {
    case Segment::kForward: return "forward";
    case Segment::kBackward: return "backward";
    case Segment::kOptimizer: return "optimizer";
  }
  return "forward";
}

bool is_user_annotation(const EtNode& node) {
  return node.op_schema.empty() && node.scope == 7 && !node.name.starts_with("[pytorch|profiler|");
}

SolarGraph build_solar_graph(const ExecutionGraph& graph) { return Builder(graph).build(); }

}  // namespace sollens::solar
