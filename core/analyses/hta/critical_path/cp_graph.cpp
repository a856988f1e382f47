#include "analyses/hta/critical_path/cp_graph.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <string_view>
#include <unordered_map>

#include "analyses/hta/counter_series.h"
#include "analyses/hta/critical_path/cp_names.h"
#include "analyses/hta/critical_path/cp_queue.h"

namespace sollens::hta::cp {

namespace {

constexpr uint32_t kNoEdge = std::numeric_limits<uint32_t>::max();

// HTA's KERNEL_KERNEL_DELAY_THRESHOLD_US: a longer gap between two kernels on a stream
// is taken for a dependency HTA cannot see, so it gets no kernel → kernel edge.
constexpr double kKernelKernelDelayThresholdUs = 1500;

bool is_operator_or_runtime(std::string_view cat) {
  return cat == "cpu_op" || cat == "cuda_runtime" || cat == "cuda_driver";
}

// A pid or tid as pandas groups it: numbers in order, then text.
struct ThreadKey {
  bool text = false;
  int64_t number = 0;
  std::string_view raw;
  auto operator<=>(const ThreadKey& o) const {
    if (text != o.text) return text <=> o.text;
    if (!text) return number <=> o.number;
    return raw.compare(o.raw) <=> 0;  // Emscripten's libc++ has no <=> for string_view
  }
  bool operator==(const ThreadKey& o) const = default;
};

ThreadKey thread_key(std::string_view raw) {
  ThreadKey k{false, 0, raw};
  const auto [end, ec] = std::from_chars(raw.data(), raw.data() + raw.size(), k.number);
  k.text = ec != std::errc() || end != raw.data() + raw.size();
  return k;
}

// One start or end of an event on a thread, ordered as HTA's compare_events orders them
// (all durations positive here): by time, ends before starts; among starts the longer
// first, then the lower row; among ends the shorter first, then the higher row.
struct StackPoint {
  double time;
  double dur;
  uint32_t local;  // index into the thread's rows
  uint32_t row;
  bool start;
};

bool point_before(const StackPoint& a, const StackPoint& b) {
  if (a.time != b.time) return a.time < b.time;
  if (a.start != b.start) return !a.start;
  if (a.dur != b.dur) return a.start ? a.dur > b.dur : a.dur < b.dur;
  return a.start ? a.row < b.row : a.row > b.row;
}

void nest(const HtaTrace& t, CallStack& stack, std::vector<StackPoint>& points);

}  // namespace

CpGraph::CpGraph(const CpView& view, bool inferred, const std::vector<GpuWait>& inferred_waits,
                 CpGraphCache* cache)
    : view_(view), inferred_mode_(inferred) {
  CpGraphCache own;
  if (!cache) cache = &own;
  if (cache->view != &view) *cache = CpGraphCache{&view, {}, nullptr};
  if (inferred_mode_) {
    synced_call_.assign(view.store().size(), 0);
    for (const auto& [gpu, call] : inferred_waits) synced_call_[call] = 1;
    for (const uint32_t row : view.clipped_rows())
      if (view.raw_cat(row) == "cuda_sync" && view.index_correlation(row) > 0)
        synced_call_[static_cast<size_t>(view.index_correlation(row))] = 1;
  }
  create_nodes();
  add_runtime_lock_edges();
  add_cpu_edges(*cache);
  add_kernel_edges(*cache);
  add_inferred_edges(inferred_waits);
  index_edges();
}

int32_t CpGraph::start_node(uint32_t row) const { return node_of_row_[row]; }
int32_t CpGraph::end_node(uint32_t row) const { return node_of_row_[row] < 0 ? -1 : node_of_row_[row] + 1; }

void CpGraph::create_nodes() {
  node_of_row_.assign(view_.store().size(), -1);
  const HtaTrace& t = view_.trace();
  nodes_.reserve(2 * view_.clipped_rows().size());
  for (const uint32_t row : view_.clipped_rows()) {
    const bool gpu_with_partner = view_.stream(row) != -1 && view_.index_correlation(row) >= 0;
    if (!gpu_with_partner && !is_operator_or_runtime(view_.raw_cat(row))) continue;
    node_of_row_[row] = static_cast<int32_t>(nodes_.size());
    nodes_.push_back({t.ts(row), row, true});
    nodes_.push_back({t.ts(row) + t.dur(row), row, false});
  }
  in_graph_.assign(nodes_.size(), 0);
  first_out_.assign(nodes_.size(), kNoEdge);
  // About two edges per node (a span and a link); reserved so that they are not moved.
  edges_.reserve(2 * nodes_.size());
  next_out_.reserve(2 * nodes_.size());
  node_order_.reserve(nodes_.size());
}

// HTA gives a blocking call's last span weight 0 so that a GPU → CPU sync edge can carry
// the path; with inferred waits, only the calls that have such an edge.
bool CpGraph::zero_weight_call(uint32_t row) const {
  if (inferred_mode_) return synced_call_[row] != 0;
  return is_hta_blocking_call(view_.store().name_of(row));
}

uint32_t CpGraph::add_edge(uint32_t from, uint32_t to, CpEdgeType type, bool zero_weight) {
  const bool weightless = type == CpEdgeType::kDependency || type == CpEdgeType::kSyncDependency || zero_weight;
  const double weight = weightless ? 0 : nodes_[to].ts - nodes_[from].ts;
  for (uint32_t e = first_out_[from]; e != kNoEdge; e = next_out_[e])
    if (edges_[e].to == to) {  // networkx replaces the edge's data in place; its attribution stays until replaced
      edges_[e].type = type;
      edges_[e].weight = weight;
      return e;
    }
  for (const uint32_t n : {from, to})
    if (!in_graph_[n]) {
      in_graph_[n] = 1;
      node_order_.push_back(n);
    }
  const uint32_t id = static_cast<uint32_t>(edges_.size());
  edges_.push_back({from, to, weight, kNoEvent, type, false, false});
  next_out_.push_back(first_out_[from]);
  first_out_[from] = id;
  return id;
}

// _attribute_edge: spans and kernel gaps belong to an event: a gap to the kernel before
// it, a span from a start to that start's event, one ending at an end to that end's
// event, one between an end and a start to the parent around both.
void CpGraph::attribute(uint32_t edge, int64_t src_parent) {
  CpEdge& e = edges_[edge];
  if (e.type != CpEdgeType::kOperatorKernel && e.type != CpEdgeType::kKernelKernelDelay) return;
  const CpNode& src = nodes_[e.from];
  const CpNode& dest = nodes_[e.to];
  if (e.type == CpEdgeType::kKernelKernelDelay || src.is_start) e.attributed = src.event;
  else if (!dest.is_start) e.attributed = dest.event;
  else e.attributed = src_parent;
  e.has_attribution = true;
}

bool CpGraph::shares_runtime_lock(uint32_t first, uint32_t second) const {
  return lock_call_[nodes_[first].event] && lock_call_[nodes_[second].event] &&
         (nodes_[first].is_start || !nodes_[second].is_start);
}

// _construct_graph_from_cuda_runtime_events: calls holding the runtime lock (on any
// thread) in time order; each end closes every call started since the last end (its own
// span, a dependency from the others' starts) and follows the previous end.
void CpGraph::add_runtime_lock_edges() {
  const EventStore& s = view_.store();
  lock_call_.assign(s.size(), 0);
  std::vector<uint32_t> points;  // node ids
  for (uint32_t node = 0; node < nodes_.size(); ++node)
    if (is_runtime_lock_call(s.name_of(nodes_[node].event))) {
      lock_call_[nodes_[node].event] = 1;
      points.push_back(node);
    }
  std::stable_sort(points.begin(), points.end(), [&](uint32_t a, uint32_t b) {
    if (nodes_[a].ts != nodes_[b].ts) return nodes_[a].ts < nodes_[b].ts;
    if (nodes_[a].event != nodes_[b].event) return nodes_[a].event < nodes_[b].event;
    return nodes_[a].is_start && !nodes_[b].is_start;
  });
  std::vector<uint32_t> open;
  int64_t last = -1;
  for (const uint32_t node : points) {
    if (nodes_[node].is_start) {
      open.push_back(node);
    } else {
      while (!open.empty()) {
        const uint32_t started = open.back();
        open.pop_back();
        if (nodes_[started].event == nodes_[node].event)
          attribute(add_edge(started, node, CpEdgeType::kOperatorKernel), nodes_[node].event);
        else
          add_edge(started, node, CpEdgeType::kDependency);
      }
      if (last >= 0 && !nodes_[last].is_start) add_edge(static_cast<uint32_t>(last), node, CpEdgeType::kDependency);
    }
    last = node;
  }
}

// _get_fwd_tid / _get_bwd_tid: the one thread with operators or annotations whose names
// contain "forward" (resp. "autograd"); HTA folds the backward thread into the forward one.
std::string_view CpGraph::thread_with(std::string_view word) const {
  const EventStore& s = view_.store();
  std::string_view found;
  bool several = false;
  for (const uint32_t row : view_.clipped_rows()) {
    const std::string_view cat = view_.raw_cat(row);
    if ((cat != "cpu_op" && cat != "user_annotation") || s.name_of(row).find(word) == std::string_view::npos) continue;
    const std::string_view tid = s.str(s.tid[row]);
    if (found.empty()) found = tid;
    else if (tid != found) several = true;
  }
  if (several || found == "0") return {};
  return found;
}

void CpGraph::add_cpu_edges(CpGraphCache& cache) {
  if (cache.stacks.empty()) cache.stacks = call_stacks();
  for (const CallStack& stack : cache.stacks) add_call_stack_edges(stack);
}

// The CPU threads' call stacks, threads as pandas groups them.
std::vector<CallStack> CpGraph::call_stacks() const {
  const EventStore& s = view_.store();
  const HtaTrace& t = view_.trace();
  const std::string_view forward = thread_with("forward"), backward = thread_with("autograd");
  const bool fold = !forward.empty() && !backward.empty() && forward != backward;
  // Each distinct (pid, tid) text keyed once; the rows then bucketed by their thread's
  // rank, in file order within it (a stable sort on the keys, without a key per row).
  struct Thread {
    ThreadKey pid, tid;
    uint32_t rank = 0;
  };
  std::vector<Thread> threads;
  std::unordered_map<uint64_t, uint32_t> thread_of_ids;
  const std::vector<uint32_t>& clipped = view_.clipped_rows();
  std::vector<uint32_t> thread_of_row(clipped.size());
  for (size_t i = 0; i < clipped.size(); ++i) {
    const uint32_t row = clipped[i];
    const uint64_t ids = (static_cast<uint64_t>(s.pid[row]) << 32) | s.tid[row];
    const auto [it, fresh] = thread_of_ids.try_emplace(ids, static_cast<uint32_t>(threads.size()));
    if (fresh) {
      std::string_view tid = s.str(s.tid[row]);
      if (fold && tid == backward) tid = forward;
      threads.push_back({thread_key(s.str(s.pid[row])), thread_key(tid)});
    }
    thread_of_row[i] = it->second;
  }
  std::vector<uint32_t> by_key(threads.size());
  for (uint32_t i = 0; i < by_key.size(); ++i) by_key[i] = i;
  auto key_less = [&](uint32_t a, uint32_t b) {
    if (threads[a].pid != threads[b].pid) return threads[a].pid < threads[b].pid;
    return threads[a].tid < threads[b].tid;
  };
  std::sort(by_key.begin(), by_key.end(), key_less);
  uint32_t ranks = 0;
  for (size_t i = 0; i < by_key.size(); ++i) {
    if (i > 0 && key_less(by_key[i - 1], by_key[i])) ++ranks;
    threads[by_key[i]].rank = ranks;
  }
  std::vector<uint32_t> rank_begin(threads.empty() ? 1 : ranks + 2, 0);
  for (const uint32_t th : thread_of_row) ++rank_begin[threads[th].rank + 1];
  for (size_t r = 1; r < rank_begin.size(); ++r) rank_begin[r] += rank_begin[r - 1];
  struct Keyed {
    uint32_t rank;
    uint32_t row;
  };
  std::vector<Keyed> rows(clipped.size());
  for (size_t i = 0; i < clipped.size(); ++i) {
    const uint32_t rank = threads[thread_of_row[i]].rank;
    rows[rank_begin[rank]++] = {rank, clipped[i]};
  }
  std::vector<CallStack> stacks;
  std::vector<StackPoint> points;
  for (size_t i = 0; i < rows.size();) {
    size_t j = i;
    bool any_gpu = false, all_cpu = true;
    CallStack stack;
    for (; j < rows.size() && rows[j].rank == rows[i].rank; ++j) {
      const int64_t stream = view_.stream(rows[j].row);
      any_gpu |= stream > 0;
      all_cpu &= stream < 0;
      stack.rows.push_back(rows[j].row);
    }
    i = j;
    // A thread with a GPU stream is a GPU track; one with stream 0 is neither.
    if (any_gpu || !all_cpu) continue;
    nest(t, stack, points);
    stacks.push_back(std::move(stack));
  }
  return stacks;
}

namespace {

// CallStackGraph: the thread's events nested by a stack (an end pops whatever is on top).
void nest(const HtaTrace& t, CallStack& stack, std::vector<StackPoint>& points) {
  const std::vector<uint32_t>& thread_rows = stack.rows;
  const uint32_t n = static_cast<uint32_t>(thread_rows.size());
  points.clear();
  points.reserve(2 * n);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t row = thread_rows[i];
    const double dur = std::max(t.dur(row), 0.0);
    points.push_back({t.ts(row), dur, i, row, true});
    points.push_back({t.ts(row) + dur, dur, i, row, false});
  }
  std::sort(points.begin(), points.end(),
            [](const StackPoint& a, const StackPoint& b) { return point_before(a, b); });

