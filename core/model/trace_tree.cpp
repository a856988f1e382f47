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

using Edges = std::vector<std::pair<uint32_t, uint32_t>>;  // (parent, child) in TraceLens's order

// Makes GPU event g the child of runtime event r.
void link_launch(const EventStore& s, uint32_t r, uint32_t g, TraceTree& tree, Edges& edges) {
  // A flow that ends on a host event would make TraceLens rewrite the host tree
  // (or loop on itself); such ends are not GPU work and are skipped.
  if (g == r || is_host_tree_category(s.category[g], true)) return;
  edges.emplace_back(r, g);
  tree.parent[g] = static_cast<int32_t>(r);
  if (!tree.in_tree[g] && is_gpu_activity(s.category[g])) ++tree.linked_gpu_events;
  tree.in_tree[g] = 1;
}

struct LaunchFlows {
  bool ac2g = false;
  bool legacy = false;  // known only where there is no ac2g flow: only read then
};

LaunchFlows find_launch_flows(const EventStore& s) {
  LaunchFlows f;
  for (size_t i = 0; i < s.size() && !f.ac2g; ++i) {
    f.ac2g = f.ac2g || s.category[i] == Category::kFlowAc2g;
    f.legacy = f.legacy || s.category[i] == Category::kFlowLegacy;
  }
  return f;
}

bool gpu_event_has_correlation(const EventStore& s) {
  for (size_t i = 0; i < s.size(); ++i)
    if (is_gpu_activity(s.category[i]) && s.correlation[i] != kNoValue) return true;
  return false;
}

// TraceLens: runtime events in file order, each to the GPU event its flow pair ends
// on (found by (pid, tid, link id)); graph launches to every GPU event with their
// correlation id.
void link_through_flows(const EventStore& s, const TreeOptions& options, LaunchFlows flows,
                        TraceTree& tree, Edges& edges) {
  const size_t n = s.size();
  tree.linking_key = choose_linking_key(s);
  const auto& link = tree.linking_key == LinkingKey::kCorrelation ? s.correlation : s.external_id;
  const Category flow_category = !flows.ac2g && options.legacy_flows_when_no_ac2g
                                     ? Category::kFlowLegacy
                                     : Category::kFlowAc2g;
  tree.used_legacy_flows = flow_category == Category::kFlowLegacy && flows.legacy;

  const auto graph_launch_a = s.strings.find("cudaGraphLaunch");
  const auto graph_launch_b = s.strings.find("hipGraphLaunch");
  const bool has_graph_launches = graph_launch_a || graph_launch_b;
  FlatIndex<int64_t, IdHash> flow_start(n / 16), flow_end(n / 16);  // last one per id wins
  std::vector<uint32_t> flow_end_rows;
  std::unordered_map<int64_t, std::vector<uint32_t>> gpu_by_correlation;  // for graph launches
  for (uint32_t i = 0; i < n; ++i) {
    const Category c = s.category[i];
    if (c == flow_category) {
      if (s.phase[i] == Phase::kFlowStart) flow_start.insert_or_assign(s.flow_id[i], i);
      else if (s.phase[i] == Phase::kFlowEnd) flow_end.insert_or_assign(s.flow_id[i], i), flow_end_rows.push_back(i);
      continue;
    }
    if (is_gpu_activity(c)) {
      tree.gpu_events.push_back(i);
      if (has_graph_launches && s.correlation[i] != kNoValue)
        gpu_by_correlation[s.correlation[i]].push_back(i);
    }
  }
  // The event a flow ends on: the last in file order with the flow end's (pid, tid, id).
  // Only the flow ends' triples are indexed, not every event's: a trace of millions of
  // events held tens of bytes an event in an index of all of them.
  constexpr uint32_t kNoEvent = UINT32_MAX;
  FlatIndex<TripleKey, TripleHash> by_pid_tid_link(flow_end_rows.size());
  for (uint32_t f : flow_end_rows) by_pid_tid_link.insert_if_absent(TripleKey{s.pid[f], s.tid[f], s.flow_id[f]}, kNoEvent);
  std::vector<uint32_t>().swap(flow_end_rows);
  for (uint32_t i = 0; i < n; ++i) {
    if (s.category[i] == flow_category || !s.has_args_object[i] || link[i] == kNoValue) continue;
    const TripleKey key{s.pid[i], s.tid[i], link[i]};
    if (by_pid_tid_link.contains(key)) by_pid_tid_link.insert_or_assign(key, i);
  }

  for (uint32_t r = 0; r < n; ++r) {
    if (!is_runtime(s.category[r])) continue;
    const int64_t id = link[r];
    if (id == kNoValue) continue;
    if (s.name[r] == graph_launch_a || s.name[r] == graph_launch_b) {
      auto it = gpu_by_correlation.find(id);
      if (it != gpu_by_correlation.end())
        for (uint32_t g : it->second) link_launch(s, r, g, tree, edges);
      continue;
    }
    if (!flow_start.find(id)) continue;
    const std::optional<uint32_t> end = flow_end.find(id);
    if (!end) {
      ++tree.launches_without_flow;
      continue;
    }
    const uint32_t f = *end;
    const std::optional<uint32_t> found =
        by_pid_tid_link.find(TripleKey{s.pid[f], s.tid[f], s.flow_id[f]});
    if (found && *found != kNoEvent) link_launch(s, r, *found, tree, edges);
  }
}

