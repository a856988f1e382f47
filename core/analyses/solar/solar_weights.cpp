#include "analyses/solar/solar_weights.h"

#include <algorithm>
#include <map>
#include <string_view>

#include "analyses/solar/attention_cost.h"
#include "analyses/solar/solar_graph.h"

namespace sollens::solar {
namespace {

bool is_parameter_name(std::string_view name) {
  static const std::set<std::string_view> names = {
      "weight",       "bias",          "running_mean", "running_var", "in_proj_weight",
      "in_proj_bias", "out_proj_weight", "weight_ih",   "weight_hh",   "bias_ih",
      "bias_hh"};
  return names.count(name) > 0;
}

// The operand of a matrix product that holds the weights: B of A·B, and the added
// bias of addmm-style ops.
bool is_matmul_weight_operand(std::string_view base, std::string_view name) {
  if (name == "mat2" || name == "batch2" || name == "vec" || name == "other") return true;
  return name == "self" &&
         (base == "addmm" || base == "baddbmm" || base == "addmv" || base == "_addmm_activation");
}

bool in_weight_position(const NodeView& v, uint32_t i, const EtValue& value) {
  if (is_parameter_name(value.name)) return true;
  return v.kind[i] == OpKind::kMatmul &&
         is_matmul_weight_operand(op_base_name(v.graph.nodes[i].name), value.name);
}

// Every storage a counted op writes: its outputs, and the first argument of an
// in-place op (which may list no outputs).
std::set<int64_t> written_storages(const NodeView& v) {
  std::set<int64_t> written;
  for (uint32_t i : v.by_id) {
    if (!v.counted[i]) continue;
    const EtNode& n = v.graph.nodes[i];
    for (const EtValue& out : n.outputs)
      for (uint32_t t : out.tensors) written.insert(v.graph.tensors[t].storage);
    if (is_in_place(op_base_name(n.name)) && !n.inputs.empty())
      for (uint32_t t : n.inputs[0].tensors) written.insert(v.graph.tensors[t].storage);
  }
  return written;
}

// The tensor a copy or cast reads: copy_'s src, else its first tensor argument.
const EtTensor* copied_from(const EtNode& n, const ExecutionGraph& graph) {
  const EtTensor* first = nullptr;
  for (const EtValue& value : n.inputs) {
    if (value.tensors.empty()) continue;
    if (value.name == "src") return &graph.tensors[value.tensors.front()];
    if (!first) first = &graph.tensors[value.tensors.front()];
  }
  return first;
}

std::map<int64_t, double> largest_numel_by_storage(const ExecutionGraph& graph) {
  std::map<int64_t, double> largest;
  for (const EtTensor& t : graph.tensors) {
    double& n = largest[t.storage];
    n = std::max(n, static_cast<double>(t.numel));
  }
  return largest;
}

bool is_index_update(std::string_view base) {
  return base == "index_copy_" || base == "index_put_" || base == "_index_put_impl_" ||
         base == "scatter_";
}

bool is_attention(OpKind k) { return k == OpKind::kAttention || k == OpKind::kAttentionBackward; }

// Where the keys or values attention reads were stored: back through copies (a
// contiguous or repeat_kv copy of the cache) to the cat that grew them, if any.
int64_t cache_root(const NodeView& v, const std::map<int64_t, uint32_t>& last_writer, int64_t storage,
                   int32_t& cat) {
  cat = -1;
  for (int hop = 0; hop < 4; ++hop) {
    auto w = last_writer.find(storage);
    if (w == last_writer.end()) return storage;
    const EtNode& n = v.graph.nodes[w->second];
    if (op_base_name(n.name) == "cat") {
      cat = static_cast<int32_t>(w->second);
      return storage;
    }
    const EtTensor* source = v.kind[w->second] == OpKind::kDataMovement ? copied_from(n, v.graph) : nullptr;
    if (!source) return storage;
    storage = source->storage;
  }
  return storage;
}

}  // namespace

std::set<int64_t> inferred_parameters(const NodeView& v) {
  const std::set<int64_t> written = written_storages(v);
  std::map<int64_t, uint32_t> last_writer;  // storage → counted node that wrote it last
  std::set<int64_t> params;
  for (uint32_t i : v.by_id) {
    const EtNode& n = v.graph.nodes[i];
    if (n.op_schema.empty()) continue;
    for (const EtValue& value : n.inputs) {
      if (value.tensors.empty() || !in_weight_position(v, i, value)) continue;
      const int64_t s = v.graph.tensors[value.tensors.front()].storage;
      if (!written.count(s)) {
        params.insert(s);
        continue;
      }
      // A weight cast or copied before use (autocast's bf16 copy): the weight is its source.
      auto w = last_writer.find(s);
      if (w == last_writer.end() || v.kind[w->second] != OpKind::kDataMovement) continue;
      const EtTensor* source = copied_from(v.graph.nodes[w->second], v.graph);
      if (source && !written.count(source->storage)) params.insert(source->storage);
    }
    if (!v.counted[i]) continue;
    for (const EtValue& out : n.outputs)
      for (uint32_t t : out.tensors) last_writer[v.graph.tensors[t].storage] = i;
    if (is_in_place(op_base_name(n.name)) && !n.inputs.empty())
      for (uint32_t t : n.inputs[0].tensors) last_writer[v.graph.tensors[t].storage] = i;
  }
  return params;
}

std::set<int64_t> state_storages(const NodeView& v, const std::set<int64_t>& params) {
  const std::map<int64_t, double> largest = largest_numel_by_storage(v.graph);
  std::map<int64_t, uint32_t> last_writer;  // storage → counted node that wrote it last
  std::set<int64_t> indexed, partly_copied, cached_kv, cache_roots, grown;
  for (uint32_t i : v.by_id) {
    const EtNode& n = v.graph.nodes[i];
    if (n.op_schema.empty()) continue;
    const std::string_view base = op_base_name(n.name);
    if (is_attention(v.kind[i])) {
      // A cache holds more keys than the step's queries; self-attention in training reads
      // as many keys as queries, from buffers that may also be filled a part at a time.
      const AttentionShape a = attention_shape(n, v.graph);
      const bool cached = a.key_len > a.query_len;
      for (const EtValue& value : n.inputs) {
        if ((value.name != "key" && value.name != "value") || value.tensors.empty()) continue;
        const int64_t s = v.graph.tensors[value.tensors.front()].storage;
        if (cached) cached_kv.insert(s);
        int32_t cat = -1;
        const int64_t root = cache_root(v, last_writer, s, cat);
        if (cached && cat >= 0)
          for (const EtValue& in : v.graph.nodes[static_cast<uint32_t>(cat)].inputs)
            for (uint32_t t : in.tensors)
              if (cache_roots.count(v.graph.tensors[t].storage)) {
                grown.insert(v.graph.tensors[t].storage);
                grown.insert(root);
              }
        cache_roots.insert(root);
      }
    }
    if (!v.counted[i]) continue;
    if (!n.inputs.empty() && !n.inputs[0].tensors.empty()) {
      const EtTensor& target = v.graph.tensors[n.inputs[0].tensors.front()];
      if (is_index_update(base)) indexed.insert(target.storage);
      if (base == "copy_" && static_cast<double>(target.numel) < largest.at(target.storage))
        partly_copied.insert(target.storage);
    }
    for (const EtValue& out : n.outputs)
      for (uint32_t t : out.tensors) last_writer[v.graph.tensors[t].storage] = i;
    if (is_in_place(base) && !n.inputs.empty())
      for (uint32_t t : n.inputs[0].tensors) last_writer[v.graph.tensors[t].storage] = i;
  }
  std::set<int64_t> state;
  for (int64_t s : indexed) state.insert(s);
  for (int64_t s : partly_copied)
    if (cached_kv.count(s)) state.insert(s);
  state.insert(grown.begin(), grown.end());
  for (int64_t s : params) state.erase(s);
  return state;
}

WeightReads weight_reads(const std::vector<SolarNode>& nodes, const ExecutionGraph& graph) {
  struct Seen {
    double elements = 0, bytes = 0;            // its largest read
    double pass_elements = 0, pass_bytes = 0;  // the largest read of the current pass
    double read_elements = 0, read_bytes = 0;  // the passes before it
    size_t passes = 0;
    size_t node = 0;     // the counted node that read it last
    uint64_t stamp = 0;  // the weight-read stamp then
  };
  std::map<int64_t, Seen> seen;
  uint64_t stamp = 0;  // advances whenever a different weight than the last one is read
  int64_t previous = -1;
  for (size_t j = 0; j < nodes.size(); ++j)
    for (const Access& a : nodes[j].reads) {
      if (!a.weight) continue;
      const int64_t s = graph.tensors[a.tensor].storage;
      if (stamp == 0 || s != previous) ++stamp;
      previous = s;
      Seen& w = seen[s];
      const bool other_ops_between = j > w.node + 1;
      const bool other_weights_between = w.stamp + 1 < stamp;
      if (w.passes == 0 || (j != w.node && (other_ops_between || other_weights_between))) {
        ++w.passes;
        w.read_elements += w.pass_elements;
        w.read_bytes += w.pass_bytes;
        w.pass_elements = w.pass_bytes = 0;
      }
      w.node = j;
      w.stamp = stamp;
      w.elements = std::max(w.elements, a.elements);
      w.bytes = std::max(w.bytes, a.bytes);
      // A pass reads what its largest read needs: a lookup (embedding, index_select)
      // only its rows.
      w.pass_elements = std::max(w.pass_elements, a.corrected_elements);
      w.pass_bytes = std::max(w.pass_bytes, a.corrected_bytes);
    }
  WeightReads r;
  for (const auto& [storage, w] : seen) {
    r.elements_once += w.elements;
    r.bytes_once += w.bytes;
    r.elements_read += w.read_elements + w.pass_elements;
    r.bytes_read += w.read_bytes + w.pass_bytes;
    r.max_passes = std::max(r.max_passes, w.passes);
  }
  return r;
}

}  // namespace sollens::solar
