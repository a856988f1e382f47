// sollens diff on real traces. Expected numbers come from the two TraceLens reference
// reports (diff = variant − baseline of their own sheets), from a report compared with
// itself (every change 0), or from op names listed by a short Python scan of the raw
// trace JSON (shown below), never from the code under test.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "analyses/cycles/cycles.h"
#include "analyses/diff/cycle_diff.h"
#include "analyses/diff/op_tree_diff.h"
#include "analyses/diff/ops_name_diff.h"
#include "analyses/diff/report_compare.h"
#include "ingest/report_reader.h"
#include "ingest/trace_reader.h"
#include "model/trace_tree.h"
#include "report/report.h"
#include "support/golden_fixtures.h"
#include "support/reference_csv.h"
#include "writers/report_json.h"

namespace fs = std::filesystem;
using namespace sollens;

namespace {

struct LoadedRun {
  std::unique_ptr<EventStore> store;
  TraceTree tree;
  std::vector<Table> sheets;
};

LoadedRun load_run(const fs::path& trace) {
  LoadedRun run;
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(test::read_text(trace)));
  REQUIRE(r.ok());
  run.store = std::move(r.value());
  run.tree = TraceTree::build(*run.store);
  run.sheets = build_report(*run.store, run.tree).release_sheets();
  return run;
}

fs::path bert(const char* gpu) {
  return test::kTraces / (std::string("tracelens-") + gpu + "-bert-small") / "gaunernst_bert-small-uncased__1016001.json.gz";
}

const Table& sheet(const std::vector<Table>& tables, const std::string& name) {
  for (const Table& t : tables)
    if (t.name() == name) return t;
  FAIL("no sheet " << name);
  return tables.front();
}

// Reference CSV as key → value of one column (keys: the named columns joined by \x1f).
std::map<std::string, double> reference_values(const fs::path& csv, const std::vector<std::string>& keys,
                                               const std::string& column) {
  const test::CsvRows rows = test::read_csv_file(csv.string());
  std::vector<size_t> key_at;
  size_t value_at = 0;
  for (const std::string& k : keys)
    key_at.push_back(std::find(rows[0].begin(), rows[0].end(), k) - rows[0].begin());
  value_at = std::find(rows[0].begin(), rows[0].end(), column) - rows[0].begin();
  REQUIRE(value_at < rows[0].size());
  std::map<std::string, double> out;
  for (size_t r = 1; r < rows.size(); ++r) {
    std::string key;
    for (size_t k : key_at) key += rows[r][k] + "\x1f";
    // A key that repeats (a kernel under two parent ops) pairs each with each: not checked.
    out[key] = out.count(key) ? std::nan("") : std::stod(rows[r][value_at]);
  }
  return out;
}

std::string row_key(const Table& t, const std::vector<std::string>& keys, size_t row) {
  std::string key;
  for (const std::string& k : keys) key += cell_text(*t.find(k), row) + "\x1f";
  return key;
}

// Every row of the compared sheet whose key both reference reports have carries
// diff = variant − baseline and pct = 100 · diff / baseline of the references' values.
size_t check_against_references(const Table& compared, const std::string& ref_sheet,
                                const std::vector<std::string>& keys, const std::string& metric) {
  const auto base = reference_values(bert("h100").parent_path() / "tracelens-report" / (ref_sheet + ".csv"), keys, metric);
  const auto var = reference_values(bert("mi300x").parent_path() / "tracelens-report" / (ref_sheet + ".csv"), keys, metric);
  const Column* diff = compared.find(metric + "__mi300x_diff");
  const Column* pct = compared.find(metric + "__mi300x_pct");
  REQUIRE(diff);
  REQUIRE(pct);
  size_t checked = 0;
  for (size_t r = 0; r < compared.num_rows(); ++r) {
    const std::string key = row_key(compared, keys, r);
    const auto b = base.find(key), v = var.find(key);
    if (b == base.end() || v == var.end() || std::isnan(b->second) || std::isnan(v->second)) continue;
    const double want = v->second - b->second;
    INFO(ref_sheet << " row " << key << " " << metric);
    REQUIRE(cell_number(*diff, r).has_value());
    CHECK(*cell_number(*diff, r) == Approx(want).margin(1e-9).epsilon(1e-6));
    if (b->second != 0) CHECK(*cell_number(*pct, r) == Approx(100 * want / b->second).margin(1e-6).epsilon(1e-6));
    ++checked;
  }
  return checked;
}

}  // namespace

