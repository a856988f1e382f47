#include "analyses/hta/aten_op_kernels.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>

#include "analyses/hta/launch_stats.h"
#include "model/flat_index.h"

namespace sollens::hta {

namespace {

// HTA leaves GPU threads out of its call stacks; gpu_user_annotation events carry no
// stream but live on the GPU's (pid 0 or tid 0) tracks.
bool is_host_row(const HtaTrace& trace, uint32_t i) {
  const EventStore& s = trace.store();
  return s.phase[i] == Phase::kComplete && s.category[i] != Category::kTrace && s.cat[i] != kEmptyStr &&
         s.category[i] != Category::kGpuUserAnnotation && (trace.stream(i) == -1 || is_runtime(s.category[i]));
}

// HTA's order of a start against an end at the same time (call_stack.compare_events):
// the end goes first when both events last, the start when one of them lasts 0 µs.
bool ends_before(const HtaTrace& trace, uint32_t open, uint32_t next) {
  const double end = trace.end(open);
  if (end != trace.ts(next)) return end < trace.ts(next);
  const bool open_lasts = trace.dur(open) > 0, next_lasts = trace.dur(next) > 0;
  if (open_lasts && next_lasts) return true;
  if (!open_lasts && !next_lasts) return open < next;
  return false;
}

void nest_thread(const HtaTrace& trace, std::vector<uint32_t>& rows, HostNesting& nesting) {
  std::stable_sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
    if (trace.ts(a) != trace.ts(b)) return trace.ts(a) < trace.ts(b);
    return trace.dur(a) > trace.dur(b);  // the longer one encloses the other
  });
  std::vector<uint32_t> open;
  for (uint32_t e : rows) {
    while (!open.empty() && ends_before(trace, open.back(), e)) open.pop_back();
    nesting.parent[e] = open.empty() ? -1 : static_cast<int32_t>(open.back());
    nesting.depth[e] = static_cast<int32_t>(open.size());
    open.push_back(e);
  }
}

struct Launch {
  uint32_t op;  // the innermost aten:: op enclosing the call
  uint32_t call;
  uint32_t kernel;
};

int32_t innermost_aten_op(const EventStore& s, const HostNesting& nesting, uint32_t call) {
  for (int32_t p = nesting.parent[call]; p >= 0; p = nesting.parent[p])
    if (s.name_of(static_cast<uint32_t>(p)).starts_with("aten::")) return p;
  return -1;
}

// Kernel launches under an aten:: op, with their first GPU event, in file order.
std::vector<Launch> aten_launches(const HtaTrace& trace, const HostNesting& nesting, const std::vector<uint8_t>& kept) {
  const EventStore& s = trace.store();
  FlatIndex<int64_t, IdHash> first_gpu(s.size() / 8);
  for (uint32_t i = 0; i < s.size(); ++i)
    if (s.phase[i] == Phase::kComplete && is_gpu_activity(s.category[i]) && s.correlation[i] != kNoValue)
      first_gpu.insert_if_absent(s.correlation[i], i);
  std::vector<Launch> launches;
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (!kept[i] || !is_runtime(s.category[i]) || nesting.depth[i] < 0 || !is_kernel_launch_call(s.name_of(i)))
      continue;
    if (s.correlation[i] == kNoValue) continue;
    const std::optional<uint32_t> gpu = first_gpu.find(s.correlation[i]);
    const int32_t op = innermost_aten_op(s, nesting, i);
    if (!gpu || op < 0) continue;
    launches.push_back({static_cast<uint32_t>(op), i, *gpu});
  }
  return launches;
}

// One op instance as HTA groups them: thread, op name, op start.
using InstanceKey = std::tuple<StrId, StrId, double>;
struct Instance {
  std::string sequence;
  double aten_op_delay = 0;  // of the first launch
  double runtime_delay = 0;
};

std::map<InstanceKey, Instance> op_instances(const HtaTrace& trace, const std::vector<Launch>& launches) {
  const EventStore& s = trace.store();
  std::map<InstanceKey, Instance> instances;
  for (const Launch& l : launches) {
    const auto [it, first] = instances.try_emplace(InstanceKey{s.tid[l.op], s.name[l.op], trace.ts(l.op)});
    Instance& in = it->second;
    if (first) {
      in.aten_op_delay = trace.ts(l.call) - trace.ts(l.op);
      in.runtime_delay = trace.ts(l.kernel) - trace.ts(l.call);
    } else {
      in.sequence += " -> ";
    }
    in.sequence += s.name_of(l.kernel);
  }
  return instances;
}

struct SequenceStats {
  int64_t count = 0;
  double aten_op_delay_sum = 0, runtime_delay_sum = 0;
};

// pandas' round(3): half to even on the scaled value.
double round3(double v) { return std::nearbyint(v * 1000.0) / 1000.0; }

}  // namespace

bool is_kernel_launch_call(std::string_view name) { return name.find("LaunchKernel") != std::string_view::npos; }

HostNesting host_nesting(const HtaTrace& trace, const std::vector<uint8_t>& kept) {
  const EventStore& s = trace.store();
  HostNesting nesting;
  nesting.parent.assign(s.size(), -1);
  nesting.depth.assign(s.size(), -1);
  std::unordered_map<uint64_t, std::vector<uint32_t>> threads;
  for (uint32_t i = 0; i < s.size(); ++i)
    if (kept[i] && is_host_row(trace, i)) threads[uint64_t(s.pid[i]) << 32 | s.tid[i]].push_back(i);
  for (auto& [thread, rows] : threads) nest_thread(trace, rows, nesting);
  return nesting;
}

Table aten_op_kernels_and_delay_table(const HtaTrace& trace) {
  const EventStore& s = trace.store();
  std::vector<uint8_t> kept(s.size(), 0);
  for (uint32_t i = 0; i < s.size(); ++i) kept[i] = trace.loaded(i);
  const HostNesting nesting = host_nesting(trace, kept);
  const std::map<InstanceKey, Instance> instances = op_instances(trace, aten_launches(trace, nesting, kept));

  std::map<std::pair<std::string_view, std::string_view>, SequenceStats> by_sequence;
  for (const auto& [key, in] : instances) {
    SequenceStats& st = by_sequence[{s.str(std::get<1>(key)), in.sequence}];
    ++st.count;
    st.aten_op_delay_sum += in.aten_op_delay;
    st.runtime_delay_sum += in.runtime_delay;
  }
  std::vector<std::pair<std::pair<std::string_view, std::string_view>, SequenceStats>> rows(by_sequence.begin(),
                                                                                              by_sequence.end());
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.count > b.second.count; });

  Table t("aten_op_kernels_and_delay", TableKind::kHta);
  Column& rank = t.add_column("rank", ColumnType::kInt);
  Column& op = t.add_column("aten_op_name", ColumnType::kString);
  Column& sequence = t.add_column("kernel_sequence", ColumnType::kString);
  Column& count = t.add_column("occurrence_count", ColumnType::kInt);
  Column& op_delay = t.add_column("avg_aten_op_launch_delay", ColumnType::kFloat, Unit::kMicroseconds);
  Column& runtime_delay = t.add_column("avg_runtime_delay", ColumnType::kFloat, Unit::kMicroseconds);
  for (const auto& [key, st] : rows) {
    rank.push_int(trace.rank());
    op.push_string(key.first);
    sequence.push_string(key.second);
    count.push_int(st.count);
    op_delay.push_float(round3(st.aten_op_delay_sum / static_cast<double>(st.count)));
    runtime_delay.push_float(round3(st.runtime_delay_sum / static_cast<double>(st.count)));
  }
  return t;
}

}  // namespace sollens::hta
