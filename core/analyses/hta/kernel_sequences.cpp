#include "analyses/hta/kernel_sequences.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>

#include "analyses/hta/launch_stats.h"

namespace sollens::hta {

namespace {

uint64_t thread_key(const EventStore& s, uint32_t i) { return uint64_t(s.pid[i]) << 32 | s.tid[i]; }

int32_t top_of(const HostNesting& nesting, int32_t e) {
  while (nesting.parent[e] >= 0) e = nesting.parent[e];
  return e;
}

struct ThreadRoles {
  bool linked = false;
  uint64_t main = 0, bwd = 0;
};

// HTA labels a thread "main" when it has a ProfilerStep#N, else "bwd" when it has an
// autograd:: event, and links the two only when there is exactly one of each.
ThreadRoles thread_roles(const EventStore& s, const HostNesting& nesting) {
  std::unordered_map<uint64_t, uint8_t> marks;  // bit 1: ProfilerStep#, bit 2: autograd::
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (nesting.depth[i] < 0) continue;
    const std::string_view name = s.name_of(i);
    uint8_t& m = marks[thread_key(s, i)];
    if (name.starts_with("ProfilerStep#")) m |= 1;
    if (name.find("autograd::") != std::string_view::npos) m |= 2;
  }
  ThreadRoles roles;
  int mains = 0, bwds = 0;
  for (const auto& [thread, m] : marks) {
    if (m & 1) {
      ++mains;
      roles.main = thread;
    } else if (m & 2) {
      ++bwds;
      roles.bwd = thread;
    }
  }
  roles.linked = mains == 1 && bwds == 1;
  return roles;
}

// The main thread's events the backward thread hangs under, in file order.
std::vector<uint32_t> backward_parents(const EventStore& s, const HostNesting& nesting, uint64_t main) {
  for (std::string_view prefix : {std::string_view("## backward ##"), std::string_view("ProfilerStep#")}) {
    std::vector<uint32_t> found;
    for (uint32_t i = 0; i < s.size(); ++i)
      if (nesting.depth[i] >= 0 && thread_key(s, i) == main && s.name_of(i).starts_with(prefix)) found.push_back(i);
    if (!found.empty()) return found;
  }
  return {};
}

struct Root {
  uint32_t event;
  std::vector<uint32_t> gpu;  // GPU events launched in its subtree
};

// The roots: matching host events at the smallest depth among them.
std::vector<Root> pattern_roots(const HtaTrace& trace, const std::vector<int32_t>& depth, const std::string& op) {
  const EventStore& s = trace.store();
  std::unordered_map<StrId, bool> matches;
  std::vector<uint32_t> candidates;
  int32_t min_depth = std::numeric_limits<int32_t>::max();
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (depth[i] < 0) continue;
    const auto [it, fresh] = matches.try_emplace(s.name[i], false);
    if (fresh) it->second = s.name_of(i).find(op) != std::string_view::npos;
    if (!it->second) continue;
    candidates.push_back(i);
    min_depth = std::min(min_depth, depth[i]);
  }
  std::vector<Root> roots;
  for (uint32_t c : candidates)
    if (depth[c] == min_depth) roots.push_back({c, {}});
  return roots;
}

// Each GPU event to the root above its launching call, if any.
void collect_gpu_events(const HtaTrace& trace, const HostNesting& nesting, std::vector<Root>& roots) {
  const EventStore& s = trace.store();
  std::unordered_map<uint32_t, size_t> root_of;
  for (size_t r = 0; r < roots.size(); ++r) root_of[roots[r].event] = r;
  std::unordered_map<int64_t, uint32_t> call_of;
  for (uint32_t i = 0; i < s.size(); ++i)
    if (nesting.depth[i] >= 0 && is_runtime(s.category[i]) && s.correlation[i] != kNoValue)
      call_of.try_emplace(s.correlation[i], i);
  for (uint32_t g = 0; g < s.size(); ++g) {
    if (s.phase[g] != Phase::kComplete || !is_gpu_activity(s.category[g])) continue;
    const auto call = call_of.find(s.correlation[g]);
    if (call == call_of.end()) continue;
    for (int32_t e = static_cast<int32_t>(call->second); e >= 0; e = nesting.parent[e]) {
      const auto root = root_of.find(static_cast<uint32_t>(e));
      if (root == root_of.end()) continue;
      roots[root->second].gpu.push_back(g);
      break;
    }
  }
}

