// Sheet kinds and column units on real traces: every sheet's kind, and the units of a
// sample of columns as TraceLens's column names and documentation state them (the
// expected units are written here by hand, not read from the code under test). The
// bundled traces are gzip files, which only the native build reads.
#include <catch2/catch.hpp>

#if SOLLENS_HAVE_ZLIB

#include <map>
#include <set>
#include <string>
#include <vector>

#include "analyses/collectives/coll_analysis.h"
#include "analyses/cycles/cycle_sheets.h"
#include "devices/device_db.h"
#include "ingest/trace_reader.h"
#include "model/trace_tree.h"
#include "report/report.h"
#include "support/golden_fixtures.h"
#include "writers/table_labels.h"

using namespace sollens;

namespace {

struct Loaded {
  std::unique_ptr<EventStore> store;
  TraceTree tree;
};

Loaded load(const std::string& set, const std::string& file) {
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(test::read_text(test::kTraces / set / file)));
  REQUIRE(r.ok());
  Loaded out{std::move(r.value()), {}};
  out.tree = TraceTree::build(*out.store);
  return out;
}

// The H100 BERT sample's report on the H100 SXM (roofline columns), optionally with
// the corrected models as the main columns.
std::vector<Table> bert_report(bool corrected = false) {
  const Loaded t = load("tracelens-h100-bert-small", "gaunernst_bert-small-uncased__1016001.json.gz");
  ReportOptions options;
  options.device = find_device("H100_SXM5_80GB");
  REQUIRE(options.device != nullptr);
  options.perf.corrected = corrected;
  return build_report(*t.store, t.tree, options).release_sheets();
}

std::vector<Table> sglang_cycle_tables(CycleSheetMode mode) {
  const Loaded t = load("tracelens-sglang-qwen3-8b-decode", "sglang_Qwen3-8B_decode.json.gz");
  CycleOptions options;
  options.llm = mode == CycleSheetMode::kLlm;
  std::vector<Table> out;
  for (CycleSheet& s : cycle_sheets(analyze_cycles(*t.store, options), mode)) out.push_back(std::move(s.table));
  return out;
}

Table nccl_coll_analysis() {
  const Loaded t = load("hta-a100-ddp-nccl", "nccl_data.json.gz");
  return coll_analysis_table(*t.store);
}

const Table& sheet(const std::vector<Table>& sheets, const std::string& name) {
  for (const Table& t : sheets)
    if (t.name() == name) return t;
  FAIL("no sheet " << name);
  throw;
}

std::string unit_of(const Table& t, const std::string& column) {
  const Column* c = t.find(column);
  if (!c) return "(no column " + column + ")";
  return std::string(unit_symbol(c->unit()));
}

// Numeric columns that are counts, ids, flags or stream numbers: no unit.
const std::set<std::string> kUnitless = {
    "Count", "count", "operation_count", "name_count", "Kernel duration (µs)_count", "Short Kernel count",
    "UID_first", "ex_UID", "Kernel stream", "has_perf_model", "rank", "Group size", "In msg nelems",
    "Out msg nelems", "stream", "pattern", "start_index", "end_index", "length", "repetitions",
    "layers_per_outer", "kernels_outside_layers", "index", "repetition", "first_kernel_index", "steps",
    "kernels_per_step", "layers_per_step", "kernels_per_layer", "passes",
    // HTA's: shares of a whole, ids and counts
    "idle_time_ratio", "relative_duration_at_max_queue_length", "correlation", "occurrence_count", "event_idx"};
// Sheets whose every number is a count: queue_length_summary's statistics are of the
// number of launches waiting on a stream.
const std::set<std::string> kCountSheets = {"queue_length_summary"};
// Sheets whose values' unit is given per row (a unit column): the verdict's findings.
const std::set<std::string> kRowUnitSheets = {"verdict"};

// Every int or float column has a unit, except those listed above and the perf
// models' parameters (sizes, strides and flags).
std::vector<std::string> numeric_columns_without_unit(const std::vector<Table>& sheets) {
  std::vector<std::string> out;
  for (const Table& t : sheets)
    for (size_t c = 0; c < t.num_columns(); ++c) {
      const Column& col = t.column(c);
      if (col.type() == ColumnType::kString || col.unit() != Unit::kNone) continue;
      if (kUnitless.count(col.name()) || kCountSheets.count(t.name()) || kRowUnitSheets.count(t.name()) || col.name().starts_with("param: ")) continue;
      out.push_back(t.name() + ": " + col.name());
    }
  return out;
}

}  // namespace

