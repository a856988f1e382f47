#include "analyses/perf/unified_perf_summary.h"

#include <algorithm>
#include <unordered_map>

#include "analyses/ops/kernel_details.h"
#include "analyses/ops/op_categories.h"
#include "analyses/ops/percentage_columns.h"
#include "analyses/ops/process_names.h"
#include "base/stats.h"
#include "analyses/perf/perf_metrics.h"
#include "store/gpu_class.h"
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

// The table's rows before grouping: one per collected op (a model raising
// NotImplementedError drops its op), then the synthetic ops. Kernel lists are back to
// back in `kernels`.
class RowCollector {
 public:
  RowCollector(const EventStore& s, const TraceTree& tree, const LauncherTable& launchers, const ModeledOps& ops)
      : s_(s), tree_(tree), launchers_(launchers), ops_(ops), covered_(s.size(), 0) {}

  std::vector<Row> rows;
  std::vector<uint32_t> kernels;

  void add_collected(const UnifiedOp& op) {
    Row r{op.event, op.event, {}, {}, false, -1, false, kPerfNaN, 0, 0};
    if (op.kind != UnifiedOp::Kind::kSoleBackward) r.category = category_of(op.event);  // before its kernels
    r.kernels_begin = static_cast<uint32_t>(kernels.size());
    append_subtree_kernels(s_, tree_, op.event, kernels, stack_);
    sort_in_link_order(tree_, kernels, r.kernels_begin);
    r.kernels_end = static_cast<uint32_t>(kernels.size());
    for (uint32_t k = r.kernels_begin; k < r.kernels_end; ++k) covered_[kernels[k]] = 1;
    const std::span<const uint32_t> own(kernels.data() + r.kernels_begin, r.kernels_end - r.kernels_begin);
    if (op.kind == UnifiedOp::Kind::kModeled) {
      if (!set_modeled(r, own)) return;
    } else if (op.kind == UnifiedOp::Kind::kSoleBackward) {
      set_sole_backward(r, op);
    } else {
      r.kernel_us = kernels_busy_us(s_, own);
    }
    rows.push_back(std::move(r));
  }

  // Synthetic ops for the GPU events no collected op covers, numbered after the trace's events.
  void add_synthetic() {
    uint32_t next_uid = static_cast<uint32_t>(s_.size());
    for (uint32_t g : tree_.gpu_events) {
      if (covered_[g] || tree_.parent[g] == kNoParent || is_collective_kernel_name(s_.name_of(g))) continue;
      const auto launcher = launcher_of_gpu_event(s_, tree_, g);
      if (!launcher) continue;
      Row r{next_uid++, *launcher, {}, {}, false, -1, false, kPerfNaN, 0, 0};
      r.synthetic_name = std::string(s_.name_of(*launcher)) + "->" + std::string(s_.name_of(g)) + " (Synthetic Op)";
      r.category = category_of(*launcher);
      r.kernels_begin = static_cast<uint32_t>(kernels.size());
      kernels.push_back(g);
      r.kernels_end = static_cast<uint32_t>(kernels.size());
      r.kernel_us = kernels_busy_us(s_, {&g, 1});
      rows.push_back(std::move(r));
    }
  }

 private:
  std::string_view category_of(uint32_t e) {
    if (const KernelLauncher* l = launchers_.find(e)) return l->category;
    const auto begin = kernels.size();
    append_subtree_kernels(s_, tree_, e, kernels, stack_);
    std::optional<std::string_view> first;
    if (kernels.size() > begin) {
      sort_in_link_order(tree_, kernels, begin);
      first = s_.name_of(kernels[begin]);
    }
    kernels.resize(begin);
    return categorize_op(s_.name_of(e), first);
  }

