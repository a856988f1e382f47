#include "analyses/perf/perf_sheets.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>
#include <unordered_map>

#include "analyses/ops/kernel_details.h"
#include "analyses/ops/process_names.h"
#include "base/stats.h"
#include "analyses/perf/perf_metrics.h"
#include "base/number_format.h"

namespace sollens {


namespace {

// The sheet's rows share few distinct evaluations: everything that depends only on the
// evaluation (param cells, group key, roofline) is computed once per evaluation.
struct SheetEval {
  std::vector<std::string> cells;  // one per param key
  uint32_t group_key = 0;          // equal for equal (name, param cells)
  OpRoofline roofline;
};

// pandas' dtype of one param column built from the rows' dicts: ints stay ints unless a
// row lacks the key, holds None or holds a float; then (when every value is a number or
// None) the column is float64 and every cell prints as a float, None and missing as nan.
bool param_column_is_float(const std::vector<const perf::ModelResult*>& results, const std::string& key) {
  bool all_int = true, all_num = true, any_num = false, gaps = false;
  for (const perf::ModelResult* r : results) {
    const PyValue* v = r->find_param(key);
    if (!v || v->is_none()) {
      gaps = true;
      continue;
    }
    any_num = any_num || v->kind == PyValue::Kind::kInt || v->kind == PyValue::Kind::kFloat;
    if (v->kind != PyValue::Kind::kInt) all_int = false;
    if (v->kind != PyValue::Kind::kInt && v->kind != PyValue::Kind::kFloat) all_num = false;
  }
  return any_num && all_num && (!all_int || gaps);
}

std::string param_cell(const perf::ModelResult& r, const std::string& key, bool as_float) {
  const PyValue* v = r.find_param(key);
  if (!v || (as_float && v->is_none())) return "nan";
  if (as_float) return format_python_float(v->kind == PyValue::Kind::kInt ? static_cast<double>(v->i) : v->f);
  return str(*v);
}

// A sheet's distinct evaluations in first-seen order, with the rows mapped onto them.
struct SheetEvals {
  std::vector<uint32_t> evals;         // into ops.evals
  std::vector<uint8_t> is_bwd;         // a sheet holds fwd or bwd rows of one evaluation, never both
  std::vector<uint32_t> event;         // an event of that evaluation (for its name)
  std::vector<uint32_t> local_of_row;  // per row: index into evals
  std::vector<const perf::ModelResult*> results;
  std::vector<std::string> keys;  // param columns, in first-seen key order
  std::vector<SheetEval> sheet;
  size_t group_keys = 0;
  bool any_correction = false;  // the "… (corrected)" / "… (TraceLens)" columns exist
  bool any_roofline = false;    // TraceLens's DataFrame gets the columns from the rows that carry them

