#include "analyses/diff/run_facts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "base/interval_math.h"

namespace sollens {

namespace {

constexpr const char* kFirstToLast = "from the first GPU event to the last, idle included";

// The gpu_timeline row `type`'s `time ms`, in µs; nullopt when absent.
std::optional<double> timeline_us(const std::vector<Table>& sheets, const std::string& type) {
  const Table* t = find_sheet(sheets, "gpu_timeline");
  if (!t) return std::nullopt;
  const Column* types = t->find("type");
  const Column* ms = t->find("time ms");
  if (!types || !ms || ms->type() != ColumnType::kFloat) return std::nullopt;
  for (size_t r = 0; r < t->num_rows(); ++r)
    if (!types->is_null(r) && types->string_at(r) == type && !ms->is_null(r)) return ms->float_at(r) * 1e3;
  return std::nullopt;
}

std::optional<double> ops_summary_us(const std::vector<Table>& sheets) {
  const Table* t = find_sheet(sheets, "ops_summary");
  const Column* ms = t ? t->find("total_direct_kernel_time_ms") : nullptr;
  if (!ms || ms->type() != ColumnType::kFloat) return std::nullopt;
  double sum = 0;
  for (size_t r = 0; r < t->num_rows(); ++r)
    if (!ms->is_null(r)) sum += ms->float_at(r);
  return sum * 1e3;
}

// One ops_summary row: the name, its time in the two time columns, the rest empty.
void push_op_row(Table& ops, const char* name, double us, std::optional<size_t> count) {
  for (size_t c = 0; c < ops.num_columns(); ++c) {
    Column& col = ops.column(c);
    const std::string& n = col.name();
    if (n == "name") col.push_string(name);
    else if (n == "total_direct_kernel_time_ms" && col.type() == ColumnType::kFloat) col.push_float(us / 1e3);
    else if (n == "total_direct_kernel_time_sum" && col.type() == ColumnType::kFloat) col.push_float(us);
    else if (n == "Count" && count && col.type() == ColumnType::kInt) col.push_int(static_cast<int64_t>(*count));
    else if (n == "Count" && count && col.type() == ColumnType::kFloat) col.push_float(static_cast<double>(*count));
    else col.push_null();
  }
}

std::string ms_text(double us) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", us / 1e3);
  return buf;
}

std::string pct_text(double pct) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", pct);
  return buf;
}

void push_optional_ms(Column& c, std::optional<double> us) {
  if (us) c.push_float(*us / 1e3);
  else c.push_null();
}

}  // namespace

RunFacts trace_run_facts(const EventStore& store, const TraceTree& tree, std::string device,
                         const std::vector<Table>& sheets) {
  RunFacts f;
  f.device = std::move(device);
  f.from_trace = true;
  IntervalList all;
  double gpu = 0, no_launch = 0;
  for (uint32_t e : tree.gpu_events) {
    all.push_back({store.ts[e], store.t_end(e)});
    gpu += store.dur[e];
    if (!tree.in_tree[e]) {
      no_launch += store.dur[e];
      ++f.no_launch_events;
    }
  }
  all = merge_intervals(std::move(all));
  f.wall_us = all.empty() ? 0.0 : all.back().end - all.front().start;
  f.busy_us = total_length(all);
  f.gpu_time_us = gpu;
  f.no_launch_us = no_launch;
  f.ops_us = ops_summary_us(sheets);
  return f;
}

RunFacts stored_run_facts(const std::vector<Table>& sheets) {
  RunFacts f;
  f.wall_us = timeline_us(sheets, "total_time").value_or(0.0);
  f.busy_us = timeline_us(sheets, "busy_time").value_or(0.0);
  f.ops_us = ops_summary_us(sheets);
  return f;
}

std::optional<double> outside_ops_us(const RunFacts& run) {
  if (!run.gpu_time_us || !run.no_launch_us || !run.ops_us) return std::nullopt;
  const double rest = *run.gpu_time_us - *run.no_launch_us - *run.ops_us;
  // Sums of the same durations in another order differ in the last bits.
  return rest > 1e-6 * std::max(1.0, *run.gpu_time_us) ? rest : 0.0;
}

void add_unattributed_op_rows(std::vector<Table>& sheets, const RunFacts& run) {
  Table* ops = nullptr;
  for (Table& t : sheets)
    if (t.name() == "ops_summary") ops = &t;
  if (!ops || !ops->find("name") || !ops->find("total_direct_kernel_time_ms")) return;
  const std::optional<double> outside = outside_ops_us(run);
  if (run.no_launch_us && *run.no_launch_us > 0) push_op_row(*ops, kNoLaunchRow, *run.no_launch_us, run.no_launch_events);
  if (outside && *outside > 0) push_op_row(*ops, kOutsideOpsRow, *outside, std::nullopt);
}