TEST_CASE("H100 vs MI300X bert-small: compare sheets equal the references' differences", "[golden][diff]") {
  const LoadedRun h100 = load_run(bert("h100")), mi300x = load_run(bert("mi300x"));
  const std::vector<Table> compared = compare_reports(h100.sheets, mi300x.sheets, {"h100", "mi300x"});

  const auto data_rows = [](const char* gpu, const char* sheet) {
    return test::read_csv_file((bert(gpu).parent_path() / "tracelens-report" / (std::string(sheet) + ".csv")).string()).size() - 1;
  };
  CHECK(check_against_references(sheet(compared, "gpu_timeline"), "gpu_timeline", {"type"}, "time ms") ==
        data_rows("h100", "gpu_timeline"));
  // ops match across vendors: every op of the H100 run is in the MI300X run's summary.
  const size_t ops = check_against_references(sheet(compared, "ops_summary"), "ops_summary", {"name"},
                                              "total_direct_kernel_time_ms");
  CHECK(ops == data_rows("h100", "ops_summary"));
  check_against_references(sheet(compared, "ops_summary"), "ops_summary", {"name"}, "Count");

  const std::vector<std::string> arg_keys = {"name", "Input type", "Input Dims", "Input Strides", "Concrete Inputs"};
  CHECK(check_against_references(sheet(compared, "unified_perf_summary_intersect_mi300x"), "unified_perf_summary",
                                 arg_keys, "Kernel Time (µs)_sum") > 0);
  CHECK(check_against_references(sheet(compared, "ops_unique_args_intersect_mi300x"), "ops_unique_args", arg_keys,
                                 "total_direct_kernel_time_sum") > 0);
  // Most kernel names differ between vendors (GEMMs: cutlass/sm90 vs Cijk); PyTorch's own
  // native kernels keep their names and are compared.
  CHECK(check_against_references(sheet(compared, "kernel_summary"), "kernel_summary", {"Kernel name"},
                                 "Kernel duration (µs)_sum") > 0);
  const Table& kernels = sheet(compared, "kernel_summary");
  const Column* kdiff = kernels.find("Kernel duration (µs)_sum__mi300x_diff");
  REQUIRE(kdiff);
  size_t unmatched = 0;
  for (size_t r = 0; r < kernels.num_rows(); ++r) unmatched += kdiff->is_null(r);
  CHECK(unmatched > kernels.num_rows() / 2);

  // The split covers every row exactly once and keeps each side's columns only.
  const Table& both = sheet(compared, "GEMM_intersect_mi300x");
  CHECK(both.find("h100::Kernel Time (µs)_sum"));
  CHECK(both.find("mi300x::Kernel Time (µs)_sum"));
  CHECK(both.find("mi300x::GFLOPS_first") == nullptr);  // per-shape constants from the baseline only
  const Table& only_base = sheet(compared, "GEMM_only_baseline_mi300x");
  for (size_t c = 0; c < only_base.num_columns(); ++c)
    CHECK_FALSE(only_base.column(c).name().starts_with("mi300x::"));
  const auto gemm_rows = [&](const char* gpu) {
    return test::read_csv_file((bert(gpu).parent_path() / "tracelens-report/GEMM.csv").string()).size() - 1;
  };
  const size_t base_only_rows = only_base.num_rows(), var_only_rows = sheet(compared, "GEMM_only_variant_mi300x").num_rows();
  CHECK(both.num_rows() + base_only_rows == gemm_rows("h100"));
  CHECK(both.num_rows() + var_only_rows == gemm_rows("mi300x"));
}

TEST_CASE("a report.json read back compares equal to its trace's report", "[golden][diff]") {
  const LoadedRun run = load_run(bert("h100"));
  std::vector<const Table*> sheets;
  for (const Table& t : run.sheets) sheets.push_back(&t);
  std::ostringstream json;
  write_report_json(R"({"generator": "sollens test"})", sheets, json);
  REQUIRE(looks_like_report_json(json.str()));
  // This trace starts with a "metadata" member of its own: it is not taken for a report.
  CHECK_FALSE(looks_like_report_json(test::read_text(bert("h100")).substr(0, 0) + "{\n  \"metadata\": {\n    \"num_errors\": 0"));
  const Result<StoredReport> stored = read_report_json(json.str());
  REQUIRE(stored.message().empty());
  REQUIRE(stored->sheets.size() == run.sheets.size());

  const std::vector<Table> compared = compare_reports(stored->sheets, run.sheets, {});
  size_t diffs = 0;
  for (const Table& t : compared) {
    // kernel_summary is keyed by kernel name alone, which repeats under different parent
    // ops: TraceLens's merge pairs those rows each with each, so their diffs are not 0.
    if (t.name() == "kernel_summary") continue;
    if (t.name().find("_only_") != std::string::npos) CHECK(t.num_rows() == 0);
    for (size_t c = 0; c < t.num_columns(); ++c) {
      if (!t.column(c).name().ends_with("_diff")) continue;
      for (size_t r = 0; r < t.num_rows(); ++r) {
        INFO(t.name() << " " << t.column(c).name() << " row " << r);
        if (const auto v = cell_number(t.column(c), r)) {
          CHECK(*v == 0.0);
          ++diffs;
        }
      }
    }
  }
  CHECK(diffs > 100);
}