  const perf::Metrics& metrics(size_t i) const { return is_bwd[i] ? results[i]->bwd : results[i]->fwd; }
};

SheetEvals distinct_evals(const std::vector<const PerfRow*>& rows, const ModeledOps& ops) {
  SheetEvals se;
  std::unordered_map<uint32_t, uint32_t> local_of_eval;
  se.local_of_row.resize(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    auto [it, inserted] = local_of_eval.try_emplace(rows[i]->eval, static_cast<uint32_t>(se.evals.size()));
    if (inserted) {
      se.evals.push_back(rows[i]->eval);
      se.is_bwd.push_back(rows[i]->bwd);
      se.event.push_back(rows[i]->event);
    }
    se.local_of_row[i] = it->second;
  }
  for (uint32_t e : se.evals) {
    se.results.push_back(&ops.evals[e].result);
    for (const auto& [k, v] : ops.evals[e].result.params)
      if (std::find(se.keys.begin(), se.keys.end(), k) == se.keys.end()) se.keys.push_back(k);
  }
  return se;
}

void fill_param_cells(SheetEvals& se) {
  se.sheet.resize(se.evals.size());
  for (const std::string& key : se.keys) {
    const bool as_float = param_column_is_float(se.results, key);
    for (size_t i = 0; i < se.evals.size(); ++i) se.sheet[i].cells.push_back(param_cell(*se.results[i], key, as_float));
  }
}

// Group keys (name + param cells), rooflines and the optional-column flags.
void fill_group_keys_and_rooflines(SheetEvals& se, const EventStore& s, const ModeledOps& ops,
                                   const PerfSheetOptions& options) {
  std::unordered_map<std::string, uint32_t> group_key_index;
  for (size_t i = 0; i < se.evals.size(); ++i) {
    const ModelEval& ev = ops.evals[se.evals[i]];
    std::string key(s.name_of(se.event[i]));
    for (const auto& c : se.sheet[i].cells) {
      key += '\x1f';
      key += c;
    }
    se.sheet[i].group_key =
        group_key_index.try_emplace(std::move(key), static_cast<uint32_t>(group_key_index.size())).first->second;
    se.sheet[i].roofline = op_roofline(se.metrics(i), options.corrected, ev.compute_spec, options.device);
    se.any_correction |= has_correction(se.metrics(i));
    se.any_roofline |= se.sheet[i].roofline.has;
  }
  se.group_keys = group_key_index.size();
}

bool row_is_recompute(const PerfRow& row, const PerfSheetOptions& options) {
  return options.recompute && (*options.recompute)[row.event] != 0;
}

// The kernel count a row is grouped by: 0 for every row unless asked for.
size_t row_num_kernels(const PerfRow& row, const ModeledOps& ops, const PerfSheetOptions& options) {
  return options.group_by_num_kernels ? ops.kernels_of(row).size() : 0;
}

// Rows grouped by name + param strings (and kernel count, recompute flag, when asked), in
// first-seen order.
std::vector<std::vector<size_t>> group_rows(const SheetEvals& se, const std::vector<const PerfRow*>& rows,
                                            const ModeledOps& ops, const PerfSheetOptions& options) {
  std::vector<std::vector<size_t>> groups;
  std::map<std::tuple<uint32_t, size_t, bool>, int32_t> group_of_key;
  for (size_t i = 0; i < se.local_of_row.size(); ++i) {
    const auto key = std::make_tuple(se.sheet[se.local_of_row[i]].group_key, row_num_kernels(*rows[i], ops, options),
                                     row_is_recompute(*rows[i], options));
    int32_t& g = group_of_key.try_emplace(key, -1).first->second;
    if (g < 0) {
      g = static_cast<int32_t>(groups.size());
      groups.emplace_back();
    }
    groups[static_cast<size_t>(g)].push_back(i);
  }
  return groups;
}

std::vector<double> kernel_times(const std::vector<const PerfRow*>& rows, const std::vector<size_t>& group) {
  std::vector<double> times;
  for (size_t i : group) times.push_back(rows[i]->kernel_us);
  return times;
}

// Groups by descending Kernel Time sum, ties by the first row's event.
std::vector<size_t> order_by_kernel_time(const std::vector<const PerfRow*>& rows,
                                         const std::vector<std::vector<size_t>>& groups,
                                         const std::vector<double>& sums) {
  std::vector<size_t> order(groups.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (sums[a] != sums[b]) return sums[a] > sums[b];
    return rows[groups[a].front()]->event < rows[groups[b].front()]->event;
  });
  return order;
}

constexpr const char* kAgg[] = {"mean", "median", "std", "min", "max"};

// The sheet's columns, in TraceLens's order.
struct SheetColumns {
  Column* name = nullptr;
  std::vector<Column*> params;
  Column* num_kernels = nullptr;   // with --group-by-num-kernels
  Column* is_recompute = nullptr;  // with recompute detection
  Column *gflops = nullptr, *mb = nullptr, *fpb = nullptr;
  Column *tbs[5] = {}, *tflops[5] = {};
  Column *process_name = nullptr, *process_label = nullptr, *thread_name = nullptr, *spec = nullptr;
  Column *roof_time = nullptr, *roof_bound = nullptr, *roof_pct[5] = {};  // with a roofline
  Column *summary = nullptr, *trunc = nullptr, *inputs[4] = {};
  Column* kernel_time[6] = {};
  Column *count = nullptr, *uid = nullptr;
  Column* other[5] = {};  // with a correction: the other counts' metrics
};

void add_aggregate_columns(Table& t, const std::string& prefix, Unit unit, Column* (&cols)[5]) {
  for (int k = 0; k < 5; ++k) cols[k] = &t.add_column(prefix + kAgg[k], ColumnType::kFloat, unit);
}

void add_leading_columns(Table& t, const SheetEvals& se, const PerfSheetOptions& options, SheetColumns& c) {
  c.name = &t.add_column("name", ColumnType::kString);
  for (const auto& k : se.keys) c.params.push_back(&t.add_column("param: " + k, ColumnType::kString));
  if (options.group_by_num_kernels) c.num_kernels = &t.add_column("num_kernels", ColumnType::kInt);
  if (options.recompute) c.is_recompute = &t.add_column("is_recompute", ColumnType::kBool);
  c.gflops = &t.add_column("GFLOPS_first", ColumnType::kFloat, Unit::kGflop);
  c.mb = &t.add_column("Data Moved (MB)_first", ColumnType::kFloat, Unit::kMegabytes);
  c.fpb = &t.add_column("FLOPS/Byte_first", ColumnType::kFloat, Unit::kFlopsPerByte);
  add_aggregate_columns(t, "TB/s_", Unit::kTerabytesPerSecond, c.tbs);
  add_aggregate_columns(t, "TFLOPS/s_", Unit::kTflopsPerSecond, c.tflops);
  c.process_name = &t.add_column("process_name_first", ColumnType::kString);
  c.process_label = &t.add_column("process_label_first", ColumnType::kString);
  c.thread_name = &t.add_column("thread_name_first", ColumnType::kString);
  c.spec = &t.add_column("Compute Spec", ColumnType::kString);
  if (se.any_roofline) {
    c.roof_time = &t.add_column("Roofline Time (µs)_first", ColumnType::kFloat, Unit::kMicroseconds);
    c.roof_bound = &t.add_column("Roofline Bound_first", ColumnType::kString);
    add_aggregate_columns(t, "Pct Roofline_", Unit::kPercent, c.roof_pct);
  }
}

void add_trailing_columns(Table& t, const SheetEvals& se, bool corrected, SheetColumns& c) {
  c.summary = &t.add_column("kernel_details__summarize_kernel_stats", ColumnType::kString);
  c.trunc = &t.add_column("trunc_kernel_details", ColumnType::kString);
  const char* kInputs[] = {"Input Dims_first", "Input type_first", "Input Strides_first", "Concrete Inputs_first"};
  for (int k = 0; k < 4; ++k) c.inputs[k] = &t.add_column(kInputs[k], ColumnType::kString);
  const char* kKernelTime[] = {"mean", "median", "std", "min", "max", "sum"};
  for (int k = 0; k < 6; ++k)
    c.kernel_time[k] =
        &t.add_column(std::string("Kernel Time (µs)_") + kKernelTime[k], ColumnType::kFloat, Unit::kMicroseconds);
  c.count = &t.add_column("name_count", ColumnType::kInt);
  c.uid = &t.add_column("UID_first", ColumnType::kInt);
  if (!se.any_correction) return;
  const char* suffix = corrected ? " (TraceLens)" : " (corrected)";
  const char* kOther[] = {"GFLOPS_first", "Data Moved (MB)_first", "FLOPS/Byte_first", "TFLOPS/s_mean", "TB/s_mean"};
  const Unit kOtherUnits[] = {Unit::kGflop, Unit::kMegabytes, Unit::kFlopsPerByte, Unit::kTflopsPerSecond,
                              Unit::kTerabytesPerSecond};
  for (int k = 0; k < 5; ++k)
    c.other[k] = &t.add_column(std::string(kOther[k]) + suffix, ColumnType::kFloat, kOtherUnits[k]);
}

void push_aggregate(Column* const (&cols)[5], const Agg& a) {
  const double values[] = {a.mean, a.median, a.std, a.min, a.max};
  for (int k = 0; k < 5; ++k) push_float_or_null(*cols[k], values[k]);
}

std::vector<double> field(const std::vector<OpMetrics>& metrics, double OpMetrics::*f) {
  std::vector<double> values;
  for (const auto& m : metrics) values.push_back(m.*f);
  return values;
}

// Writes one group's row; every push_* fills the columns of one kind.
class GroupWriter {
 public:
  GroupWriter(const EventStore& s, const ModeledOps& ops, const ProcessThreadNames& names,
              const PerfSheetOptions& options, const std::vector<const PerfRow*>& rows, const SheetEvals& se,
              const SheetColumns& c)
      : s_(s), ops_(ops), names_(names), options_(options), rows_(rows), se_(se), c_(c) {}

