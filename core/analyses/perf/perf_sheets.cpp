#include "analyses/perf/perf_sheets.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <numeric>
#include <unordered_map>

#include "analyses/ops/kernel_details.h"
#include "analyses/ops/kernel_launchers.h"
#include "analyses/ops/process_names.h"
#include "analyses/ops/stats.h"
#include "analyses/perf/model_registry.h"
#include "writers/number_format.h"

namespace sollens {

using perf::Count;
using perf::Metrics;
using perf::ModelResult;
using perf::PyValue;
using perf::Status;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::string_view kBwdPrefix = "autograd::engine::evaluate_function:";

// One row of a perf sheet before grouping.
struct Row {
  uint32_t uid;            // UID shown (the forward op for bwd rows)
  const ModelResult* model;
  const Metrics* metrics;
  double kernel_us;
  std::vector<uint32_t> kernels;  // the (bwd) subtree's GPU events, by ts
};

// Per-event numbers (§6.1).
struct RowMetrics {
  double gflops = kNaN, mb = kNaN, flops_per_byte = kNaN, tbs = kNaN, tflops = kNaN;
};

RowMetrics metrics_of(const Count& flops, std::optional<Count> bytes, double t_us) {
  RowMetrics m;
  m.gflops = flops.value() / 1e9;
  m.tflops = t_us == 0 ? kNaN : (m.gflops / 1e3) / (t_us / 1e6);
  if (bytes) {
    const double b = bytes->value();
    m.mb = b / (1024 * 1024);
    m.flops_per_byte = b == 0 ? kNaN : (m.gflops * 1e9) / b;
    m.tbs = t_us == 0 ? kNaN : (b / 1e12) / (t_us / 1e6);
  }
  return m;
}

RowMetrics corrected_metrics_of(const Metrics& mt, double t_us) {
  const Count flops = mt.flops_corrected ? *mt.flops_corrected : mt.flops;
  std::optional<Count> bytes = mt.bytes_corrected ? mt.bytes_corrected : mt.bytes;
  if (mt.bytes_corrected_is_none) bytes.reset();
  return metrics_of(flops, bytes, t_us);
}

bool has_correction(const Metrics& m) {
  return m.flops_corrected || m.bytes_corrected || m.bytes_corrected_is_none;
}

struct Agg {
  double mean = kNaN, median = kNaN, std = kNaN, min = kNaN, max = kNaN;
};

// pandas groupby aggregations: NaN skipped; std ddof = 1.
Agg aggregate(const std::vector<double>& all) {
  std::vector<double> v;
  for (double x : all)
    if (!std::isnan(x)) v.push_back(x);
  Agg a;
  if (v.empty()) return a;
  a.mean = stats::pandas_mean(v);
  a.median = stats::median(v);
  if (auto sd = stats::pandas_std(v)) a.std = *sd;
  a.min = *std::min_element(v.begin(), v.end());
  a.max = *std::max_element(v.begin(), v.end());
  return a;
}

void push_float(Column& c, double v) {
  if (std::isnan(v)) c.push_null();
  else c.push_float(v);
}

double first_valid(const std::vector<double>& v) {
  for (double x : v)
    if (!std::isnan(x)) return x;
  return kNaN;
}

// pandas' dtype of one param column built from the rows' dicts, and each cell's str().
std::vector<std::string> param_cells(const std::vector<Row>& rows, const std::string& key) {
  bool all_int = true, all_num = true, missing = false;
  std::vector<const PyValue*> values;
  for (const Row& r : rows) {
    const PyValue* v = r.model->find_param(key);
    values.push_back(v);
    if (!v) {
      missing = true;
      continue;
    }
    if (v->kind != PyValue::Kind::kInt) all_int = false;
    if (v->kind != PyValue::Kind::kInt && v->kind != PyValue::Kind::kFloat) all_num = false;
  }
  const bool as_float = all_num && (!all_int || missing);
  std::vector<std::string> out;
  for (const PyValue* v : values) {
    if (!v) out.push_back("nan");
    else if (as_float) out.push_back(format_python_float(v->kind == PyValue::Kind::kInt ? static_cast<double>(v->i) : v->f));
    else out.push_back(perf::str(*v));
  }
  return out;
}

std::optional<std::string> list_repr(const PyValue& v) {
  if (v.is_none()) return std::nullopt;
  return perf::repr(v);
}

Table build_sheet(const std::string& sheet, const std::vector<Row>& rows, const EventStore& s,
                  const ProcessThreadNames& names, std::vector<perf::EventArgs>& args_of_row,
                  const PerfSheetOptions& options) {
  // Param columns in first-seen key order.
  std::vector<std::string> keys;
  for (const Row& r : rows)
    for (const auto& [k, v] : r.model->params)
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  std::vector<std::vector<std::string>> cells;
  for (const auto& k : keys) cells.push_back(param_cells(rows, k));

  // Groups by name + param strings, in first-seen order.
  std::vector<std::vector<size_t>> groups;
  std::unordered_map<std::string, size_t> index;
  for (size_t i = 0; i < rows.size(); ++i) {
    std::string key(s.name_of(rows[i].uid));
    for (const auto& c : cells) {
      key += '\x1f';
      key += c[i];
    }
    auto [it, inserted] = index.try_emplace(key, groups.size());
    if (inserted) groups.emplace_back();
    groups[it->second].push_back(i);
  }
  bool any_correction = false;
  for (const Row& r : rows) any_correction |= has_correction(*r.metrics);

  struct G {
    std::vector<size_t> rows;
    double sum = 0;
  };
  std::vector<G> gs;
  for (auto& g : groups) {
    std::vector<double> t;
    for (size_t i : g) t.push_back(rows[i].kernel_us);
    gs.push_back({g, stats::pandas_sum(t)});
  }
  std::vector<size_t> order(gs.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (gs[a].sum != gs[b].sum) return gs[a].sum > gs[b].sum;
    return rows[gs[a].rows.front()].uid < rows[gs[b].rows.front()].uid;
  });

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
  Column& summary = t.add_column("kernel_details__summarize_kernel_stats", ColumnType::kString);
  Column& trunc = t.add_column("trunc_kernel_details", ColumnType::kString);
  Column& dims = t.add_column("Input Dims_first", ColumnType::kString);
  Column& types = t.add_column("Input type_first", ColumnType::kString);
  Column& strides = t.add_column("Input Strides_first", ColumnType::kString);
  Column& concrete = t.add_column("Concrete Inputs_first", ColumnType::kString);
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