// Op names from the raw JSON (cpu_op, ph X), python3:
//   names = lambda f: {e['name'] for e in json.load(gzip.open(f))['traceEvents']
//                      if e.get('cat') == 'cpu_op' and e.get('ph') == 'X'}
//   added = names(test) - names(control); removed = names(control) - names(test)
// added is exactly the three below; removed has 72 names, among them those checked.
TEST_CASE("hta-trace-diff-pair: the op tree shows the ops added and removed", "[golden][diff]") {
  const fs::path dir = test::kTraces / "hta-trace-diff-pair";
  const LoadedRun control = load_run(dir / "control.json.gz"), test_run = load_run(dir / "test.json.gz");
  const Table t = op_tree_diff_table({*control.store, control.tree}, {*test_run.store, test_run.tree},
                                     {"control", "test"});
  const std::set<std::string> added = {"CompiledFunction", "CompiledFunctionBackward",
                                       "autograd::engine::evaluate_function: CompiledFunctionBackward"};
  const std::set<std::string> removed = {"AddBackward0", "MmBackward0", "TanhBackward0", "BmmBackward0",
                                         "BinaryCrossEntropyWithLogitsBackward0"};
  std::map<std::string, std::set<std::string>> statuses;
  for (size_t r = 0; r < t.num_rows(); ++r)
    statuses[t.find("name")->string_at(r)].insert(t.find("status")->string_at(r));
  for (const std::string& n : added) {
    INFO(n);
    CHECK(statuses[n] == std::set<std::string>{"added"});
  }
  for (const std::string& n : removed) {
    INFO(n);
    CHECK(statuses[n] == std::set<std::string>{"removed"});
  }
  // An added op has no baseline time and counts only in the new run.
  for (size_t r = 0; r < t.num_rows(); ++r)
    if (t.find("status")->string_at(r) == "added") {
      CHECK(t.find("control::count")->int_at(r) == 0);
      CHECK(t.find("control::gpu_time_us")->is_null(r));
    }
}

TEST_CASE("cycle diff of a trace with itself: same patterns, every change 0", "[golden][diff]") {
  const fs::path trace = test::kTraces / "hta-trace-diff-pair" / "control.json.gz";
  const LoadedRun a = load_run(trace);
  const CycleReport cycles = analyze_cycles(*a.store);
  REQUIRE(cycles.patterns() > 0);
  const CycleDiff d = diff_cycles(cycles, cycles, {});
  REQUIRE(d.cycles.num_rows() >= cycles.patterns());
  for (size_t r = 0; r < d.cycles.num_rows(); ++r) {
    CHECK(*cell_number(*d.cycles.find("latency_us__variant_diff"), r) == 0.0);
    CHECK(d.cycles.find("baseline::pattern")->int_at(r) == d.cycles.find("variant::pattern")->int_at(r));
  }
  REQUIRE(d.positions.num_rows() > 0);
  for (size_t r = 0; r < d.positions.num_rows(); ++r) {
    CHECK(*cell_number(*d.positions.find("avg_us__variant_diff"), r) == 0.0);
    CHECK(d.positions.find("baseline::kernel_name")->string_at(r) == d.positions.find("variant::kernel_name")->string_at(r));
  }
}

// HTA's name diff (DeviceType.CPU: host ops), over the whole traces. Expected from the raw
// JSON, python3:
//   ops = lambda f: collections.Counter(e['name'] for e in json.load(gzip.open(f))['traceEvents']
//         if e.get('cat') in {'cpu_op', 'user_annotation', 'cuda_runtime', 'cuda_driver'}
//         and e.get('ph') == 'X')
// added: 5 names (below), deleted: 72, increased: 20, decreased: 56, unchanged: 84;
// aten::mm: 1092 → 276.
TEST_CASE("hta-trace-diff-pair: ops added and deleted by name, as HTA's ops_diff", "[golden][diff]") {
  const fs::path dir = test::kTraces / "hta-trace-diff-pair";
  Result<std::unique_ptr<EventStore>> c = load_trace(PaddedBuffer::copy_of(test::read_text(dir / "control.json.gz")));
  Result<std::unique_ptr<EventStore>> t = load_trace(PaddedBuffer::copy_of(test::read_text(dir / "test.json.gz")));
  REQUIRE(c.ok());
  REQUIRE(t.ok());
  const Table d = ops_name_diff_table(*c.value(), *t.value(), {"control", "test"});
  std::map<std::string, std::vector<std::string>> by_change;
  for (size_t r = 0; r < d.num_rows(); ++r)
    by_change[d.find("change")->string_at(r)].push_back(d.find("name")->string_at(r));
  CHECK(by_change["added"] == std::vector<std::string>{"CompiledFunction", "CompiledFunctionBackward",
                                                        "autograd::engine::evaluate_function: CompiledFunctionBackward",
                                                        "cudaDriverGetVersion", "cudaGraphLaunch"});
  CHECK(by_change["deleted"].size() == 72);
  CHECK(by_change["increased"].size() == 20);
  CHECK(by_change["decreased"].size() == 56);
  CHECK(by_change["unchanged"].size() == 84);
  for (size_t r = 0; r < d.num_rows(); ++r)
    if (d.find("name")->string_at(r) == "aten::mm") {
      CHECK(d.find("control::counts")->int_at(r) == 1092);
      CHECK(d.find("test::counts")->int_at(r) == 276);
      CHECK(d.find("diff_counts")->int_at(r) == 276 - 1092);
    }
}