  void write(const std::vector<size_t>& group, double kernel_time_sum) {
    const PerfRow& first = *rows_[group.front()];
    c_.name->push_string(s_.name_of(first.event));
    const SheetEval& first_eval = se_.sheet[se_.local_of_row[group.front()]];
    for (size_t k = 0; k < se_.keys.size(); ++k) c_.params[k]->push_string(first_eval.cells[k]);
    if (c_.num_kernels) c_.num_kernels->push_int(static_cast<int64_t>(row_num_kernels(first, ops_, options_)));
    if (c_.is_recompute) c_.is_recompute->push_bool(row_is_recompute(first, options_));
    push_metrics(group);
    push_names(first);
    if (se_.any_roofline) push_roofline(group);
    push_kernel_details(group);
    push_inputs(group);
    push_kernel_times(group, kernel_time_sum);
    c_.count->push_int(static_cast<int64_t>(group.size()));
    c_.uid->push_int(first.event);
    if (se_.any_correction) push_other_counts(group);
  }

 private:
  std::vector<OpMetrics> metrics_of(const std::vector<size_t>& group, bool corrected) const {
    std::vector<OpMetrics> metrics;
    for (size_t i : group) metrics.push_back(op_metrics(ops_.metrics_of(*rows_[i]), corrected, rows_[i]->kernel_us));
    return metrics;
  }