TEST_CASE("sheet kinds: every sheet of a report, the collectives and the cycles") {
  std::map<std::string, std::string> expected = {
      {"gpu_timeline", "timeline"},           {"ops_summary_by_category", "summary"},
      {"ops_summary", "summary"},             {"ops_unique_args", "summary"},
      {"unified_perf_summary", "unified_perf"}, {"GEMM", "perf_model"},
      {"SDPA_fwd", "perf_model"},             {"BinaryElementwise", "perf_model"},
      {"Normalization", "perf_model"},        {"kernel_summary", "summary"},
      {"short_kernel_histogram", "histogram"}, {"short_kernels_summary", "summary"},
      {"verdict", "summary"},  // last: what the report says first
  };
  // HTA's sheets come last, each of kind hta, written even when empty (as HTA writes them).
  const char* const hta_sheets[] = {
      "temporal_breakdown", "idle_time_breakdown", "idle_time_interval_stats", "comm_comp_overlap",
      "gpu_kernel_type_breakdown", "gpu_kernel_breakdown", "gpu_user_annotation_breakdown",
      "cuda_kernel_launch_stats", "cuda_kernel_launch_stats_other_apis", "cuda_kernel_launch_short_kernels",
      "cuda_kernel_launch_runtime_outliers", "cuda_kernel_launch_delay_outliers", "aten_op_kernels_and_delay",
      "queue_length_summary", "time_blocked_on_full_queue", "memory_bw_summary", "cupti_counters",
      "critical_path_summary", "critical_path_breakdown", "critical_path_inferred_summary",
      "critical_path_inferred_breakdown"};
  for (const char* name : hta_sheets) expected.emplace(name, "hta");
  const std::vector<Table> report = bert_report();
  REQUIRE(report.size() == expected.size());
  for (const Table& t : report) {
    INFO(t.name());
    REQUIRE(expected.count(t.name()) == 1);
    CHECK(table_kind_name(t.kind()) == expected.at(t.name()));
  }
  CHECK(table_kind_name(nccl_coll_analysis().kind()) == "collectives");
  for (CycleSheetMode mode : {CycleSheetMode::kAll, CycleSheetMode::kLlm}) {
    const std::vector<Table> cycles = sglang_cycle_tables(mode);
    REQUIRE(cycles.size() >= 2);  // the summary and at least one pattern's tables
    for (const Table& t : cycles) {
      INFO(t.name());
      CHECK(table_kind_name(t.kind()) == "cycles");
    }
  }
}

TEST_CASE("column units: a sample of the H100 BERT report's columns") {
  const std::vector<Table> r = bert_report();
  struct Expected {
    const char* sheet;
    const char* column;
    const char* unit;
  };
  const Expected expected[] = {
      {"gpu_timeline", "type", ""},
      {"gpu_timeline", "time ms", "ms"},
      {"gpu_timeline", "percent", "%"},
      {"ops_summary_by_category", "Count", ""},
      {"ops_summary_by_category", "total_direct_kernel_time_ms", "ms"},
      {"ops_summary_by_category", "Cumulative Percentage (%)", "%"},
      // TraceLens's kernel times are µs; the _ms columns are the same sums / 1000.
      {"ops_summary", "total_direct_kernel_time_sum", "µs"},
      {"ops_summary", "total_subtree_kernel_time_ms", "ms"},
      {"ops_unique_args", "total_direct_kernel_time_median", "µs"},
      {"ops_unique_args", "total_subtree_kernel_time_std", "µs"},
      {"ops_unique_args", "operation_count", ""},
      {"kernel_summary", "Kernel duration (µs)_sum", "µs"},
      {"kernel_summary", "Kernel duration (µs)_count", ""},  // a count of the µs column's values
      {"kernel_summary", "Percent of kernels time (%)", "%"},
      {"short_kernel_histogram", "bin_start", "µs"},
      {"short_kernel_histogram", "count", ""},
      {"short_kernels_summary", "Short Kernel duration (µs) mean", "µs"},
      {"short_kernels_summary", "Short Kernel duration (µs) percent of total time", "%"},
      {"GEMM", "param: M", ""},
      {"GEMM", "GFLOPS_first", "GFLOP"},  // the op's work, not a rate
      {"GEMM", "Data Moved (MB)_first", "MB"},
      {"GEMM", "FLOPS/Byte_first", "FLOP/B"},
      {"GEMM", "TB/s_median", "TB/s"},
      {"GEMM", "TFLOPS/s_max", "TFLOPS/s"},
      {"GEMM", "Compute Spec", ""},
      {"GEMM", "Roofline Time (µs)_first", "µs"},
      {"GEMM", "Pct Roofline_std", "%"},
      {"GEMM", "Kernel Time (µs)_sum", "µs"},
      {"GEMM", "name_count", ""},
      {"SDPA_fwd", "TFLOPS/s_mean (corrected)", "TFLOPS/s"},
      {"SDPA_fwd", "Data Moved (MB)_first (corrected)", "MB"},
      {"unified_perf_summary", "total_duration_us", "µs"},
      {"unified_perf_summary", "duration_us_max", "µs"},
      {"unified_perf_summary", "GFLOPS", "GFLOP"},
      {"unified_perf_summary", "FLOPS/Byte", "FLOP/B"},
      {"unified_perf_summary", "TB/s_std", "TB/s"},
      {"unified_perf_summary", "Pct Roofline_mean", "%"},
      {"unified_perf_summary", "has_perf_model", ""},
      {"unified_perf_summary", "Percentage (%)", "%"},
  };
  for (const Expected& e : expected) {
    INFO(e.sheet << ": " << e.column);
    CHECK(unit_of(sheet(r, e.sheet), e.column) == e.unit);
  }
  // With the corrected models as the main columns, TraceLens's figures keep their units.
  CHECK(unit_of(sheet(bert_report(true), "SDPA_fwd"), "GFLOPS_first (TraceLens)") == "GFLOP");
  CHECK(numeric_columns_without_unit(r) == std::vector<std::string>{});
}

