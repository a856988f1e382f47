// The golden report cases of cases.tsv: each line's trace is reported with the line's
// flags (support/golden_cases.h) and each sheet compared with the TraceLens reference
// CSV by test::compare_sheets: the same header in the same order, the same rows in the
// same order (TraceLens sorts its sheets deterministically), numbers within the line's
// relative tolerance. What sollens adds, or TraceLens leaves to chance, per sheet:
//   * the perf-model sheets' "(corrected)" columns are dropped first (compare_report.py
//     ignores columns the reference lacks);
//   * kernel_summary's rows are compared as a multiset: its ties (equal sums) come out
//     in another order than TraceLens's on DLRM worker0, as tracelens-semantics.md §9 allows;
//   * gpu_timeline's numbers within 1e-12 absolute beside the relative tolerance (the
//     other sheets' within 1e-9);
//   * coll_analysis, and references without a number of TraceLens's own making (an
//     empty sheet, a header alone, the summary of no short kernels), byte for byte too.
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>
#include <string>
#include <utility>

#include "support/golden_cases.h"
#include "support/reference_csv.h"
#include "support/sheet_compare.h"
#include "writers/csv_writer.h"

namespace fs = std::filesystem;
using namespace sollens;

namespace {

// The report's sheets that are not perf-model sheets.
const std::set<std::string> kOtherSheets = {"gpu_timeline",          "ops_summary_by_category", "ops_summary",
                                            "ops_unique_args",       "kernel_summary",          "short_kernel_histogram",
                                            "short_kernels_summary", "unified_perf_summary",    "coll_analysis"};

std::string tracelens_csv(const Table& t) {
  return to_csv(kOtherSheets.contains(t.name()) ? t : test::without_columns_named(t, "(corrected)"));
}

bool compared_byte_for_byte(const std::string& sheet, const std::string& reference) {
  const size_t first_line_end = reference.find('\n');
  const bool at_most_a_header = first_line_end == std::string::npos || first_line_end + 1 == reference.size();
  return sheet == "coll_analysis" || at_most_a_header || reference.starts_with("Kernel duration (µs),");
}

// "" when our sheet matches the reference CSV, else what differs first.
std::string difference(const Table* ours, const fs::path& reference_csv, double tolerance) {
  if (!ours) return "the report has no such sheet";
  const std::string sheet = ours->name(), csv = tracelens_csv(*ours), reference = test::read_text(reference_csv);
  test::Tolerance tol{.rel = tolerance};
  if (sheet == "gpu_timeline") tol.abs = 1e-12;
  const std::string differs =
      test::compare_sheets(test::parse_csv(csv), test::parse_csv(reference), tol, sheet == "kernel_summary");
  if (!differs.empty()) return differs;
  if (compared_byte_for_byte(sheet, reference) && csv != reference) return "not byte for byte equal";
  return "";
}

std::set<std::string> reference_sheets(const fs::path& folder) {
  std::set<std::string> sheets;
  for (const auto& e : fs::directory_iterator(folder))
    if (e.path().extension() == ".csv") sheets.insert(e.path().stem().string());
  return sheets;
}

}  // namespace

TEST_CASE("golden report cases: each sheet equals TraceLens's reference CSV", "[golden]") {
  for (const test::GoldenCase& c : test::read_golden_cases()) {
    DYNAMIC_SECTION(c.name) {
      const test::GoldenReport ours = test::report_of_case(c);
      REQUIRE(ours.loaded);
      const fs::path folder = test::kTraces / c.reference;
      const std::set<std::string> in_reference = reference_sheets(folder);
      const std::vector<std::string> sheets =
          c.sheets.empty() ? std::vector<std::string>(in_reference.begin(), in_reference.end()) : c.sheets;
      REQUIRE_FALSE(sheets.empty());
      for (const std::string& sheet : sheets) {
        INFO(c.reference.string() << ": " << sheet);
        CHECK(difference(ours.sheet(sheet), folder / (sheet + ".csv"), c.tolerance) == "");
      }
      // TraceLens leaves out sheets without rows, as the report does. HTA's sheets are
      // judged against HTA's references (hta_reference_golden_test.cpp); the verdict is
      // sollens's own (tests/analyses/verdict).
      if (c.sheets.empty())
        for (const Table& t : ours.report.sheets) {
          if (t.kind() == TableKind::kHta || t.name() == "verdict") continue;
          INFO(t.name() << " is in the report but not in " << c.reference.string());
          CHECK(in_reference.contains(t.name()));
        }
    }
  }
}

TEST_CASE("golden report cases: every TraceLens report of the fixtures has its line", "[golden]") {
  std::set<std::pair<fs::path, fs::path>> listed;
  for (const test::GoldenCase& c : test::read_golden_cases()) {
    INFO(c.name);
    CHECK(fs::is_regular_file(test::kTraces / c.trace));
    CHECK(fs::is_directory(test::kTraces / c.reference));
    listed.emplace(test::kTraces / c.trace, test::kTraces / c.reference);
  }
  for (const auto& [trace, reference] : test::traces_with_reports()) {
    INFO(fs::relative(trace, test::kTraces).string() << " with " << fs::relative(reference, test::kTraces).string());
    CHECK(listed.contains({trace, reference}));
  }
}
