#include "analyses/perf/unified_perf_summary.h"

#include <algorithm>
#include <unordered_map>

#include "analyses/ops/kernel_details.h"
#include "analyses/ops/op_categories.h"
#include "analyses/ops/percentage_columns.h"
#include "analyses/ops/process_names.h"
#include "base/stats.h"
#include "analyses/perf/perf_metrics.h"
#include "base/gpu_class.h"
#include "base/python_repr.h"

namespace sollens {

namespace {

// One row before grouping.
struct Row {
  uint32_t uid;
  uint32_t source;  // the event whose args, names and duration the row shows
  std::string synthetic_name;  // non-empty for synthetic ops
  std::string_view category;
  bool has_model = false;
  int32_t eval = -1;  // metrics: evals[eval] (fwd or bwd)
  bool bwd = false;
  double kernel_us = kPerfNaN;
  uint32_t kernels_begin = 0, kernels_end = 0;  // kernel_details, in gpu_events order
};

// TraceLens appends an event's gpu_events as it links runtime events in file order.
void sort_in_link_order(const TraceTree& tree, std::vector<uint32_t>& k, size_t begin) {
  std::sort(k.begin() + static_cast<std::ptrdiff_t>(begin), k.end(), [&](uint32_t a, uint32_t b) {
    const int32_t pa = tree.parent[a], pb = tree.parent[b];
    return pa != pb ? pa < pb : a < b;
  });
}

std::string perf_params_repr(const perf::ModelResult& r) {
  std::string out = "{";
  bool first = true;
  for (const auto& [k, v] : r.params) {
    if (!first) out += ", ";
    first = false;
    append_python_str_repr(out, k);
    out += ": ";
    out += repr(v);
  }
  return out + "}";
}

// The mean / std / median / min / max columns of one aggregated metric, which
// TraceLens's column order scatters across the sheet; filled one group at a time.
struct AggColumns {
  Column *mean = nullptr, *std = nullptr, *median = nullptr, *min = nullptr, *max = nullptr;
  void push(const Agg& a) const {
    push_float_or_null(*mean, a.mean);
    push_float_or_null(*std, a.std);
    push_float_or_null(*median, a.median);
    push_float_or_null(*min, a.min);
    push_float_or_null(*max, a.max);
  }
};

}  // namespace

Table unified_perf_summary_table(const EventStore& s, const TraceTree& tree, const LauncherTable& launchers,
                                 const ModeledOps& ops, const PerfSheetOptions& options) {
  return unified_perf_summary_table(s, tree, launchers, ProcessThreadNames(s), ops, options);
}

Table unified_perf_summary_table(const EventStore& s, const TraceTree& tree, const LauncherTable& launchers,
                                 const ProcessThreadNames& names, const ModeledOps& ops,
                                 const PerfSheetOptions& options) {
  const std::vector<UnifiedOp> collected = collect_unified_ops(s, tree, ops);
  std::vector<Row> rows;
  std::vector<uint32_t> kernels, stack;
  std::vector<uint8_t> covered(s.size(), 0);
  std::vector<std::pair<uint32_t, uint32_t>> backward_of;  // (forward, backward), built on first use
  auto category_of = [&](uint32_t e) -> std::string_view {
    if (const KernelLauncher* l = launchers.find(e)) return l->category;
    const auto begin = kernels.size();
    append_subtree_kernels(s, tree, e, kernels, stack);
    std::optional<std::string_view> first;
    if (kernels.size() > begin) {
      sort_in_link_order(tree, kernels, begin);
      first = s.name_of(kernels[begin]);
    }
    kernels.resize(begin);
    return categorize_op(s.name_of(e), first);
  };
  for (const UnifiedOp& op : collected) {
    Row r{op.event, op.event, {}, {}, false, -1, false, kPerfNaN, 0, 0};
    if (op.kind != UnifiedOp::Kind::kSoleBackward) r.category = category_of(op.event);  // before `own`
    r.kernels_begin = static_cast<uint32_t>(kernels.size());
    append_subtree_kernels(s, tree, op.event, kernels, stack);
    sort_in_link_order(tree, kernels, r.kernels_begin);
    r.kernels_end = static_cast<uint32_t>(kernels.size());
    for (uint32_t k = r.kernels_begin; k < r.kernels_end; ++k) covered[kernels[k]] = 1;
    const std::span<const uint32_t> own(kernels.data() + r.kernels_begin, r.kernels_end - r.kernels_begin);
    if (op.kind == UnifiedOp::Kind::kModeled) {
      r.has_model = true;
      // Kernel Time is the busy time of its GPU events; metrics where the model worked.
      // A model that raises NotImplementedError drops the row, any other failure keeps
      // it without metrics; a model sollens does not implement yet counts as the latter.
      r.kernel_us = kernels_busy_us(s, own);
      if (const int32_t eval = ops.eval_of_event[op.event]; eval >= 0) {
        const perf::ModelResult& m = ops.evals[static_cast<size_t>(eval)].result;
        const perf::Status st = m.status != perf::Status::kOk ? m.status : m.fwd.status;
        if (st == perf::Status::kNotImplemented) continue;
        if (st == perf::Status::kOk) r.eval = eval;
      }
    } else if (op.kind == UnifiedOp::Kind::kSoleBackward) {
      r.has_model = true;
      const int32_t eval = ops.eval_of_event[static_cast<size_t>(op.forward)];
      r.category = ops.evals[static_cast<size_t>(eval)].entry->bwd_category;
      r.eval = eval;
      r.bwd = true;
      // The forward op's bwd_events: every backward event linked to it.
      if (backward_of.empty()) {
        for (uint32_t b = 0; b < s.size(); ++b)
          if (ops.forward_of_backward[b] >= 0) backward_of.emplace_back(static_cast<uint32_t>(ops.forward_of_backward[b]), b);
        std::sort(backward_of.begin(), backward_of.end());
      }
      std::vector<uint32_t> bk;
      const auto fwd = static_cast<uint32_t>(op.forward);
      for (auto it = std::lower_bound(backward_of.begin(), backward_of.end(), std::pair<uint32_t, uint32_t>{fwd, 0});
           it != backward_of.end() && it->first == fwd; ++it)
        append_subtree_kernels(s, tree, it->second, bk, stack);
      std::sort(bk.begin(), bk.end());
      bk.erase(std::unique(bk.begin(), bk.end()), bk.end());
      r.kernel_us = kernels_busy_us(s, bk);
    } else {
      r.kernel_us = kernels_busy_us(s, own);
    }
    rows.push_back(std::move(r));
  }
  // Synthetic ops for the GPU events no collected op covers, numbered after the trace's events.
  uint32_t next_uid = static_cast<uint32_t>(s.size());
  for (uint32_t g : tree.gpu_events) {
    if (covered[g] || tree.parent[g] == kNoParent || is_collective_kernel_name(s.name_of(g))) continue;
    const auto launcher = launcher_of_gpu_event(s, tree, g);
    if (!launcher) continue;
    Row r{next_uid++, *launcher, {}, {}, false, -1, false, kPerfNaN, 0, 0};
    r.synthetic_name = std::string(s.name_of(*launcher)) + "->" + std::string(s.name_of(g)) + " (Synthetic Op)";
    r.category = category_of(*launcher);
    r.kernels_begin = static_cast<uint32_t>(kernels.size());
    kernels.push_back(g);
    r.kernels_end = static_cast<uint32_t>(kernels.size());
    r.kernel_us = kernels_busy_us(s, {&g, 1});
    rows.push_back(std::move(r));
  }

  // Groups on the 9 key columns, in first-seen order.
  perf::ArgsCache& args = ops.args;
  std::vector<uint32_t> args_of_row(rows.size());
  std::vector<std::vector<size_t>> groups;
  std::unordered_map<std::string, size_t> index;
  std::string key;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    const uint32_t e = r.source;
    args_of_row[i] = args.intern(e);
    key.clear();
    key += r.synthetic_name.empty() ? s.name_of(e) : std::string_view(r.synthetic_name);
    for (std::string_view part : {r.category, names.process_name(s.pid[e]), names.process_label(s.pid[e]),
                                  names.thread_name(s.pid[e], s.tid[e])}) {
      key += '\x1f';
      key += part;
    }
    key += '\x1f';
    key += std::to_string(args[args_of_row[i]].display_id);
    auto [it, inserted] = index.try_emplace(key, groups.size());
    if (inserted) groups.emplace_back();
    groups[it->second].push_back(i);
  }
  std::vector<double> sums(groups.size());
  std::vector<double> col;
  auto non_nan = [&](const std::vector<size_t>& g, auto value) -> const std::vector<double>& {
    col.clear();
    for (size_t i : g)
      if (double v = value(rows[i]); !std::isnan(v)) col.push_back(v);
    return col;
  };
  std::vector<uint32_t> ex_uids(groups.size());
  for (size_t g = 0; g < groups.size(); ++g) {
    sums[g] = stats::pandas_sum(non_nan(groups[g], [](const Row& r) { return r.kernel_us; }));
    ex_uids[g] = rows[groups[g].front()].uid;
  }
  const std::vector<size_t> order = stats::argsort_sum_desc_ex_uid_asc(sums, ex_uids);