  const uint32_t root = n;
  std::vector<uint32_t>& parent = stack.parent;
  parent.assign(n, root);
  std::vector<uint32_t> child_order, open;
  child_order.reserve(n);
  for (const StackPoint& p : points) {
    if (p.start) {
      parent[p.local] = open.empty() ? root : open.back();
      child_order.push_back(p.local);
      open.push_back(p.local);
    } else if (!open.empty()) {
      open.pop_back();
    }
  }
  std::vector<uint32_t>& begin = stack.child_begin;
  begin.assign(n + 2, 0);
  stack.children.resize(n);
  for (const uint32_t c : child_order) ++begin[parent[c] + 1];
  for (uint32_t i = 0; i <= n; ++i) begin[i + 1] += begin[i];
  std::vector<uint32_t> fill(begin.begin(), begin.end() - 1);
  for (const uint32_t c : child_order) stack.children[fill[parent[c]]++] = c;
}

}  // namespace

// CPGraph._construct_graph_from_call_stack: the thread's call stack walked depth first.
void CpGraph::add_call_stack_edges(const CallStack& stack) {
  const std::vector<uint32_t>& thread_rows = stack.rows;
  const std::vector<uint32_t>& parent = stack.parent;
  const std::vector<uint32_t>& begin = stack.child_begin;
  const std::vector<uint32_t>& children = stack.children;
  const uint32_t root = static_cast<uint32_t>(thread_rows.size());

  int32_t last_node = -1;
  int64_t last_parent = -1;
  int depth = 0;
  auto parent_event = [&](uint32_t local) -> int64_t {
    return parent[local] == root ? -1 : static_cast<int64_t>(thread_rows[parent[local]]);
  };
  // Spans between two lock-holding calls come from add_runtime_lock_edges.
  auto linked = [&](int32_t from, int32_t to) {
    return from >= 0 && !shares_runtime_lock(static_cast<uint32_t>(from), static_cast<uint32_t>(to));
  };
  auto enter = [&](uint32_t local) {
    const uint32_t row = thread_rows[local];
    const int32_t start = start_node(row);
    if (start < 0) return;
    if (linked(last_node, start)) {
      const CpEdgeType type = depth == 0 ? CpEdgeType::kDependency : CpEdgeType::kOperatorKernel;
      attribute(add_edge(static_cast<uint32_t>(last_node), static_cast<uint32_t>(start), type), last_parent);
    }
    last_node = start;
    last_parent = parent_event(local);
    ++depth;
  };
  auto exit = [&](uint32_t local) {
    const uint32_t row = thread_rows[local];
    const int32_t end = end_node(row);
    if (end < 0) return;
    if (linked(last_node, end))
      attribute(add_edge(static_cast<uint32_t>(last_node), static_cast<uint32_t>(end), CpEdgeType::kOperatorKernel,
                         zero_weight_call(row)),
                last_parent);
    last_node = end;
    last_parent = parent_event(local);
    --depth;
  };
  // Depth first from the root, children in start order, without recursion.
  std::vector<std::pair<uint32_t, uint32_t>> walk;  // (node, next child position)
  walk.push_back({root, begin[root]});
  while (!walk.empty()) {
    auto& [node, next] = walk.back();
    if (next < begin[node + 1]) {
      const uint32_t child = children[next++];
      enter(child);
      walk.push_back({child, begin[child]});
      continue;
    }
    if (node != root) exit(node);
    walk.pop_back();
  }
}