  void push_metrics(const std::vector<size_t>& group) {
    const std::vector<OpMetrics> m = metrics_of(group, options_.corrected);
    push_float_or_null(*c_.gflops, first_valid(field(m, &OpMetrics::gflops)));
    push_float_or_null(*c_.mb, first_valid(field(m, &OpMetrics::mb)));
    push_float_or_null(*c_.fpb, first_valid(field(m, &OpMetrics::flops_per_byte)));
    push_aggregate(c_.tbs, aggregate(field(m, &OpMetrics::tbs)));
    push_aggregate(c_.tflops, aggregate(field(m, &OpMetrics::tflops)));
  }

  void push_names(const PerfRow& first) {
    const uint32_t e = first.event;
    c_.process_name->push_string(names_.process_name(s_.pid[e]));
    c_.process_label->push_string(names_.process_label(s_.pid[e]));
    c_.thread_name->push_string(names_.thread_name(s_.pid[e], s_.tid[e]));
    c_.spec->push_string(ops_.evals[first.eval].compute_spec);
  }

  void push_roofline(const std::vector<size_t>& group) {
    // _first: the first row with a value.
    double time = kPerfNaN;
    RooflineBound bound = RooflineBound::kNone;
    std::vector<double> pct;
    for (size_t i : group) {
      const OpRoofline& rl = se_.sheet[se_.local_of_row[i]].roofline;
      if (rl.has && std::isnan(time)) time = rl.time_us, bound = rl.bound;
      pct.push_back(rl.pct(rows_[i]->kernel_us));
    }
    push_float_or_null(*c_.roof_time, time);
    if (bound == RooflineBound::kNone) c_.roof_bound->push_null();
    else c_.roof_bound->push_string(roofline_bound_name(bound));
    push_aggregate(c_.roof_pct, aggregate(pct));
  }

  void push_kernel_details(const std::vector<size_t>& group) {
    std::vector<std::span<const uint32_t>> lists;
    for (size_t i : group) lists.push_back(ops_.kernels_of(*rows_[i]));
    const auto stats = summarize_kernel_stats(s_, lists);
    c_.summary->push_string(kernel_details_summary_repr(stats));
    if (auto trunc = trunc_kernel_details_repr(stats)) c_.trunc->push_string(*trunc);
    else c_.trunc->push_null();
  }