  for (size_t gi : order) {
    const auto& g = gs[gi].rows;
    const Row& first = rows[g.front()];
    name.push_string(s.name_of(first.uid));
    for (size_t k = 0; k < keys.size(); ++k) pcols[k]->push_string(cells[k][g.front()]);
    std::vector<RowMetrics> main, other;
    for (size_t i : g) {
      const Row& r = rows[i];
      const RowMetrics tl = metrics_of(r.metrics->flops, r.metrics->bytes, r.kernel_us);
      const RowMetrics fixed = corrected_metrics_of(*r.metrics, r.kernel_us);
      main.push_back(options.corrected ? fixed : tl);
      other.push_back(options.corrected ? tl : fixed);
    }
    auto col = [](const std::vector<RowMetrics>& v, double RowMetrics::*f) {
      std::vector<double> out;
      for (const auto& m : v) out.push_back(m.*f);
      return out;
    };
    push_float(gflops, first_valid(col(main, &RowMetrics::gflops)));
    push_float(mb, first_valid(col(main, &RowMetrics::mb)));
    push_float(fpb, first_valid(col(main, &RowMetrics::flops_per_byte)));
    for (auto [cols, field] : {std::pair{tbs, &RowMetrics::tbs}, {tfl, &RowMetrics::tflops}}) {
      const Agg a = aggregate(col(main, field));
      const double vals[] = {a.mean, a.median, a.std, a.min, a.max};
      for (int k = 0; k < 5; ++k) push_float(*cols[k], vals[k]);
    }
    const uint32_t e = first.uid;
    pname.push_string(names.process_name(s.pid[e]));
    plabel.push_string(names.process_label(s.pid[e]));
    tname.push_string(names.thread_name(s.pid[e], s.tid[e]));
    spec.push_string(perf::compute_spec(*first.model));
    std::vector<std::span<const uint32_t>> lists;
    for (size_t i : g) lists.emplace_back(rows[i].kernels);
    const auto kstats = summarize_kernel_stats(s, lists);
    summary.push_string(kernel_details_summary_repr(kstats));
    if (auto tr = trunc_kernel_details_repr(kstats)) trunc.push_string(*tr);
    else trunc.push_null();
    // _first: the first non-null value of the group.
    auto first_of = [&](PyValue perf::EventArgs::*field, Column& c) {
      for (size_t i : g)
        if (auto v = list_repr(args_of_row[i].*field)) {
          c.push_string(*v);
          return;
        }
      c.push_null();
    };
    first_of(&perf::EventArgs::dims, dims);
    first_of(&perf::EventArgs::types, types);
    first_of(&perf::EventArgs::strides, strides);
    first_of(&perf::EventArgs::concrete, concrete);
    std::vector<double> times;
    for (size_t i : g) times.push_back(rows[i].kernel_us);
    const Agg a = aggregate(times);
    const double kvals[] = {a.mean, a.median, a.std, a.min, a.max, gs[gi].sum};
    for (int k = 0; k < 6; ++k) push_float(*kt[k], kvals[k]);
    count.push_int(static_cast<int64_t>(g.size()));
    uid.push_int(first.uid);
    if (any_correction) {
      push_float(*extra[0], first_valid(col(other, &RowMetrics::gflops)));
      push_float(*extra[1], first_valid(col(other, &RowMetrics::mb)));
      push_float(*extra[2], first_valid(col(other, &RowMetrics::flops_per_byte)));
      push_float(*extra[3], aggregate(col(other, &RowMetrics::tflops)).mean);
      push_float(*extra[4], aggregate(col(other, &RowMetrics::tbs)).mean);
    }
  }
  return t;
}