  // Kernel Time is the busy time of its GPU events; metrics where the model worked. A
  // model that raises NotImplementedError drops the row (false), any other failure keeps
  // it without metrics; a model sollens does not implement yet counts as the latter.
  bool set_modeled(Row& r, std::span<const uint32_t> own) const {
    r.has_model = true;
    r.kernel_us = kernels_busy_us(s_, own);
    const int32_t eval = ops_.eval_of_event[r.uid];
    if (eval < 0) return true;
    const perf::ModelResult& m = ops_.evals[static_cast<size_t>(eval)].result;
    const perf::Status st = m.status != perf::Status::kOk ? m.status : m.fwd.status;
    if (st == perf::Status::kNotImplemented) return false;
    if (st == perf::Status::kOk) r.eval = eval;
    return true;
  }

  void set_sole_backward(Row& r, const UnifiedOp& op) {
    r.has_model = true;
    const int32_t eval = ops_.eval_of_event[static_cast<size_t>(op.forward)];
    r.category = ops_.evals[static_cast<size_t>(eval)].entry->bwd_category;
    r.eval = eval;
    r.bwd = true;
    r.kernel_us = backward_kernel_us(static_cast<uint32_t>(op.forward));
  }

  // Busy time of the forward op's bwd_events: every backward event linked to it.
  double backward_kernel_us(uint32_t fwd) {
    if (backward_of_.empty()) {
      for (uint32_t b = 0; b < s_.size(); ++b)
        if (ops_.forward_of_backward[b] >= 0) backward_of_.emplace_back(static_cast<uint32_t>(ops_.forward_of_backward[b]), b);
      std::sort(backward_of_.begin(), backward_of_.end());
    }
    std::vector<uint32_t> bk;
    for (auto it = std::lower_bound(backward_of_.begin(), backward_of_.end(), std::pair<uint32_t, uint32_t>{fwd, 0});
         it != backward_of_.end() && it->first == fwd; ++it)
      append_subtree_kernels(s_, tree_, it->second, bk, stack_);
    std::sort(bk.begin(), bk.end());
    bk.erase(std::unique(bk.begin(), bk.end()), bk.end());
    return kernels_busy_us(s_, bk);
  }

  const EventStore& s_;
  const TraceTree& tree_;
  const LauncherTable& launchers_;
  const ModeledOps& ops_;
  std::vector<uint32_t> stack_;
  std::vector<uint8_t> covered_;
  std::vector<std::pair<uint32_t, uint32_t>> backward_of_;  // (forward, backward), built on first use
};

std::string_view name_of_row(const EventStore& s, const Row& r) {
  return r.synthetic_name.empty() ? s.name_of(r.source) : std::string_view(r.synthetic_name);
}

// Rows grouped on the 9 key columns, in first-seen order; interns each row's args.
struct RowGroups {
  std::vector<uint32_t> args_of_row;
  std::vector<std::vector<size_t>> groups;
};

bool row_is_recompute(const Row& r, const PerfSheetOptions& options) {
  return options.recompute && (*options.recompute)[r.source] != 0;
}

RowGroups group_rows(const EventStore& s, const std::vector<Row>& rows, const ProcessThreadNames& names,
                     perf::ArgsCache& args, const PerfSheetOptions& options) {
  RowGroups out;
  out.args_of_row.resize(rows.size());
  std::unordered_map<std::string, size_t> index;
  std::string key;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    const uint32_t e = r.source;
    out.args_of_row[i] = args.intern(e);
    key.clear();
    key += name_of_row(s, r);
    for (std::string_view part : {r.category, names.process_name(s.pid[e]), names.process_label(s.pid[e]),
                                  names.thread_name(s.pid[e], s.tid[e])}) {
      key += '\x1f';
      key += part;
    }
    key += '\x1f';
    key += std::to_string(args[out.args_of_row[i]].display_id);
    if (row_is_recompute(r, options)) key += "\x1frecompute";
    auto [it, inserted] = index.try_emplace(key, out.groups.size());
    if (inserted) out.groups.emplace_back();
    out.groups[it->second].push_back(i);
  }
  return out;
}

