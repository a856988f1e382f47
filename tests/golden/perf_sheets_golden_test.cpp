// Every perf-model sheet (each family of model_list.h, and any perf-model sheet a
// reference has) against each TraceLens reference report: a reference sheet
// must be produced, a sheet TraceLens does not write must not be, and each is compared
// by test::compare_sheets with the rules of shared/tools/compare_report.py made
// stricter: the same header in the same order, the same rows in the same order
// (TraceLens sorts these sheets deterministically: Kernel Time sum desc, UID asc),
// numbers within relative 1e-6. Our extra "(corrected)" columns are dropped first
// (compare_report.py ignores columns the reference lacks).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "analyses/perf/model_registry.h"
#include "support/golden_fixtures.h"
#include "support/golden_report.h"
#include "support/reference_csv.h"
#include "support/sheet_compare.h"
#include "writers/csv_writer.h"

namespace fs = std::filesystem;
using namespace sollens;

namespace {

using test::kTraces;
using test::read_text;
using test::traces_with_reports;

// The report sheets that are not perf-model sheets.
const std::set<std::string> kOtherSheets = {"gpu_timeline",          "ops_summary_by_category", "ops_summary",
                                            "ops_unique_args",       "kernel_summary",          "short_kernel_histogram",
                                            "short_kernels_summary", "unified_perf_summary",    "coll_analysis"};

// The perf-model sheets to compare for one report: every sheet sollens can write and
// every perf-model sheet of the reference (a family sollens lacks fails the test).
std::set<std::string> perf_sheets_of(const fs::path& ref) {
  std::set<std::string> sheets;
  for (const std::string& name : perf::perf_sheet_names()) sheets.insert(name);
  for (const auto& e : fs::directory_iterator(ref))
    if (e.path().extension() == ".csv" && !kOtherSheets.contains(e.path().stem().string()))
      sheets.insert(e.path().stem().string());
  return sheets;
}



// The table without the columns TraceLens does not have ("… (corrected)").
Table without_corrected(const Table& t) {
  Table out(t.name(), t.kind());
  for (size_t c = 0; c < t.num_columns(); ++c)
    if (t.column(c).name().find("(corrected)") == std::string::npos) out.add_column("", ColumnType::kString) = t.column(c);
  return out;
}

// The table without its roofline columns (TraceLens's no-arch columns).
Table without_roofline(const Table& t) {
  Table out(t.name(), t.kind());
  for (size_t c = 0; c < t.num_columns(); ++c)
    if (t.column(c).name().find("Roofline") == std::string::npos) out.add_column("", ColumnType::kString) = t.column(c);
  return out;
}

// Where the roofline columns must be: the device is known and some row has a Compute
// Spec every GPU of the database has a dense peak for, FLOPs and bytes.
bool needs_roofline(const Table& t) {
  const Column* spec = t.find("Compute Spec");
  const Column* gflops = t.find("GFLOPS_first");
  const Column* mb = t.find("Data Moved (MB)_first");
  for (size_t r = 0; r < t.num_rows(); ++r) {
    const std::string& sp = spec->string_at(r);
    const bool common = sp == "matrix_bf16" || sp == "matrix_fp16" || sp == "matrix_fp32" || sp == "vector_fp32" ||
                        sp == "vector_bf16" || sp == "vector_fp16";
    if (common && !gflops->is_null(r) && gflops->float_at(r) > 0 && !mb->is_null(r)) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("perf-model sheets equal TraceLens's reference CSVs", "[golden]") {
  const auto pairs = traces_with_reports();
  REQUIRE(pairs.size() == 20);  // 17 before the three H200 PyTorch 2.11 sets
  int compared = 0;
  for (const auto& [trace, ref] : pairs) {
    const test::GoldenReport ours = test::report_of(trace);
    REQUIRE(ours.loaded);
    for (const std::string& sheet : perf_sheets_of(ref)) {
      INFO(trace.filename().string() << ": " << sheet);
      const fs::path ref_csv = ref / (sheet + ".csv");
      const Table* table = ours.sheet(sheet);
      if (!fs::exists(ref_csv)) {
        CHECK(table == nullptr);
        continue;
      }
      REQUIRE(table != nullptr);
      CHECK(test::compare_sheets(test::parse_csv(to_csv(without_corrected(*table))),
                                 test::parse_csv(read_text(ref_csv)), 1e-6) == "");
      ++compared;
    }
  }
  // reference perf-model sheets across the 19 reports: 39 in the first 13, vllm-decode-full 2,
  // its capture 3 (GEMM, UnaryElementwise, RMSNorm_fwd), the xdit capture 7, and the H200
  // sets 17 (gemm-bench 2, gpt2 7 with SDPA_fwd/_bwd, resnet50 8 with CONV_fwd/_bwd)
  CHECK(compared == 68);
}

TEST_CASE("perf sheets with the trace's device: TraceLens's columns unchanged, roofline columns after Compute Spec", "[golden]") {
  int with_device = 0, with_roofline = 0;
  for (const auto& [trace, ref] : traces_with_reports()) {
    const test::GoldenReport ours = test::report_of(trace, {}, true);
    REQUIRE(ours.loaded);
    const DeviceSpec* device = ours.device;
    with_device += device != nullptr;
    for (const std::string& sheet : perf::perf_sheet_names()) {
      if (!ours.sheet(sheet)) continue;
      const Table& t = *ours.sheet(sheet);
      INFO(trace.filename().string() << ": " << t.name());
      const fs::path ref_csv = ref / (t.name() + ".csv");
      if (fs::exists(ref_csv))
        CHECK(test::compare_sheets(test::parse_csv(to_csv(without_roofline(without_corrected(t)))),
                                   test::parse_csv(read_text(ref_csv)), 1e-6) == "");
      const Column* first = t.find("Roofline Time (µs)_first");
      if (!device || !needs_roofline(t)) {
        if (!device) CHECK(first == nullptr);
        continue;
      }
      REQUIRE(first != nullptr);
      ++with_roofline;
      size_t spec = 0;
      while (t.column(spec).name() != "Compute Spec") ++spec;
      const char* kAfter[] = {"Roofline Time (µs)_first", "Roofline Bound_first", "Pct Roofline_mean",
                              "Pct Roofline_median", "Pct Roofline_std", "Pct Roofline_min", "Pct Roofline_max"};
      for (size_t k = 0; k < 7; ++k) CHECK(t.column(spec + 1 + k).name() == kAfter[k]);
    }
  }
  // All 20 reports are on a GPU the database has peaks for (MI250, MI210 and V100 SXM2
  // from their datasheets, deviceDB/README.md); 61 of their sheets get roofline columns.
  CHECK(with_device == 20);
  CHECK(with_roofline == 61);
}

TEST_CASE("perf sheets: the corrected option swaps the corrected values into the default columns", "[golden]") {
  const fs::path trace = kTraces / "tracelens-h100-qwen1.5-0.5b" / "Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";
  auto sdpa = [&](bool corrected) {
    ReportOptions options;
    options.perf.corrected = corrected;
    const test::GoldenReport ours = test::report_of(trace, options);
    return ours.sheet("SDPA_fwd") ? *ours.sheet("SDPA_fwd") : Table("none", TableKind::kPerfModel);
  };
  const Table tl = sdpa(false), fixed = sdpa(true);
  REQUIRE(tl.num_rows() == 1);
  REQUIRE(fixed.num_rows() == 1);
  // causal (16, 16 heads, 559 tokens, d 64): TraceLens 4·16·16·559²·64 / 2; exact pairs 559·560/2.
  CHECK(tl.find("GFLOPS_first")->float_at(0) == Approx(10.239377408));
  CHECK(tl.find("GFLOPS_first (corrected)")->float_at(0) == Approx(4.0 * 16 * 16 * 64 * (559.0 * 560 / 2) / 1e9));
  CHECK(fixed.find("GFLOPS_first")->float_at(0) == tl.find("GFLOPS_first (corrected)")->float_at(0));
  CHECK(fixed.find("GFLOPS_first (TraceLens)")->float_at(0) == tl.find("GFLOPS_first")->float_at(0));
}
