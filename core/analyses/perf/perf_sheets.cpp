#include "analyses/perf/perf_sheets.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <unordered_map>

#include "analyses/ops/kernel_details.h"
#include "analyses/ops/process_names.h"
#include "base/stats.h"
#include "analyses/perf/perf_metrics.h"
#include "base/number_format.h"

namespace sollens {

using perf::PyValue;

namespace {

// The sheet's rows share few distinct evaluations: everything that depends only on the
// evaluation (param cells, group key, roofline) is computed once per evaluation.
struct SheetEval {
  std::vector<std::string> cells;  // one per param key
  uint32_t group_key = 0;          // equal for equal (name, param cells)
  OpRoofline roofline;
};

// pandas' dtype of one param column built from the rows' dicts: ints stay ints unless a
// row lacks the key or holds a float; then every cell prints as a float.
bool param_column_is_float(const std::vector<const perf::ModelResult*>& results, const std::string& key) {
  bool all_int = true, all_num = true, missing = false;
  for (const perf::ModelResult* r : results) {
    const PyValue* v = r->find_param(key);
    if (!v) {
      missing = true;
      continue;
    }
    if (v->kind != PyValue::Kind::kInt) all_int = false;
    if (v->kind != PyValue::Kind::kInt && v->kind != PyValue::Kind::kFloat) all_num = false;
  }
  return all_num && (!all_int || missing);
}

std::string param_cell(const perf::ModelResult& r, const std::string& key, bool as_float) {
  const PyValue* v = r.find_param(key);
  if (!v) return "nan";
  if (as_float) return format_python_float(v->kind == PyValue::Kind::kInt ? static_cast<double>(v->i) : v->f);
  return perf::str(*v);
}

Table build_sheet(const std::string& sheet, const std::vector<const PerfRow*>& rows, const EventStore& s,
                  const ModeledOps& ops, const ProcessThreadNames& names, const PerfSheetOptions& options) {
  // Distinct evaluations in first-seen order; param columns in first-seen key order.
  std::unordered_map<uint32_t, uint32_t> local_of_eval;
  std::vector<uint32_t> evals;
  std::vector<uint32_t> local_of_row(rows.size());
  std::vector<uint8_t> eval_is_bwd;
  std::vector<uint32_t> eval_event;  // an event of that evaluation (for its name)
  for (size_t i = 0; i < rows.size(); ++i) {
    auto [it, inserted] = local_of_eval.try_emplace(rows[i]->eval, static_cast<uint32_t>(evals.size()));
    if (inserted) {
      evals.push_back(rows[i]->eval);
      eval_is_bwd.push_back(rows[i]->bwd);
      eval_event.push_back(rows[i]->event);
    }
    local_of_row[i] = it->second;
  }
  std::vector<const perf::ModelResult*> results;
  std::vector<std::string> keys;
  for (uint32_t e : evals) {
    results.push_back(&ops.evals[e].result);
    for (const auto& [k, v] : ops.evals[e].result.params)
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  }
  std::vector<SheetEval> sheet_evals(evals.size());
  std::unordered_map<std::string, uint32_t> group_key_index;
  for (size_t k = 0; k < keys.size(); ++k) {
    const bool as_float = param_column_is_float(results, keys[k]);
    for (size_t i = 0; i < evals.size(); ++i) sheet_evals[i].cells.push_back(param_cell(*results[i], keys[k], as_float));
  }
  // A sheet holds fwd or bwd rows of one evaluation, never both (bwd sheets are separate).
  for (size_t i = 0; i < evals.size(); ++i) {
    const ModelEval& ev = ops.evals[evals[i]];
    std::string key(s.name_of(eval_event[i]));
    for (const auto& c : sheet_evals[i].cells) {
      key += '\x1f';
      key += c;
    }
    sheet_evals[i].group_key =
        group_key_index.try_emplace(std::move(key), static_cast<uint32_t>(group_key_index.size())).first->second;
    const perf::Metrics& m = eval_is_bwd[i] ? ev.result.bwd : ev.result.fwd;
    sheet_evals[i].roofline = op_roofline(m, options.corrected, ev.compute_spec, options.device);
  }

  // Groups by name + param strings, in first-seen order.
  std::vector<std::vector<size_t>> groups;
  std::vector<int32_t> group_of_key(group_key_index.size(), -1);
  for (size_t i = 0; i < rows.size(); ++i) {
    int32_t& g = group_of_key[sheet_evals[local_of_row[i]].group_key];
    if (g < 0) {
      g = static_cast<int32_t>(groups.size());
      groups.emplace_back();
    }
    groups[static_cast<size_t>(g)].push_back(i);
  }
  bool any_correction = false;
  for (uint32_t e = 0; e < evals.size(); ++e)
    any_correction |= has_correction(eval_is_bwd[e] ? results[e]->bwd : results[e]->fwd);

  std::vector<double> sums(groups.size());
  std::vector<double> times;
  for (size_t g = 0; g < groups.size(); ++g) {
    times.clear();
    for (size_t i : groups[g]) times.push_back(rows[i]->kernel_us);
    sums[g] = stats::pandas_sum(times);
  }
  std::vector<size_t> order(groups.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (sums[a] != sums[b]) return sums[a] > sums[b];
    return rows[groups[a].front()]->event < rows[groups[b].front()]->event;
  });

