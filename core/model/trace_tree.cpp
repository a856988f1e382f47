#include "model/trace_tree.h"

#include "model/flat_index.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace sollens {

namespace {

bool is_host_tree_category(Category c, bool include_python) {
  return c == Category::kCpuOp || is_runtime(c) ||
         (include_python && c == Category::kPythonFunction);
}

bool contains_launch(std::string_view name) {
  static constexpr std::string_view kLaunch = "launch";
  if (name.size() < kLaunch.size()) return false;
  for (size_t i = 0; i + kLaunch.size() <= name.size(); ++i) {
    size_t k = 0;
    while (k < kLaunch.size() &&
           (name[i + k] | 0x20) == kLaunch[k])  // ASCII lower-case compare
      ++k;
    if (k == kLaunch.size()) return true;
  }
  return false;
}

LinkingKey choose_linking_key(const EventStore& s) {
  for (size_t i = 0; i < s.size(); ++i)
    if (is_runtime(s.category[i]) && contains_launch(s.name_of(i)))
      return s.correlation[i] != kNoValue ? LinkingKey::kCorrelation : LinkingKey::kExternalId;
  return LinkingKey::kExternalId;
}

struct TripleKey {
  StrId pid, tid;
  int64_t link;
  bool operator==(const TripleKey&) const = default;
};
struct TripleHash {
  size_t operator()(const TripleKey& k) const {
    uint64_t h = (uint64_t(k.pid) << 32 | k.tid) * 0x9e3779b97f4a7c15ULL;
    h ^= uint64_t(k.link) * 0xc2b2ae3d27d4eb4fULL;
    return static_cast<size_t>(h ^ (h >> 29));
  }
};

struct Stack {
  std::vector<uint32_t> items;
  int cpu_ops = 0;
};

}  // namespace