// The group's rows' kernel times, NaN skipped.
std::vector<double> kernel_times(const std::vector<Row>& rows, const std::vector<size_t>& group) {
  std::vector<double> values;
  for (size_t i : group)
    if (!std::isnan(rows[i].kernel_us)) values.push_back(rows[i].kernel_us);
  return values;
}

// Per-evaluation rooflines (metrics vary per event only through the kernel time).
class RooflineCache {
 public:
  RooflineCache(const ModeledOps& ops, const PerfSheetOptions& options) : ops_(ops), options_(options) {}
  const OpRoofline& of(const Row& r) {
    const uint64_t k = uint64_t(static_cast<uint32_t>(r.eval)) << 1 | r.bwd;
    auto it = rooflines_.find(k);
    if (it == rooflines_.end()) {
      const ModelEval& ev = ops_.evals[static_cast<size_t>(r.eval)];
      it = rooflines_.emplace(k, op_roofline(r.bwd ? ev.result.bwd : ev.result.fwd, options_.corrected,
                                             ev.compute_spec, options_.device)).first;
    }
    return it->second;
  }

 private:
  const ModeledOps& ops_;
  const PerfSheetOptions& options_;
  std::unordered_map<uint64_t, OpRoofline> rooflines_;
};

// The table's columns in TraceLens's order, which scatters each aggregate's parts.
struct UnifiedColumns {
  Column *name, *category, *process_name, *process_label, *thread_name, *inputs[4];
  Column* is_recompute = nullptr;  // with recompute detection
  Column *ex_uid, *count, *dur_sum;
  AggColumns dur, tbs, tflops, kernel_time, roof_pct;
  Column *gflops, *mb, *fpb, *spec;
  Column* bound = nullptr;      // with a roofline
  Column* roof_time = nullptr;  // with a roofline
  Column *kernel_time_sum, *summary, *trunc, *params, *has_model;
};

class ColumnAdder {
 public:
  explicit ColumnAdder(Table& t) : t_(t) {}
  Column* str(const char* n) { return &t_.add_column(n, ColumnType::kString); }
  Column* num(const char* n, Unit unit) { return &t_.add_column(n, ColumnType::kFloat, unit); }
  Column* integer(const char* n) { return &t_.add_column(n, ColumnType::kInt); }
  Column* boolean(const char* n) { return &t_.add_column(n, ColumnType::kBool); }

 private:
  Table& t_;
};

void add_key_and_mean_columns(ColumnAdder& a, bool roofline, bool recompute, UnifiedColumns& c) {
  c.name = a.str("name");
  c.category = a.str("op category");
  c.process_name = a.str("process_name");
  c.process_label = a.str("process_label");
  c.thread_name = a.str("thread_name");
  const char* kInputs[] = {"Input Dims", "Input type", "Input Strides", "Concrete Inputs"};
  for (int k = 0; k < 4; ++k) c.inputs[k] = a.str(kInputs[k]);
  if (recompute) c.is_recompute = a.boolean("is_recompute");
  c.ex_uid = a.integer("ex_UID");
  c.count = a.integer("operation_count");
  c.dur_sum = a.num("total_duration_us", Unit::kMicroseconds);
  c.dur.mean = a.num("mean_duration_us", Unit::kMicroseconds);
  c.dur.std = a.num("std_duration_us", Unit::kMicroseconds);
  c.gflops = a.num("GFLOPS", Unit::kGflop);
  c.mb = a.num("Data Moved (MB)", Unit::kMegabytes);
  c.fpb = a.num("FLOPS/Byte", Unit::kFlopsPerByte);
  c.spec = a.str("Compute Spec");
  if (roofline) c.bound = a.str("Roofline Bound");
  c.tbs.mean = a.num("TB/s_mean", Unit::kTerabytesPerSecond);
  c.tbs.std = a.num("TB/s_std", Unit::kTerabytesPerSecond);
  c.tflops.mean = a.num("TFLOPS/s_mean", Unit::kTflopsPerSecond);
  c.tflops.std = a.num("TFLOPS/s_std", Unit::kTflopsPerSecond);
  c.kernel_time.mean = a.num("Kernel Time (µs)_mean", Unit::kMicroseconds);
  c.kernel_time.std = a.num("Kernel Time (µs)_std", Unit::kMicroseconds);
  c.kernel_time_sum = a.num("Kernel Time (µs)_sum", Unit::kMicroseconds);
}