  // Per-evaluation values (metrics vary per event only through the kernel time).
  std::unordered_map<uint64_t, OpRoofline> rooflines;
  auto roofline_of = [&](const Row& r) -> const OpRoofline& {
    const uint64_t k = uint64_t(static_cast<uint32_t>(r.eval)) << 1 | r.bwd;
    auto it = rooflines.find(k);
    if (it == rooflines.end()) {
      const ModelEval& ev = ops.evals[static_cast<size_t>(r.eval)];
      it = rooflines.emplace(k, op_roofline(r.bwd ? ev.result.bwd : ev.result.fwd, options.corrected,
                                            ev.compute_spec, options.device)).first;
    }
    return it->second;
  };
  // A column exists when some row has its value, as in TraceLens's DataFrame built from
  // per-row dicts: no metric columns when no model worked, no roofline columns when no
  // op got a roofline.
  bool metrics_present = false, roofline = false;
  for (const Row& r : rows) {
    if (r.eval < 0) continue;
    metrics_present = true;
    if (options.device && roofline_of(r).has) roofline = true;
  }
  Table t("unified_perf_summary", TableKind::kUnifiedPerf);
  auto str_col = [&](const char* n) -> Column& { return t.add_column(n, ColumnType::kString); };
  auto float_col = [&](const std::string& n, Unit unit) -> Column& { return t.add_column(n, ColumnType::kFloat, unit); };
  Column& name = str_col("name");
  Column& category = str_col("op category");
  Column& pname = str_col("process_name");
  Column& plabel = str_col("process_label");
  Column& tname = str_col("thread_name");
  Column* inputs[4] = {&str_col("Input Dims"), &str_col("Input type"), &str_col("Input Strides"),
                       &str_col("Concrete Inputs")};
  Column& ex_uid = t.add_column("ex_UID", ColumnType::kInt);
  Column& count = t.add_column("operation_count", ColumnType::kInt);
  Column& dur_sum = float_col("total_duration_us", Unit::kMicroseconds);
  AggColumns dur, tbs, tfl, kt, roof_pct;
  dur.mean = &float_col("mean_duration_us", Unit::kMicroseconds);
  dur.std = &float_col("std_duration_us", Unit::kMicroseconds);
  Column& gflops = float_col("GFLOPS", Unit::kGflop);
  Column& mb = float_col("Data Moved (MB)", Unit::kMegabytes);
  Column& fpb = float_col("FLOPS/Byte", Unit::kFlopsPerByte);
  Column& spec = str_col("Compute Spec");
  Column* bound = roofline ? &str_col("Roofline Bound") : nullptr;
  tbs.mean = &float_col("TB/s_mean", Unit::kTerabytesPerSecond);
  tbs.std = &float_col("TB/s_std", Unit::kTerabytesPerSecond);
  tfl.mean = &float_col("TFLOPS/s_mean", Unit::kTflopsPerSecond);
  tfl.std = &float_col("TFLOPS/s_std", Unit::kTflopsPerSecond);
  kt.mean = &float_col("Kernel Time (µs)_mean", Unit::kMicroseconds);
  kt.std = &float_col("Kernel Time (µs)_std", Unit::kMicroseconds);
  Column& kt_sum = float_col("Kernel Time (µs)_sum", Unit::kMicroseconds);
  dur.median = &float_col("duration_us_median", Unit::kMicroseconds);
  dur.min = &float_col("duration_us_min", Unit::kMicroseconds);
  dur.max = &float_col("duration_us_max", Unit::kMicroseconds);
  tbs.median = &float_col("TB/s_median", Unit::kTerabytesPerSecond);
  tbs.min = &float_col("TB/s_min", Unit::kTerabytesPerSecond);
  tbs.max = &float_col("TB/s_max", Unit::kTerabytesPerSecond);
  tfl.median = &float_col("TFLOPS/s_median", Unit::kTflopsPerSecond);
  tfl.min = &float_col("TFLOPS/s_min", Unit::kTflopsPerSecond);
  tfl.max = &float_col("TFLOPS/s_max", Unit::kTflopsPerSecond);
  Column* roof_time = nullptr;
  if (roofline) {
    roof_time = &float_col("Roofline Time (µs)_first", Unit::kMicroseconds);
    roof_pct.mean = &float_col("Pct Roofline_mean", Unit::kPercent);
    roof_pct.median = &float_col("Pct Roofline_median", Unit::kPercent);
    roof_pct.std = &float_col("Pct Roofline_std", Unit::kPercent);
    roof_pct.min = &float_col("Pct Roofline_min", Unit::kPercent);
    roof_pct.max = &float_col("Pct Roofline_max", Unit::kPercent);
  }
  kt.median = &float_col("Kernel Time (µs)_median", Unit::kMicroseconds);
  kt.min = &float_col("Kernel Time (µs)_min", Unit::kMicroseconds);
  kt.max = &float_col("Kernel Time (µs)_max", Unit::kMicroseconds);
  Column& summary = str_col("kernel_details_summary");
  Column& trunc = str_col("trunc_kernel_details");
  Column& params = str_col("perf_params");
  Column& has_model = t.add_column("has_perf_model", ColumnType::kBool);