TEST_CASE("column units: coll_analysis and the cycles sheets") {
  const Table coll = nccl_coll_analysis();
  CHECK(unit_of(coll, "In msg nelems") == "");
  CHECK(unit_of(coll, "In msg size (MB)_first") == "MB");
  CHECK(unit_of(coll, "dur_sum") == "µs");  // Kineto durations
  CHECK(unit_of(coll, "dur_std") == "µs");
  CHECK(unit_of(coll, "Full msg size (MB)") == "MB");
  CHECK(unit_of(coll, "algo bw (GB/s)") == "GB/s");
  CHECK(unit_of(coll, "bus bw (GB/s)") == "GB/s");
  CHECK(numeric_columns_without_unit({coll}).empty());

  const std::vector<Table> all = sglang_cycle_tables(CycleSheetMode::kAll);
  const Table& cycles = sheet(all, "cycles");
  CHECK(unit_of(cycles, "center_pct") == "%");
  CHECK(unit_of(cycles, "avg_span_us") == "µs");
  CHECK(unit_of(cycles, "length") == "");
  const std::vector<Table> llm = sglang_cycle_tables(CycleSheetMode::kLlm);
  CHECK(unit_of(sheet(llm, "cycles_llm"), "avg_step_latency_us") == "µs");
  CHECK(unit_of(sheet(llm, "cycles_llm"), "steps") == "");
  CHECK(numeric_columns_without_unit(all).empty());
  CHECK(numeric_columns_without_unit(llm).empty());
}

// Instants on the trace's clock are timestamps (the page shows them from the trace's
// start), not durations: a column that holds Kineto ts values, or a repetition's start
// and end, says so; spans and gaps between starts stay µs.
TEST_CASE("column units: timestamps are marked as timestamps, durations stay µs") {
  const std::vector<Table> all = sglang_cycle_tables(CycleSheetMode::kAll);
  CHECK(unit_of(sheet(all, "cycles"), "start_us") == "timestamp µs");
  CHECK(unit_of(sheet(all, "cycles"), "end_us") == "timestamp µs");
  CHECK(unit_of(sheet(all, "cycle_1_repetitions"), "start_us") == "timestamp µs");
  CHECK(unit_of(sheet(all, "cycle_1_repetitions"), "end_us") == "timestamp µs");
  CHECK(unit_of(sheet(all, "cycle_1_repetitions"), "span_us") == "µs");
  CHECK(unit_of(sheet(all, "cycle_1_repetitions"), "to_next_start_us") == "µs");
  const std::vector<Table> llm = sglang_cycle_tables(CycleSheetMode::kLlm);
  for (const Table& t : llm)
    if (t.name().ends_with("_steps")) {
      INFO(t.name());
      CHECK(unit_of(t, "start_us") == "timestamp µs");
      CHECK(unit_of(t, "span_us") == "µs");
    }
  // Every column of the report named ts is a timestamp; the histogram's bin bounds are
  // kernel durations, not instants.
  const std::vector<Table> report = bert_report();
  for (const Table& t : report)
    for (size_t c = 0; c < t.num_columns(); ++c)
      if (t.column(c).name() == "ts") {
        INFO(t.name());
        CHECK(unit_of(t, "ts") == "timestamp µs");
      }
  CHECK(unit_of(sheet(report, "short_kernel_histogram"), "bin_start") == "µs");
}

#endif  // SOLLENS_HAVE_ZLIB