void add_spread_and_detail_columns(ColumnAdder& a, bool roofline, UnifiedColumns& c) {
  c.dur.median = a.num("duration_us_median", Unit::kMicroseconds);
  c.dur.min = a.num("duration_us_min", Unit::kMicroseconds);
  c.dur.max = a.num("duration_us_max", Unit::kMicroseconds);
  c.tbs.median = a.num("TB/s_median", Unit::kTerabytesPerSecond);
  c.tbs.min = a.num("TB/s_min", Unit::kTerabytesPerSecond);
  c.tbs.max = a.num("TB/s_max", Unit::kTerabytesPerSecond);
  c.tflops.median = a.num("TFLOPS/s_median", Unit::kTflopsPerSecond);
  c.tflops.min = a.num("TFLOPS/s_min", Unit::kTflopsPerSecond);
  c.tflops.max = a.num("TFLOPS/s_max", Unit::kTflopsPerSecond);
  if (roofline) {
    c.roof_time = a.num("Roofline Time (µs)_first", Unit::kMicroseconds);
    c.roof_pct.mean = a.num("Pct Roofline_mean", Unit::kPercent);
    c.roof_pct.median = a.num("Pct Roofline_median", Unit::kPercent);
    c.roof_pct.std = a.num("Pct Roofline_std", Unit::kPercent);
    c.roof_pct.min = a.num("Pct Roofline_min", Unit::kPercent);
    c.roof_pct.max = a.num("Pct Roofline_max", Unit::kPercent);
  }
  c.kernel_time.median = a.num("Kernel Time (µs)_median", Unit::kMicroseconds);
  c.kernel_time.min = a.num("Kernel Time (µs)_min", Unit::kMicroseconds);
  c.kernel_time.max = a.num("Kernel Time (µs)_max", Unit::kMicroseconds);
  c.summary = a.str("kernel_details_summary");
  c.trunc = a.str("trunc_kernel_details");
  c.params = a.str("perf_params");
  c.has_model = a.boolean("has_perf_model");
}

void push_text_or_null(Column& c, const std::optional<std::string>& text) {
  if (text) c.push_string(*text);
  else c.push_null();
}

// Writes one group's row; every push_* fills the columns of one kind.
class GroupWriter {
 public:
  GroupWriter(const EventStore& s, const ModeledOps& ops, const ProcessThreadNames& names,
              const PerfSheetOptions& options, const RowCollector& collected, const RowGroups& groups,
              RooflineCache& rooflines, bool roofline, const UnifiedColumns& c)
      : s_(s), ops_(ops), names_(names), options_(options), rows_(collected.rows), kernels_(collected.kernels),
        groups_(groups), rooflines_(rooflines), roofline_(roofline), c_(c) {}

  void write(const std::vector<size_t>& group, double kernel_time_sum) {
    const Row& first = rows_[group.front()];
    push_keys(group);
    c_.ex_uid->push_int(first.uid);
    c_.count->push_int(static_cast<int64_t>(group.size()));
    push_durations(group);
    push_metrics(group);
    c_.kernel_time.push(aggregate(kernel_times(rows_, group)));
    c_.kernel_time_sum->push_float(kernel_time_sum);
    if (roofline_) push_roofline_pct(group);
    push_kernel_details(group);
    push_params(group);
    c_.has_model->push_bool(first.has_model);
  }