Table compare_runs_table(const RunFacts& baseline, const RunFacts& variant, const CompareTags& tags) {
  Table t("compare_runs", TableKind::kComparison);
  Column& run = t.add_column("run", ColumnType::kString);
  Column& role = t.add_column("role", ColumnType::kString);
  Column& device = t.add_column("device", ColumnType::kString);
  Column& wall = t.add_column("wall_time", ColumnType::kFloat, Unit::kMilliseconds);
  Column& busy = t.add_column("gpu_busy_time", ColumnType::kFloat, Unit::kMilliseconds);
  Column& gpu = t.add_column("gpu_time", ColumnType::kFloat, Unit::kMilliseconds);
  Column& ops = t.add_column("launched_by_ops", ColumnType::kFloat, Unit::kMilliseconds);
  Column& outside = t.add_column("launched_outside_ops", ColumnType::kFloat, Unit::kMilliseconds);
  Column& none = t.add_column("no_launch_in_trace", ColumnType::kFloat, Unit::kMilliseconds);
  Column& none_pct = t.add_column("no_launch_in_trace_pct", ColumnType::kFloat, Unit::kPercent);
  const auto add = [&](const RunFacts& f, const std::string& name, const char* which) {
    run.push_string(name);
    role.push_string(which);
    device.push_string(!f.device.empty() ? f.device : f.from_trace ? "device unknown" : "device unknown (a stored report)");
    wall.push_float(f.wall_us / 1e3);
    busy.push_float(f.busy_us / 1e3);
    push_optional_ms(gpu, f.gpu_time_us);
    push_optional_ms(ops, f.ops_us);
    push_optional_ms(outside, outside_ops_us(f));
    push_optional_ms(none, f.no_launch_us);
    if (f.no_launch_us && f.gpu_time_us && *f.gpu_time_us > 0) none_pct.push_float(100 * *f.no_launch_us / *f.gpu_time_us);
    else none_pct.push_null();
  };
  add(baseline, tags.baseline, "baseline");
  add(variant, tags.variant, "variant");
  return t;
}

// A run whose wall time is mostly idle can be faster on the wall while its GPU work is
// slower (or the reverse): then the headline says so, or it would credit the device with
// the host's speed; so it does when the wall did not move and the GPU's work did. ""
// when the busy time moved the same way as the wall (or did not move).
std::string busy_clause(const RunFacts& baseline, const RunFacts& variant, double wall_pct, bool wall_same) {
  const double b = baseline.busy_us, v = variant.busy_us;
  if (b <= 0 || v <= 0) return "";
  const double busy_pct = 100 * (v - b) / b;
  if (pct_text(std::fabs(busy_pct)) == "0.0" || (!wall_same && (busy_pct < 0) == (wall_pct < 0))) return "";
  const std::string why = !wall_same ? "the wall time differs by the GPU's idle time between kernels (the host, the launches), not by the GPU."
                          : busy_pct > 0 ? "the longer kernels took time the GPU was idle in, so the wall time did not move."
                                         : "the time saved became idle time (the host, the launches), so the wall time did not move.";
  return " But its GPU work is " + pct_text(std::fabs(busy_pct)) + " % " + (busy_pct < 0 ? "faster" : "slower") + " (" +
         ms_text(v) + " ms against " + ms_text(b) + " ms of GPU busy time): " + why;
}

Table compare_verdict_table(const RunFacts& baseline, const RunFacts& variant, const CompareTags& tags) {
  Table t("compare_verdict", TableKind::kComparison);
  Column& headline = t.add_column("headline", ColumnType::kString);
  Column& faster = t.add_column("faster", ColumnType::kString);
  Column& slower = t.add_column("slower", ColumnType::kString);
  Column& base_wall = t.add_column("baseline_wall_time", ColumnType::kFloat, Unit::kMilliseconds);
  Column& var_wall = t.add_column("variant_wall_time", ColumnType::kFloat, Unit::kMilliseconds);
  Column& change = t.add_column("wall_time_change_pct", ColumnType::kFloat, Unit::kPercent);
  Column& measured = t.add_column("measured_on", ColumnType::kString);
  const std::string on = std::string("wall time on the GPU: ") + kFirstToLast;
  const double b = baseline.wall_us, v = variant.wall_us;
  std::string sentence;
  if (b <= 0 || v <= 0) {
    sentence = "No GPU time in " + std::string(b <= 0 ? tags.baseline : tags.variant) + ": the runs' speed cannot be compared.";
    faster.push_null();
    slower.push_null();
    change.push_null();
  } else {
    const double pct = 100 * (v - b) / b;
    const bool same = pct_text(std::fabs(pct)) == "0.0";
    const std::string& quick = v <= b ? tags.variant : tags.baseline;
    const std::string& slow = v <= b ? tags.baseline : tags.variant;
    sentence = same ? tags.variant + " is as fast as " + tags.baseline
                    : tags.variant + " is " + pct_text(std::fabs(pct)) + " % " + (pct < 0 ? "faster" : "slower") + " than " + tags.baseline;
    sentence += ": " + ms_text(v) + " ms against " + ms_text(b) + " ms of wall time on the GPU (" + kFirstToLast + ").";
    sentence += busy_clause(baseline, variant, pct, same);
    if (same) {
      faster.push_null();
      slower.push_null();
    } else {
      faster.push_string(quick);
      slower.push_string(slow);
    }
    change.push_float(pct);
  }
  headline.push_string(sentence);
  base_wall.push_float(b / 1e3);
  var_wall.push_float(v / 1e3);
  measured.push_string(on);
  return t;
}

}  // namespace sollens