// _construct_graph_from_kernels: GPU events by start (syncs by end); each kernel's span;
// a launch edge where the stream's queue was empty when the call ran and the kernel
// started, else a gap from the stream's previous kernel if under 1.5 ms (a longer one
// gets no edge); sync events tie the stream's
// (Stream Sync) or every stream's (Context Sync) last kernel to the waiting call's end.
void CpGraph::add_kernel_edges(CpGraphCache& cache) {
  const EventStore& s = view_.store();
  const HtaTrace& t = view_.trace();
  std::vector<std::pair<double, uint32_t>> gpu;  // (sort key, row)
  for (const uint32_t row : view_.clipped_rows()) {
    const std::string_view name = s.name_of(row);
    const bool host_sync = name == "Event Sync" || name == "Context Sync";
    if ((view_.stream(row) == -1 && !host_sync) || view_.index_correlation(row) < 0) continue;
    const bool sync = view_.raw_cat(row) == "cuda_sync";
    gpu.push_back({sync ? t.ts(row) + t.dur(row) : t.ts(row), row});
  }
  {  // sort_values("sort_by"): numpy's quicksort, ties as it leaves them
    std::vector<double> keys(gpu.size());
    for (size_t i = 0; i < gpu.size(); ++i) keys[i] = gpu[i].first;
    std::vector<std::pair<double, uint32_t>> sorted;
    sorted.reserve(gpu.size());
    for (const uint32_t i : numpy_quicksort_order(keys)) sorted.push_back(gpu[i]);
    gpu.swap(sorted);
  }

  if (!cache.queue) cache.queue = std::make_unique<QueueLengths>(view_);
  const QueueLengths& queue = *cache.queue;
  std::vector<std::pair<int64_t, uint32_t>> last_on_stream;  // (stream, end node), in first-seen order
  auto last_of = [&](int64_t stream) -> int64_t {
    for (const auto& [st, node] : last_on_stream)
      if (st == stream) return node;
    return -1;
  };
  auto set_last = [&](int64_t stream, uint32_t node) {
    for (auto& [st, n] : last_on_stream)
      if (st == stream) {
        n = node;
        return;
      }
    last_on_stream.push_back({stream, node});
  };
  auto sync_edge = [&](int64_t gpu_node, int64_t call_row) {
    if (gpu_node < 0 || call_row <= 0) return;
    const int32_t call_end = end_node(static_cast<uint32_t>(call_row));
    if (call_end >= 0)
      add_edge(static_cast<uint32_t>(gpu_node), static_cast<uint32_t>(call_end), CpEdgeType::kSyncDependency);
  };

  for (const auto& [key, row] : gpu) {
    if (view_.raw_cat(row) == "cuda_sync") {
      // Event syncs need wait_on_cuda_event_record_corr_id, which sollens's store does not keep.
      const std::string_view name = s.name_of(row);
      if (name == "Stream Sync") sync_edge(last_of(view_.stream(row)), view_.index_correlation(row));
      else if (name == "Context Sync")
        for (const auto& [st, node] : last_on_stream) sync_edge(node, view_.index_correlation(row));
      continue;
    }
    const int64_t stream = view_.stream(row);
    const int32_t start = start_node(row);
    if (start < 0) continue;
    const uint32_t end = static_cast<uint32_t>(start) + 1;
    attribute(add_edge(static_cast<uint32_t>(start), end, CpEdgeType::kOperatorKernel), -1);

    const int64_t runtime = view_.index_correlation(row);
    const int64_t previous = last_of(stream);
    const bool launched_on_empty_queue =
        runtime >= 0 && queue.at(static_cast<uint32_t>(runtime)) == 1 && queue.at(row) == 0 &&
        (previous < 0 || nodes_[previous].ts < t.ts(static_cast<uint32_t>(runtime)));
    const int32_t runtime_start = runtime >= 0 ? start_node(static_cast<uint32_t>(runtime)) : -1;
    if (launched_on_empty_queue && runtime_start >= 0) {
      add_edge(static_cast<uint32_t>(runtime_start), static_cast<uint32_t>(start), CpEdgeType::kKernelLaunchDelay);
    } else if (previous >= 0 && nodes_[start].ts - nodes_[previous].ts < kKernelKernelDelayThresholdUs) {
      attribute(add_edge(static_cast<uint32_t>(previous), static_cast<uint32_t>(start), CpEdgeType::kKernelKernelDelay),
                -1);
    }
    set_last(stream, end);
  }
}