TraceTree TraceTree::build(const EventStore& s, const TreeOptions& options) {
  TraceTree tree;
  const size_t n = s.size();
  tree.parent.assign(n, kNoParent);
  tree.in_tree.assign(n, 0);
  std::vector<std::pair<uint32_t, uint32_t>> edges;  // (parent, child) in TraceLens's order

  // 1. Host call stacks: stable sort by ts, one stack per (pid, tid).
  std::vector<uint32_t> host;
  for (uint32_t i = 0; i < n; ++i)
    if (is_host_tree_category(s.category[i], options.include_python)) host.push_back(i);
  std::stable_sort(host.begin(), host.end(),
                   [&](uint32_t a, uint32_t b) { return s.ts[a] < s.ts[b]; });
  tree.host_events = host.size();

  std::unordered_map<uint64_t, Stack> stacks;
  for (uint32_t e : host) {
    tree.in_tree[e] = 1;
    Stack& st = stacks[uint64_t(s.pid[e]) << 32 | s.tid[e]];
    const double ts = s.ts[e], t_end = s.t_end(e);
    auto pop = [&] {
      if (s.category[st.items.back()] == Category::kCpuOp) --st.cpu_ops;
      st.items.pop_back();
    };
    while (!st.items.empty() && ts >= s.t_end(st.items.back())) pop();
    if (!st.items.empty() && t_end > s.t_end(st.items.back())) {
      // Bleed rule: a sub-µs overhang is re-parented one level up, anything larger
      // is left out of the tree.
      if (s.t_end(st.items.back()) - ts < 1.0 && st.items.size() >= 2) {
        pop();
        ++tree.host_events_reparented;
      } else {
        ++tree.host_events_dropped;
        continue;
      }
    }
    if (!st.items.empty()) {
      tree.parent[e] = static_cast<int32_t>(st.items.back());
      edges.emplace_back(st.items.back(), e);
    }
    st.items.push_back(e);
    if (s.category[e] == Category::kCpuOp) {
      if (st.cpu_ops == 0) tree.cpu_roots.push_back(e);
      ++st.cpu_ops;
    }
  }

  // 2. Indexes for GPU linking.
  tree.linking_key = choose_linking_key(s);
  const auto& link = tree.linking_key == LinkingKey::kCorrelation ? s.correlation : s.external_id;

  bool has_ac2g = false, has_legacy = false;
  for (size_t i = 0; i < n && !has_ac2g; ++i) {
    has_ac2g = s.category[i] == Category::kFlowAc2g;
    has_legacy = has_legacy || s.category[i] == Category::kFlowLegacy;
  }
  const Category flow_category =
      !has_ac2g && options.legacy_flows_when_no_ac2g ? Category::kFlowLegacy : Category::kFlowAc2g;
  tree.used_legacy_flows = flow_category == Category::kFlowLegacy && has_legacy;

  const auto graph_launch_a = s.strings.find("cudaGraphLaunch");
  const auto graph_launch_b = s.strings.find("hipGraphLaunch");
  const bool has_graph_launches = graph_launch_a || graph_launch_b;
  FlatIndex<int64_t, IdHash> flow_start(n / 16), flow_end(n / 16);  // last one per id wins
  FlatIndex<TripleKey, TripleHash> by_pid_tid_link(n / 4);
  std::unordered_map<int64_t, std::vector<uint32_t>> gpu_by_correlation;  // for graph launches
  for (uint32_t i = 0; i < n; ++i) {
    const Category c = s.category[i];
    if (c == flow_category) {
      if (s.phase[i] == Phase::kFlowStart) flow_start.insert_or_assign(s.flow_id[i], i);
      else if (s.phase[i] == Phase::kFlowEnd) flow_end.insert_or_assign(s.flow_id[i], i);
      continue;
    }
    if (is_gpu_activity(c)) {
      tree.gpu_events.push_back(i);
      if (has_graph_launches && s.correlation[i] != kNoValue)
        gpu_by_correlation[s.correlation[i]].push_back(i);
    }
    if (s.has_args_object[i] && link[i] != kNoValue)
      by_pid_tid_link.insert_or_assign(TripleKey{s.pid[i], s.tid[i], link[i]}, i);
  }

  // 3. Runtime → GPU links, runtime events in file order.
  std::vector<uint32_t> single(1);
  for (uint32_t r = 0; r < n; ++r) {
    if (!is_runtime(s.category[r])) continue;
    const int64_t id = link[r];
    if (id == kNoValue) continue;
    std::span<const uint32_t> targets;
    if (s.name[r] == graph_launch_a || s.name[r] == graph_launch_b) {
      auto it = gpu_by_correlation.find(id);
      if (it != gpu_by_correlation.end()) targets = it->second;
    } else {
      if (!flow_start.find(id)) continue;
      const std::optional<uint32_t> end = flow_end.find(id);
      if (!end) {
        ++tree.launches_without_flow;
        continue;
      }
      const uint32_t f = *end;
      const std::optional<uint32_t> found = by_pid_tid_link.find(TripleKey{s.pid[f], s.tid[f], s.flow_id[f]});
      if (!found) continue;
      single[0] = *found;
      targets = single;
    }
    for (uint32_t g : targets) {
      // A flow that ends on a host event would make TraceLens rewrite the host tree
      // (or loop on itself); such ends are not GPU work and are skipped.
      if (g == r || is_host_tree_category(s.category[g], true)) continue;
      edges.emplace_back(r, g);
      tree.parent[g] = static_cast<int32_t>(r);
      if (!tree.in_tree[g] && is_gpu_activity(s.category[g])) ++tree.linked_gpu_events;
      tree.in_tree[g] = 1;
    }
  }

  // 4. Children lists (CSR), keeping the order TraceLens appends them in.
  tree.child_offsets_.assign(n + 1, 0);
  for (auto& [p, c] : edges) ++tree.child_offsets_[p + 1];
  for (size_t i = 0; i < n; ++i) tree.child_offsets_[i + 1] += tree.child_offsets_[i];
  tree.child_list_.resize(edges.size());
  std::vector<uint32_t> fill(tree.child_offsets_.begin(), tree.child_offsets_.end() - 1);
  for (auto& [p, c] : edges) tree.child_list_[fill[p]++] = c;
  return tree;
}

}  // namespace sollens