  // Roofline columns when some row has a roofline (TraceLens's DataFrame gets the
  // columns from the rows that carry them).
  bool roofline = false;
  for (const SheetEval& se : sheet_evals) roofline |= se.roofline.has;
  Table t(sheet);
  Column& name = t.add_column("name", ColumnType::kString);
  std::vector<Column*> pcols;
  for (const auto& k : keys) pcols.push_back(&t.add_column("param: " + k, ColumnType::kString));
  Column& gflops = t.add_column("GFLOPS_first", ColumnType::kFloat);
  Column& mb = t.add_column("Data Moved (MB)_first", ColumnType::kFloat);
  Column& fpb = t.add_column("FLOPS/Byte_first", ColumnType::kFloat);
  const char* kAgg[] = {"mean", "median", "std", "min", "max"};
  Column* tbs[5];
  Column* tfl[5];
  for (int k = 0; k < 5; ++k) tbs[k] = &t.add_column(std::string("TB/s_") + kAgg[k], ColumnType::kFloat);
  for (int k = 0; k < 5; ++k) tfl[k] = &t.add_column(std::string("TFLOPS/s_") + kAgg[k], ColumnType::kFloat);
  Column& pname = t.add_column("process_name_first", ColumnType::kString);
  Column& plabel = t.add_column("process_label_first", ColumnType::kString);
  Column& tname = t.add_column("thread_name_first", ColumnType::kString);
  Column& spec = t.add_column("Compute Spec", ColumnType::kString);
  Column* roof_time = nullptr;
  Column* roof_bound = nullptr;
  Column* roof_pct[5] = {};
  if (roofline) {
    roof_time = &t.add_column("Roofline Time (µs)_first", ColumnType::kFloat);
    roof_bound = &t.add_column("Roofline Bound_first", ColumnType::kString);
    for (int k = 0; k < 5; ++k) roof_pct[k] = &t.add_column(std::string("Pct Roofline_") + kAgg[k], ColumnType::kFloat);
  }
  Column& summary = t.add_column("kernel_details__summarize_kernel_stats", ColumnType::kString);
  Column& trunc = t.add_column("trunc_kernel_details", ColumnType::kString);
  Column* inputs[4];
  const char* kInputs[] = {"Input Dims_first", "Input type_first", "Input Strides_first", "Concrete Inputs_first"};
  for (int k = 0; k < 4; ++k) inputs[k] = &t.add_column(kInputs[k], ColumnType::kString);
  Column* kt[6];
  const char* kKt[] = {"mean", "median", "std", "min", "max", "sum"};
  for (int k = 0; k < 6; ++k) kt[k] = &t.add_column(std::string("Kernel Time (µs)_") + kKt[k], ColumnType::kFloat);
  Column& count = t.add_column("name_count", ColumnType::kInt);
  Column& uid = t.add_column("UID_first", ColumnType::kInt);
  Column* extra[5] = {};
  if (any_correction) {
    const char* suffix = options.corrected ? " (TraceLens)" : " (corrected)";
    const char* kExtra[] = {"GFLOPS_first", "Data Moved (MB)_first", "FLOPS/Byte_first", "TFLOPS/s_mean", "TB/s_mean"};
    for (int k = 0; k < 5; ++k) extra[k] = &t.add_column(std::string(kExtra[k]) + suffix, ColumnType::kFloat);
  }