// HTA: each GPU event to the runtime event with its correlation id. Ids are unique
// within one profiled process; where launches of several processes carry the same
// id, the GPU event's launch is unknown and it stays unlinked. Within one process
// the last launch in file order wins, as the last event wins elsewhere in the tree.
void link_by_correlation(const EventStore& s, TraceTree& tree, Edges& edges) {
  const size_t n = s.size();
  tree.linking_key = LinkingKey::kCorrelation;
  tree.linked_by = LinkMode::kCorrelation;
  FlatIndex<int64_t, IdHash> launch_of(n / 4);
  FlatIndex<int64_t, IdHash> ambiguous(0);
  for (uint32_t r = 0; r < n; ++r) {
    if (!is_runtime(s.category[r]) || s.correlation[r] == kNoValue) continue;
    const int64_t id = s.correlation[r];
    if (const auto previous = launch_of.find(id); previous && s.pid[*previous] != s.pid[r])
      ambiguous.insert_or_assign(id, r);
    launch_of.insert_or_assign(id, r);
  }
  for (uint32_t g = 0; g < n; ++g) {
    if (!is_gpu_activity(s.category[g])) continue;
    tree.gpu_events.push_back(g);
    const int64_t id = s.correlation[g];
    if (id == kNoValue) continue;
    if (ambiguous.find(id)) {
      ++tree.ambiguous_correlations;
      continue;
    }
    if (const auto r = launch_of.find(id)) link_launch(s, *r, g, tree, edges);
  }
}

// 1. Host call stacks: stable sort by ts, one stack per (pid, tid). `host_events`: how
// many events are of a host-tree category (room reserved for them at once).
void place_host_events(const EventStore& s, const TreeOptions& options, size_t host_events, TraceTree& tree,
                       Edges& edges) {
  const size_t n = s.size();
  std::vector<uint32_t> host;
  host.reserve(host_events);
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
}

// 2-3. Runtime → GPU links, by flows (TraceLens) or by correlation id.
void link_launches(const EventStore& s, const TreeOptions& options, TraceTree& tree, Edges& edges) {
  const LaunchFlows flows = find_launch_flows(s);
  tree.has_launch_flows = flows.ac2g || flows.legacy;
  const bool by_correlation =
      options.link == LinkMode::kCorrelation ||
      (options.link == LinkMode::kAuto && !tree.has_launch_flows && gpu_event_has_correlation(s));
  if (by_correlation)
    link_by_correlation(s, tree, edges);
  else
    link_through_flows(s, options, flows, tree, edges);
}

}  // namespace

TraceTree TraceTree::build(const EventStore& s, const TreeOptions& options) {
  return build_with_links(s, options, nullptr);
}

TraceTree TraceTree::build(const EventStore& s, const TreeOptions& options, const TraceTree& links_of) {
  return build_with_links(s, options, &links_of);
}

// The host stacks, then the launch links (found here, or `links_of`'s), then the
// children lists of both in that order.
TraceTree TraceTree::build_with_links(const EventStore& s, const TreeOptions& options, const TraceTree* links_of) {
  TraceTree tree;
  tree.parent.assign(s.size(), kNoParent);
  tree.in_tree.assign(s.size(), 0);
  // Room for every edge at once (a host event has at most one parent, and so has a GPU
  // event, but for a launch linked twice): growing would hold the old and new together.
  size_t host_events = 0, gpu_events = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    host_events += is_host_tree_category(s.category[i], options.include_python);
    gpu_events += is_gpu_activity(s.category[i]);
  }
  Edges edges;
  edges.reserve(host_events + gpu_events);
  place_host_events(s, options, host_events, tree, edges);
  if (links_of) tree.copy_launch_links(*links_of);
  else link_launches(s, options, tree, tree.launch_edges_);
  edges.insert(edges.end(), tree.launch_edges_.begin(), tree.launch_edges_.end());
  tree.index_children(edges);
  return tree;
}

void TraceTree::copy_launch_links(const TraceTree& other) {
  linking_key = other.linking_key;
  gpu_events = other.gpu_events;
  linked_gpu_events = other.linked_gpu_events;
  launches_without_flow = other.launches_without_flow;
  used_legacy_flows = other.used_legacy_flows;
  linked_by = other.linked_by;
  has_launch_flows = other.has_launch_flows;
  ambiguous_correlations = other.ambiguous_correlations;
  launch_edges_ = other.launch_edges_;
  for (const auto& [r, g] : launch_edges_) {
    parent[g] = static_cast<int32_t>(r);
    in_tree[g] = 1;
  }
}

// 4. Children lists (CSR), keeping the order TraceLens appends them in.
void TraceTree::index_children(const std::vector<std::pair<uint32_t, uint32_t>>& edges) {
  const size_t n = parent.size();
  child_offsets_.assign(n + 1, 0);
  for (auto& [p, c] : edges) ++child_offsets_[p + 1];
  for (size_t i = 0; i < n; ++i) child_offsets_[i + 1] += child_offsets_[i];
  child_list_.resize(edges.size());
  // Each offset serves as its parent's fill cursor, ending at the next parent's start;
  // shifted back by one place after.
  for (auto& [p, c] : edges) child_list_[child_offsets_[p]++] = c;
  for (size_t i = n; i > 0; --i) child_offsets_[i] = child_offsets_[i - 1];
  child_offsets_[0] = 0;
}

}  // namespace sollens