void CpGraph::add_inferred_edges(const std::vector<GpuWait>& waits) {
  for (const auto& [gpu_row, call_row] : waits) {
    const int32_t gpu_end = end_node(gpu_row);
    const int32_t call_end = end_node(call_row);
    if (gpu_end < 0 || call_end < 0) continue;
    const uint32_t e =
        add_edge(static_cast<uint32_t>(gpu_end), static_cast<uint32_t>(call_end), CpEdgeType::kSyncDependency);
    edges_[e].inferred = true;
  }
}

// Adjacency in insertion order, as compressed rows.
void CpGraph::index_edges() {
  const size_t n = nodes_.size();
  out_begin_.assign(n + 1, 0);
  in_begin_.assign(n + 1, 0);
  for (const CpEdge& e : edges_) {
    ++out_begin_[e.from + 1];
    ++in_begin_[e.to + 1];
  }
  for (size_t i = 0; i < n; ++i) {
    out_begin_[i + 1] += out_begin_[i];
    in_begin_[i + 1] += in_begin_[i];
  }
  out_list_.resize(edges_.size());
  in_list_.resize(edges_.size());
  std::vector<uint32_t> out_fill(out_begin_.begin(), out_begin_.end() - 1);
  std::vector<uint32_t> in_fill(in_begin_.begin(), in_begin_.end() - 1);
  for (uint32_t id = 0; id < edges_.size(); ++id) {
    out_list_[out_fill[edges_[id].from]++] = id;
    in_list_[in_fill[edges_[id].to]++] = id;
  }
}

}  // namespace sollens::hta::cp