  std::vector<OpMetrics> main, other;
  std::vector<double> col;
  std::vector<std::span<const uint32_t>> lists;
  auto field = [&](const std::vector<OpMetrics>& v, double OpMetrics::*f) -> const std::vector<double>& {
    col.clear();
    for (const auto& m : v) col.push_back(m.*f);
    return col;
  };
  for (size_t gi : order) {
    const auto& g = groups[gi];
    const PerfRow& first = *rows[g.front()];
    const SheetEval& first_eval = sheet_evals[local_of_row[g.front()]];
    name.push_string(s.name_of(first.event));
    for (size_t k = 0; k < keys.size(); ++k) pcols[k]->push_string(first_eval.cells[k]);
    main.clear();
    other.clear();
    for (size_t i : g) {
      const PerfRow& r = *rows[i];
      main.push_back(op_metrics(ops.metrics_of(r), options.corrected, r.kernel_us));
      if (any_correction) other.push_back(op_metrics(ops.metrics_of(r), !options.corrected, r.kernel_us));
    }
    push_float_or_null(gflops, first_valid(field(main, &OpMetrics::gflops)));
    push_float_or_null(mb, first_valid(field(main, &OpMetrics::mb)));
    push_float_or_null(fpb, first_valid(field(main, &OpMetrics::flops_per_byte)));
    for (auto [cols, f] : {std::pair{tbs, &OpMetrics::tbs}, {tfl, &OpMetrics::tflops}}) {
      const Agg a = aggregate(field(main, f));
      const double vals[] = {a.mean, a.median, a.std, a.min, a.max};
      for (int k = 0; k < 5; ++k) push_float_or_null(*cols[k], vals[k]);
    }
    const uint32_t e = first.event;
    pname.push_string(names.process_name(s.pid[e]));
    plabel.push_string(names.process_label(s.pid[e]));
    tname.push_string(names.thread_name(s.pid[e], s.tid[e]));
    spec.push_string(ops.evals[first.eval].compute_spec);
    if (roofline) {
      // _first: the first row with a value.
      double time = kPerfNaN;
      RooflineBound bound = RooflineBound::kNone;
      col.clear();
      for (size_t i : g) {
        const OpRoofline& rl = sheet_evals[local_of_row[i]].roofline;
        if (rl.has && std::isnan(time)) time = rl.time_us, bound = rl.bound;
        col.push_back(rl.pct(rows[i]->kernel_us));
      }
      push_float_or_null(*roof_time, time);
      if (bound == RooflineBound::kNone) roof_bound->push_null();
      else roof_bound->push_string(roofline_bound_name(bound));
      const Agg a = aggregate(col);
      const double vals[] = {a.mean, a.median, a.std, a.min, a.max};
      for (int k = 0; k < 5; ++k) push_float_or_null(*roof_pct[k], vals[k]);
    }
    lists.clear();
    for (size_t i : g) lists.push_back(ops.kernels_of(*rows[i]));
    const auto kstats = summarize_kernel_stats(s, lists);
    summary.push_string(kernel_details_summary_repr(kstats));
    if (auto tr = trunc_kernel_details_repr(kstats)) trunc.push_string(*tr);
    else trunc.push_null();
    // _first: the first non-null value of the group.
    for (int k = 0; k < 4; ++k) {
      const std::optional<std::string>* v = nullptr;
      for (size_t i : g)
        if (const auto& text = ops.args[ops.evals[rows[i]->eval].args].list_text[k]) {
          v = &text;
          break;
        }
      if (v) inputs[k]->push_string(**v);
      else inputs[k]->push_null();
    }
    col.clear();
    for (size_t i : g) col.push_back(rows[i]->kernel_us);
    const Agg a = aggregate(col);
    const double kvals[] = {a.mean, a.median, a.std, a.min, a.max, sums[gi]};
    for (int k = 0; k < 6; ++k) push_float_or_null(*kt[k], kvals[k]);
    count.push_int(static_cast<int64_t>(g.size()));
    uid.push_int(first.event);
    if (any_correction) {
      push_float_or_null(*extra[0], first_valid(field(other, &OpMetrics::gflops)));
      push_float_or_null(*extra[1], first_valid(field(other, &OpMetrics::mb)));
      push_float_or_null(*extra[2], first_valid(field(other, &OpMetrics::flops_per_byte)));
      push_float_or_null(*extra[3], aggregate(field(other, &OpMetrics::tflops)).mean);
      push_float_or_null(*extra[4], aggregate(field(other, &OpMetrics::tbs)).mean);
    }
  }
  return t;
}

}  // namespace

std::vector<Table> perf_model_tables(const EventStore& s, const ModeledOps& ops, const PerfSheetOptions& options) {
  const ProcessThreadNames names(s);
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
