#include "analyses/solar/kineto_link.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string_view>
#include <unordered_map>

#include "analyses/ops/kernel_launchers.h"
#include "store/raw_args.h"

namespace sollens::solar {
namespace {

bool is_host_op(const EventStore& store, size_t row) {
  const Category c = store.category[row];
  return c == Category::kCpuOp || c == Category::kUserAnnotation;
}

bool is_profiler_root(const EtNode& n) { return n.name.starts_with("[pytorch|profiler|"); }

int64_t record_function_id(const EventStore& store, ArgsReader& args, size_t row) {
  if (store.args_json(row).find("Record function id") == std::string_view::npos) return -1;
  static constexpr std::string_view kKey[] = {"Record function id"};
  PyValue id[1];
  if (!args.read(static_cast<uint32_t>(row), kKey, id) || id[0].kind != PyValue::Kind::kInt) return -1;
  return id[0].i;
}

// Joins ET rf_id to a per-row key; kept only when most names agree.
bool link_by_key(const ExecutionGraph& graph, const EventStore& store,
                 const std::unordered_map<int64_t, uint32_t>& row_of_key, EtKinetoLink& link) {
  size_t candidates = 0, agreeing = 0;
  std::vector<int64_t> event(graph.nodes.size(), -1);
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const EtNode& n = graph.nodes[i];
    if (is_profiler_root(n) || n.rf_id < 0) continue;
    ++candidates;
    auto it = row_of_key.find(n.rf_id);
    if (it == row_of_key.end() || store.name_of(it->second) != n.name) continue;
    event[i] = it->second;
    ++agreeing;
  }
  if (candidates == 0 || agreeing < candidates * 9 / 10) return false;
  link.event_of_node = std::move(event);
  link.linked_nodes = agreeing;
  return true;
}

struct Alignment {
  size_t matches = 0;
  std::vector<int64_t> rows;  // per ET position: the Kineto row or -1
};

// Walks both sequences from `start`; a name that does not match is looked for a few
// events ahead in Kineto (the profiler records ops the ET leaves out), else skipped.
Alignment align(const std::vector<std::string_view>& et, const std::vector<uint32_t>& kineto,
                const EventStore& store, size_t start) {
  constexpr size_t kLookAhead = 20;
  Alignment a;
  a.rows.assign(et.size(), -1);
  size_t j = start;
  for (size_t i = 0; i < et.size() && j < kineto.size(); ++i) {
    for (size_t k = j; k < std::min(kineto.size(), j + kLookAhead); ++k) {
      if (store.name_of(kineto[k]) != et[i]) continue;
      a.rows[i] = kineto[k];
      ++a.matches;
      j = k + 1;
      break;
    }
  }
  return a;
}

constexpr size_t kMaxStarts = 256;  // candidate starts tried per ET thread

void link_by_thread_alignment(const ExecutionGraph& graph, const EventStore& store,
                              EtKinetoLink& link) {
  std::map<int64_t, std::vector<uint32_t>> et_threads;  // tid → node indices by id
  for (uint32_t i = 0; i < graph.nodes.size(); ++i)
    if (!is_profiler_root(graph.nodes[i])) et_threads[graph.nodes[i].tid].push_back(i);
  std::map<std::pair<StrId, StrId>, std::vector<uint32_t>> kineto_threads;
  for (uint32_t r = 0; r < store.size(); ++r)
    if (is_host_op(store, r)) kineto_threads[{store.pid[r], store.tid[r]}].push_back(r);
  std::unordered_map<std::string_view, size_t> occurrences;  // Kineto host events by name
  for (const auto& [key, rows] : kineto_threads)
    for (uint32_t r : rows) ++occurrences[store.name_of(r)];
  for (auto& [key, rows] : kineto_threads)
    std::stable_sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
      return store.ts[a] != store.ts[b] ? store.ts[a] < store.ts[b] : store.dur[a] > store.dur[b];
    });
  for (auto& [tid, nodes] : et_threads) {
    std::stable_sort(nodes.begin(), nodes.end(), [&](uint32_t a, uint32_t b) {
      return graph.nodes[a].id < graph.nodes[b].id;
    });
    std::vector<std::string_view> names;
    for (uint32_t i : nodes) names.push_back(graph.nodes[i].name);
    // Anchor on the rarest of the thread's first names, so that a common first op
    // (aten::empty) does not make every one of its occurrences a candidate start.
    size_t anchor = 0, anchor_count = SIZE_MAX;
    for (size_t p = 0; p < std::min<size_t>(names.size(), 64); ++p) {
      auto it = occurrences.find(names[p]);
      if (it != occurrences.end() && it->second < anchor_count) {
        anchor = p;
        anchor_count = it->second;
      }
    }
    Alignment best;
    size_t tries = 0;
    for (const auto& [key, rows] : kineto_threads)
      for (size_t s = 0; s < rows.size() && tries < kMaxStarts; ++s) {
        if (store.name_of(rows[s]) != names[anchor]) continue;
        ++tries;
        Alignment a = align(names, rows, store, s >= anchor ? s - anchor : 0);
        if (a.matches > best.matches) best = std::move(a);
      }
    for (size_t p = 0; p < nodes.size(); ++p)
      if (best.rows.size() > p && best.rows[p] >= 0) {
        link.event_of_node[nodes[p]] = best.rows[p];
        ++link.linked_nodes;
      }
  }
}

bool has_process(const EventStore& store, int64_t pid) {
  const std::string text = std::to_string(pid);
  for (uint32_t r = 0; r < store.size(); ++r)
    if (is_host_op(store, r) && store.str(store.pid[r]) == text) return true;
  return false;
}

}  // namespace

EtKinetoLink link_execution_trace(const ExecutionGraph& graph, const EventStore& store) {
  EtKinetoLink link;
  link.event_of_node.assign(graph.nodes.size(), -1);
  link.method = "none";
  if (graph.pid >= 0 && !has_process(store, graph.pid)) {
    link.note = "the Kineto trace has no host events of the ET's process (pid " +
                std::to_string(graph.pid) + "): not the same run";
    return link;
  }
  std::unordered_map<int64_t, uint32_t> by_record_function, by_external_id;
  ArgsReader args(store);
  for (uint32_t r = 0; r < store.size(); ++r) {
    if (!is_host_op(store, r)) continue;
    const int64_t rf = record_function_id(store, args, r);
    if (rf >= 0) by_record_function.emplace(rf, r);
    if (store.external_id[r] != kNoValue) by_external_id.emplace(store.external_id[r], r);
  }
  if (!by_record_function.empty() && link_by_key(graph, store, by_record_function, link)) {
    link.method = "record_function_id";
  } else if (link_by_key(graph, store, by_external_id, link)) {
    link.method = "external_id";
  } else {
    link_by_thread_alignment(graph, store, link);
    if (link.linked_nodes) link.method = "thread_alignment";
  }
  return link;
}

double measured_gpu_us(const EventStore& store, const TraceTree& tree, uint32_t event) {
  return measured_gpu_us(store, tree, std::vector<uint32_t>{event});
}

double measured_gpu_us(const EventStore& store, const TraceTree& tree,
                       const std::vector<uint32_t>& events) {
  std::vector<uint32_t> gpu, stack;
  for (uint32_t e : events) append_subtree_gpu_events(store, tree, e, gpu, stack);
  std::sort(gpu.begin(), gpu.end());
  gpu.erase(std::unique(gpu.begin(), gpu.end()), gpu.end());
  return busy_time_us(store, gpu);
}

}  // namespace sollens::solar