std::vector<uint32_t> sorted_subtree_kernels(const EventStore& s, const TraceTree& tree, uint32_t e) {
  std::vector<uint32_t> k = subtree_gpu_events(s, tree, e);
  std::sort(k.begin(), k.end());
  k.erase(std::unique(k.begin(), k.end()), k.end());
  std::stable_sort(k.begin(), k.end(), [&](uint32_t a, uint32_t b) { return s.ts[a] < s.ts[b]; });
  return k;
}

}  // namespace

std::vector<int32_t> linked_backward_events(const EventStore& s) {
  std::unordered_map<int64_t, std::vector<uint32_t>> by_seq;
  for (uint32_t e = 0; e < s.size(); ++e)
    if (s.sequence_number[e] != kNoValue && s.category[e] == Category::kCpuOp) by_seq[s.sequence_number[e]].push_back(e);
  std::vector<int32_t> count(s.size(), 0), link(s.size(), -1);
  for (const auto& [seq, events] : by_seq) {
    for (uint32_t b : events) {
      if (!s.name_of(b).starts_with(kBwdPrefix)) continue;
      int64_t best = -1;
      for (uint32_t f : events) {
        if (s.pid[f] == s.pid[b] && s.tid[f] == s.tid[b]) continue;
        if (best < 0 || s.ts[f] > s.ts[static_cast<size_t>(best)]) best = f;
      }
      if (best < 0) continue;
      ++count[static_cast<size_t>(best)];
      link[static_cast<size_t>(best)] = static_cast<int32_t>(b);
    }
  }
  for (size_t e = 0; e < s.size(); ++e)
    if (count[e] != 1) link[e] = -1;
  return link;
}

std::vector<Table> perf_model_tables(const EventStore& s, const TraceTree& tree, const PerfSheetOptions& options) {
  const ProcessThreadNames names(s);
  const std::vector<int32_t> bwd_link = linked_backward_events(s);
  std::deque<ModelResult> results;
  // sheet name -> rows (and the args of each row's labelled event)
  std::map<std::string, std::vector<Row>> sheets;
  std::map<std::string, std::vector<perf::EventArgs>> sheet_args;
  std::vector<std::string_view> kernel_names;
  for (uint32_t e = 0; e < s.size(); ++e) {
    if (!tree.in_tree[e] || s.category[e] != Category::kCpuOp) continue;
    const perf::PerfModelEntry* entry = perf::find_perf_model(s.name_of(e));
    if (!entry) continue;
    perf::EventArgs args = perf::read_event_args(s, e);
    std::vector<uint32_t> kernels = sorted_subtree_kernels(s, tree, e);
    kernel_names.clear();
    for (uint32_t k : kernels) kernel_names.push_back(s.name_of(k));
    results.push_back(perf::evaluate(entry->model, {s.name_of(e), args, kernel_names}));
    const ModelResult& r = results.back();
    if (r.status != Status::kOk) continue;
    const bool single = perf::is_single_table_family(entry->family);
    if (r.fwd.status == Status::kOk) {
      const std::string sheet = single ? std::string(entry->family)
                                       : std::string(entry->family) + (entry->is_bwd_model ? "_bwd" : "_fwd");
      const double t = busy_time_us(s, kernels);
      sheets[sheet].push_back({e, &r, &r.fwd, t, std::move(kernels)});
      sheet_args[sheet].push_back(args);
    }
    // bwd rows: the forward op's 1:1-linked backward subtree (conv: only the
    // convolution_backward ops themselves, §4.7).
    if (!single && !entry->is_bwd_model && entry->family != "CONV" && bwd_link[e] >= 0 &&
        r.bwd.status == Status::kOk) {
      const std::string sheet = std::string(entry->family) + "_bwd";
      std::vector<uint32_t> bk = sorted_subtree_kernels(s, tree, static_cast<uint32_t>(bwd_link[e]));
      const double t = busy_time_us(s, bk);
      sheets[sheet].push_back({e, &r, &r.bwd, t, std::move(bk)});
      sheet_args[sheet].push_back(std::move(args));
    }
  }
  std::vector<Table> out;
  for (const char* name : {"GEMM", "SDPA_fwd", "SDPA_bwd", "CONV_fwd", "CONV_bwd", "UnaryElementwise",
                           "BinaryElementwise", "Normalization", "Reduce_fwd", "Reduce_bwd"}) {
    auto it = sheets.find(name);
    if (it == sheets.end() || it->second.empty()) continue;
    out.push_back(build_sheet(name, it->second, s, names, sheet_args[name], options));
  }
  return out;
}

}  // namespace sollens