  // _first: the first non-null value of the group.
  void push_inputs(const std::vector<size_t>& group) {
    for (int k = 0; k < 4; ++k) {
      const std::optional<std::string>* v = nullptr;
      for (size_t i : group)
        if (const auto& text = ops_.args[ops_.evals[rows_[i]->eval].args].list_text[k]) {
          v = &text;
          break;
        }
      if (v) c_.inputs[k]->push_string(**v);
      else c_.inputs[k]->push_null();
    }
  }

  void push_kernel_times(const std::vector<size_t>& group, double sum) {
    const Agg a = aggregate(kernel_times(rows_, group));
    const double values[] = {a.mean, a.median, a.std, a.min, a.max, sum};
    for (int k = 0; k < 6; ++k) push_float_or_null(*c_.kernel_time[k], values[k]);
  }

  void push_other_counts(const std::vector<size_t>& group) {
    const std::vector<OpMetrics> m = metrics_of(group, !options_.corrected);
    push_float_or_null(*c_.other[0], first_valid(field(m, &OpMetrics::gflops)));
    push_float_or_null(*c_.other[1], first_valid(field(m, &OpMetrics::mb)));
    push_float_or_null(*c_.other[2], first_valid(field(m, &OpMetrics::flops_per_byte)));
    push_float_or_null(*c_.other[3], aggregate(field(m, &OpMetrics::tflops)).mean);
    push_float_or_null(*c_.other[4], aggregate(field(m, &OpMetrics::tbs)).mean);
  }

  const EventStore& s_;
  const ModeledOps& ops_;
  const ProcessThreadNames& names_;
  const PerfSheetOptions& options_;
  const std::vector<const PerfRow*>& rows_;
  const SheetEvals& se_;
  const SheetColumns& c_;
};

Table build_sheet(const std::string& sheet, const std::vector<const PerfRow*>& rows, const EventStore& s,
                  const ModeledOps& ops, const ProcessThreadNames& names, const PerfSheetOptions& options) {
  SheetEvals se = distinct_evals(rows, ops);
  fill_param_cells(se);
  fill_group_keys_and_rooflines(se, s, ops, options);
  const std::vector<std::vector<size_t>> groups = group_rows(se, rows, ops, options);
  std::vector<double> sums;
  for (const auto& g : groups) sums.push_back(stats::pandas_sum(kernel_times(rows, g)));

  Table t(sheet, TableKind::kPerfModel);
  SheetColumns columns;
  add_leading_columns(t, se, options, columns);
  add_trailing_columns(t, se, options.corrected, columns);
  GroupWriter writer(s, ops, names, options, rows, se, columns);
  for (size_t g : order_by_kernel_time(rows, groups, sums)) writer.write(groups[g], sums[g]);
  return t;
}

}  // namespace

std::vector<Table> perf_model_tables(const EventStore& s, const ModeledOps& ops, const PerfSheetOptions& options) {
  return perf_model_tables(s, ops, ProcessThreadNames(s), options);
}

std::vector<Table> perf_model_tables(const EventStore& s, const ModeledOps& ops, const ProcessThreadNames& names,
                                     const PerfSheetOptions& options) {
  std::map<std::string, std::vector<const PerfRow*>> sheets;
  for (const PerfRow& r : ops.rows) sheets[perf::perf_sheet_name(*ops.evals[r.eval].entry, r.bwd)].push_back(&r);
  std::vector<Table> out;
  for (const std::string& name : perf::perf_sheet_names()) {
    auto it = sheets.find(name);
    if (it == sheets.end() || it->second.empty()) continue;
    out.push_back(build_sheet(name, it->second, s, ops, names, options));
  }
  return out;
}

std::vector<Table> perf_model_tables(const EventStore& s, const TraceTree& tree, const PerfSheetOptions& options) {
  return perf_model_tables(s, evaluate_modeled_ops(s, tree), options);
}

}  // namespace sollens