struct PatternStats {
  int64_t count = 0;
  double gpu_duration = 0, cpu_duration = 0;
};

std::string pattern_of(const HtaTrace& trace, Root& root) {
  std::stable_sort(root.gpu.begin(), root.gpu.end(),
                   [&](uint32_t a, uint32_t b) { return trace.ts(a) < trace.ts(b); });
  std::string pattern(trace.store().name_of(root.event));
  for (uint32_t g : root.gpu) (pattern += '|') += trace.store().name_of(g);
  return pattern;
}

}  // namespace

std::vector<int32_t> call_graph_depth(const HtaTrace& trace, const HostNesting& nesting) {
  const EventStore& s = trace.store();
  std::vector<int32_t> depth = nesting.depth;
  const ThreadRoles roles = thread_roles(s, nesting);
  if (!roles.linked) return depth;
  const std::vector<uint32_t> parents = backward_parents(s, nesting, roles.main);
  std::unordered_map<int32_t, int32_t> shift;  // bwd top-level event → depth added
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (nesting.depth[i] != 0 || thread_key(s, i) != roles.bwd) continue;
    for (uint32_t p : parents)
      if (trace.ts(i) >= trace.ts(p) && trace.end(i) <= trace.end(p)) {
        shift[static_cast<int32_t>(i)] = nesting.depth[p] + 1;
        break;
      }
  }
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (nesting.depth[i] < 0 || thread_key(s, i) != roles.bwd) continue;
    const auto it = shift.find(top_of(nesting, static_cast<int32_t>(i)));
    if (it != shift.end()) depth[i] += it->second;
  }
  return depth;
}

Table frequent_cuda_kernel_sequences_table(const HtaTrace& trace, const HtaOptions& options) {
  Table t("frequent_cuda_kernel_sequences", TableKind::kHta);
  Column& pattern = t.add_column("pattern", ColumnType::kString);
  Column& count = t.add_column("count", ColumnType::kInt);
  Column& gpu = t.add_column("GPU kernel duration (us)", ColumnType::kFloat, Unit::kMicroseconds);
  Column& cpu = t.add_column("CPU op duration (us)", ColumnType::kFloat, Unit::kMicroseconds);
  if (options.sequences_operator.empty()) return t;

  const EventStore& s = trace.store();
  std::vector<uint8_t> kept(s.size(), 0);
  for (uint32_t i = 0; i < s.size(); ++i) kept[i] = trace.loaded(i);
  const HostNesting nesting = host_nesting(trace, kept);
  std::vector<Root> roots = pattern_roots(trace, call_graph_depth(trace, nesting), options.sequences_operator);
  collect_gpu_events(trace, nesting, roots);

  std::map<std::string, PatternStats> patterns;
  for (Root& root : roots) {
    if (static_cast<int64_t>(root.gpu.size()) < options.min_pattern_len) continue;
    PatternStats& p = patterns[pattern_of(trace, root)];
    ++p.count;
    for (uint32_t g : root.gpu) p.gpu_duration += trace.dur(g);
    p.cpu_duration += trace.dur(root.event);
  }
  std::vector<std::pair<std::string, PatternStats>> rows(patterns.begin(), patterns.end());
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.count > b.second.count; });
  const size_t shown = std::min(rows.size(), static_cast<size_t>(std::max<int64_t>(options.top_k, 0)));
  for (size_t r = 0; r < shown; ++r) {
    pattern.push_string(rows[r].first);
    count.push_int(rows[r].second.count);
    gpu.push_float(rows[r].second.gpu_duration);
    cpu.push_float(rows[r].second.cpu_duration);
  }
  return t;
}

}  // namespace sollens::hta