 private:
  void push_keys(const std::vector<size_t>& group) {
    const Row& first = rows_[group.front()];
    const uint32_t e = first.source;
    c_.name->push_string(name_of_row(s_, first));
    c_.category->push_string(first.category);
    c_.process_name->push_string(names_.process_name(s_.pid[e]));
    c_.process_label->push_string(names_.process_label(s_.pid[e]));
    c_.thread_name->push_string(names_.thread_name(s_.pid[e], s_.tid[e]));
    const perf::ArgsEntry& a = ops_.args[groups_.args_of_row[group.front()]];
    for (int k = 0; k < 4; ++k) push_text_or_null(*c_.inputs[k], a.tuple_text[k]);
    if (c_.is_recompute) c_.is_recompute->push_bool(row_is_recompute(first, options_));
  }

  void push_durations(const std::vector<size_t>& group) {
    std::vector<double> values;
    for (size_t i : group) values.push_back(s_.dur[rows_[i].source]);
    c_.dur_sum->push_float(stats::pandas_sum(values));
    c_.dur.push(aggregate(values));
  }

  // pandas "first" of a column only some rows have: the group's first row that has it.
  template <typename Has>
  const Row* first_row_where(const std::vector<size_t>& group, Has has) const {
    for (size_t i : group)
      if (has(rows_[i])) return &rows_[i];
    return nullptr;
  }

  OpMetrics metrics_of(const Row& r) const {
    if (r.eval < 0) return OpMetrics{};
    const perf::ModelResult& m = ops_.evals[static_cast<size_t>(r.eval)].result;
    return op_metrics(r.bwd ? m.bwd : m.fwd, options_.corrected, r.kernel_us);
  }

  std::vector<double> field(const std::vector<size_t>& group, double OpMetrics::*f) const {
    std::vector<double> values;
    for (size_t i : group) values.push_back(metrics_of(rows_[i]).*f);
    return values;
  }

  void push_metrics(const std::vector<size_t>& group) {
    push_float_or_null(*c_.gflops, first_valid(field(group, &OpMetrics::gflops)));
    push_float_or_null(*c_.mb, first_valid(field(group, &OpMetrics::mb)));
    push_float_or_null(*c_.fpb, first_valid(field(group, &OpMetrics::flops_per_byte)));
    const Row* modeled = first_row_where(group, [](const Row& r) { return r.eval >= 0; });
    if (modeled) c_.spec->push_string(ops_.evals[static_cast<size_t>(modeled->eval)].compute_spec);
    else c_.spec->push_null();
    if (roofline_) push_roofline_bound(group);
    c_.tbs.push(aggregate(field(group, &OpMetrics::tbs)));
    c_.tflops.push(aggregate(field(group, &OpMetrics::tflops)));
  }

  const OpRoofline* first_roofline(const std::vector<size_t>& group) {
    const Row* r = first_row_where(group, [&](const Row& row) { return row.eval >= 0 && rooflines_.of(row).has; });
    return r ? &rooflines_.of(*r) : nullptr;
  }

  void push_roofline_bound(const std::vector<size_t>& group) {
    if (const OpRoofline* rl = first_roofline(group)) c_.bound->push_string(roofline_bound_name(rl->bound));
    else c_.bound->push_null();
  }

  void push_roofline_pct(const std::vector<size_t>& group) {
    const OpRoofline* rl = first_roofline(group);
    push_float_or_null(*c_.roof_time, rl ? rl->time_us : kPerfNaN);
    std::vector<double> pct;
    for (size_t i : group)
      pct.push_back(rows_[i].eval >= 0 ? rooflines_.of(rows_[i]).pct(rows_[i].kernel_us) : kPerfNaN);
    c_.roof_pct.push(aggregate(pct));
  }

  void push_kernel_details(const std::vector<size_t>& group) {
    std::vector<std::span<const uint32_t>> lists;
    for (size_t i : group)
      lists.emplace_back(kernels_.data() + rows_[i].kernels_begin, rows_[i].kernels_end - rows_[i].kernels_begin);
    const auto stats = summarize_kernel_stats(s_, lists);
    if (stats.empty()) c_.summary->push_null();
    else c_.summary->push_string(kernel_details_summary_repr(stats));
    push_text_or_null(*c_.trunc, trunc_kernel_details_repr(stats));
  }