  auto metrics_of = [&](const Row& r) {
    if (r.eval < 0) return OpMetrics{};
    const perf::ModelResult& m = ops.evals[static_cast<size_t>(r.eval)].result;
    return op_metrics(r.bwd ? m.bwd : m.fwd, options.corrected, r.kernel_us);
  };
  // pandas "first" of a column only some rows have: the group's first row that has it.
  auto first_row_where = [&](const std::vector<size_t>& g, auto has) -> const Row* {
    for (size_t i : g)
      if (has(rows[i])) return &rows[i];
    return nullptr;
  };
  std::vector<OpMetrics> metrics;
  std::vector<double> values;
  std::vector<std::span<const uint32_t>> lists;
  std::vector<double> pct_values;
  for (size_t gi : order) {
    const auto& g = groups[gi];
    const Row& first = rows[g.front()];
    const uint32_t e = first.source;
    name.push_string(first.synthetic_name.empty() ? s.name_of(e) : std::string_view(first.synthetic_name));
    category.push_string(first.category);
    pname.push_string(names.process_name(s.pid[e]));
    plabel.push_string(names.process_label(s.pid[e]));
    tname.push_string(names.thread_name(s.pid[e], s.tid[e]));
    const perf::ArgsEntry& a = args[args_of_row[g.front()]];
    for (int k = 0; k < 4; ++k) {
      if (a.tuple_text[k]) inputs[k]->push_string(*a.tuple_text[k]);
      else inputs[k]->push_null();
    }
    ex_uid.push_int(first.uid);
    count.push_int(static_cast<int64_t>(g.size()));
    values.clear();
    for (size_t i : g) values.push_back(s.dur[rows[i].source]);
    dur_sum.push_float(stats::pandas_sum(values));
    dur.push(aggregate(values));

    metrics.clear();
    for (size_t i : g) metrics.push_back(metrics_of(rows[i]));
    auto field = [&](double OpMetrics::*f) -> const std::vector<double>& {
      values.clear();
      for (const auto& m : metrics) values.push_back(m.*f);
      return values;
    };
    push_float_or_null(gflops, first_valid(field(&OpMetrics::gflops)));
    push_float_or_null(mb, first_valid(field(&OpMetrics::mb)));
    push_float_or_null(fpb, first_valid(field(&OpMetrics::flops_per_byte)));
    const Row* modeled = first_row_where(g, [](const Row& r) { return r.eval >= 0; });
    if (modeled) spec.push_string(ops.evals[static_cast<size_t>(modeled->eval)].compute_spec);
    else spec.push_null();
    const OpRoofline* rl = nullptr;
    if (roofline) {
      const Row* with_roofline =
          first_row_where(g, [&](const Row& r) { return r.eval >= 0 && roofline_of(r).has; });
      if (with_roofline) rl = &roofline_of(*with_roofline);
      if (rl) bound->push_string(roofline_bound_name(rl->bound));
      else bound->push_null();
    }
    tbs.push(aggregate(field(&OpMetrics::tbs)));
    tfl.push(aggregate(field(&OpMetrics::tflops)));
    kt.push(aggregate(non_nan(g, [](const Row& r) { return r.kernel_us; })));
    kt_sum.push_float(sums[gi]);
    if (roofline) {
      push_float_or_null(*roof_time, rl ? rl->time_us : kPerfNaN);
      pct_values.clear();
      for (size_t i : g) pct_values.push_back(rows[i].eval >= 0 ? roofline_of(rows[i]).pct(rows[i].kernel_us) : kPerfNaN);
      roof_pct.push(aggregate(pct_values));
    }
    lists.clear();
    for (size_t i : g) lists.emplace_back(kernels.data() + rows[i].kernels_begin, rows[i].kernels_end - rows[i].kernels_begin);
    const auto kstats = summarize_kernel_stats(s, lists);
    if (kstats.empty()) summary.push_null();
    else summary.push_string(kernel_details_summary_repr(kstats));
    if (auto tr = trunc_kernel_details_repr(kstats)) trunc.push_string(*tr);
    else trunc.push_null();
    const Row* with_params = first_row_where(g, [&](const Row& r) {
      return r.eval >= 0 && !ops.evals[static_cast<size_t>(r.eval)].result.params.empty();
    });
    if (with_params) params.push_string(perf_params_repr(ops.evals[static_cast<size_t>(with_params->eval)].result));
    else params.push_null();
    has_model.push_bool(first.has_model);
  }
  // Percentage (%) of Kernel Time (µs)_sum and its running sum.
  values.clear();
  for (size_t gi : order) values.push_back(sums[gi]);
  add_percentage_columns(t, values);
  if (metrics_present) return t;
  Table without_metrics(t.name(), t.kind());
  for (size_t c = 0; c < t.num_columns(); ++c) {
    const std::string& n = t.column(c).name();
    if (n == "GFLOPS" || n == "Data Moved (MB)" || n == "FLOPS/Byte" || n == "Compute Spec" ||
        n.starts_with("TB/s_") || n.starts_with("TFLOPS/s_"))
      continue;
    without_metrics.add_column(n, t.column(c).type()) = t.column(c);
  }
  return without_metrics;
}

}  // namespace sollens