  void push_params(const std::vector<size_t>& group) {
    const Row* with_params = first_row_where(group, [&](const Row& r) {
      return r.eval >= 0 && !ops_.evals[static_cast<size_t>(r.eval)].result.params.empty();
    });
    if (with_params) c_.params->push_string(perf_params_repr(ops_.evals[static_cast<size_t>(with_params->eval)].result));
    else c_.params->push_null();
  }

  const EventStore& s_;
  const ModeledOps& ops_;
  const ProcessThreadNames& names_;
  const PerfSheetOptions& options_;
  const std::vector<Row>& rows_;
  const std::vector<uint32_t>& kernels_;
  const RowGroups& groups_;
  RooflineCache& rooflines_;
  bool roofline_;
  const UnifiedColumns& c_;
};

// A column exists when some row has its value, as in TraceLens's DataFrame built from
// per-row dicts: no metric columns when no model worked.
Table without_metric_columns(const Table& t) {
  Table out(t.name(), t.kind());
  for (size_t c = 0; c < t.num_columns(); ++c) {
    const std::string& n = t.column(c).name();
    if (n == "GFLOPS" || n == "Data Moved (MB)" || n == "FLOPS/Byte" || n == "Compute Spec" ||
        n.starts_with("TB/s_") || n.starts_with("TFLOPS/s_"))
      continue;
    out.add_column(n, t.column(c).type()) = t.column(c);
  }
  return out;
}

}  // namespace

Table unified_perf_summary_table(const EventStore& s, const TraceTree& tree, const LauncherTable& launchers,
                                 const ModeledOps& ops, const PerfSheetOptions& options) {
  return unified_perf_summary_table(s, tree, launchers, ProcessThreadNames(s), ops, options);
}

Table unified_perf_summary_table(const EventStore& s, const TraceTree& tree, const LauncherTable& launchers,
                                 const ProcessThreadNames& names, const ModeledOps& ops,
                                 const PerfSheetOptions& options) {
  RowCollector collected(s, tree, launchers, ops);
  for (const UnifiedOp& op : collect_unified_ops(s, tree, ops)) collected.add_collected(op);
  collected.add_synthetic();
  const std::vector<Row>& rows = collected.rows;

  const RowGroups groups = group_rows(s, rows, names, ops.args, options);
  std::vector<double> sums(groups.groups.size());
  std::vector<uint32_t> ex_uids(groups.groups.size());
  for (size_t g = 0; g < groups.groups.size(); ++g) {
    sums[g] = stats::pandas_sum(kernel_times(rows, groups.groups[g]));
    ex_uids[g] = rows[groups.groups[g].front()].uid;
  }
  const std::vector<size_t> order = stats::argsort_sum_desc_ex_uid_asc(sums, ex_uids);

  // No roofline columns when no op got a roofline.
  RooflineCache rooflines(ops, options);
  bool metrics_present = false, roofline = false;
  for (const Row& r : rows) {
    if (r.eval < 0) continue;
    metrics_present = true;
    if (options.device && rooflines.of(r).has) roofline = true;
  }
  Table t("unified_perf_summary", TableKind::kUnifiedPerf);
  UnifiedColumns columns;
  ColumnAdder adder(t);
  add_key_and_mean_columns(adder, roofline, options.recompute != nullptr, columns);
  add_spread_and_detail_columns(adder, roofline, columns);
  GroupWriter writer(s, ops, names, options, collected, groups, rooflines, roofline, columns);
  std::vector<double> ordered_sums;  // Percentage (%) of Kernel Time (µs)_sum and its running sum
  for (size_t g : order) {
    writer.write(groups.groups[g], sums[g]);
    ordered_sums.push_back(sums[g]);
  }
  add_percentage_columns(t, ordered_sums);
  return metrics_present ? t : without_metric_columns(t);
}

}  // namespace sollens
