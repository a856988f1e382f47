// The HTA golden cases of hta_cases.tsv: each line's trace is reported by Session with
// the line's flags and each CSV of its hta-reference folder (what Holistic Trace
// Analysis wrote for that trace) compared with the sheet of the same name by
// test::compare_sheets: the same header in the same order, the same rows in the same
// order (the analyses reproduce HTA's order, ties included), numbers within the line's
// relative tolerance, an empty cell (pandas's NaN) only where ours is empty (null).
// What HTA's CSVs hold that a single trace's sheet cannot, per sheet:
//   * a case with a rank (the 8-rank DLRM set, whose CSVs hold every rank) compares
//     the reference rows of that rank only: a sheet with a rank column is filtered;
//     gpu_kernel_type_breakdown has none (HTA sums every rank) and is compared with the
//     eight ranks' sheets summed, below;
//   * a reference without rows may lack the sheet's leading index columns (pandas drops
//     them from the summary of an empty group-by);
//   * critical_path_breakdown's event_idx, index and cat are HTA's row numbers and
//     symbol ids: its rows are compared on s_name, type, duration, pid, tid, stream and
//     bound_by alone, as a multiset (the order is that of HTA's internal ids).
// A sheet listed as pending (a CSV of the reference, or an analysis of its failures.txt)
// must still be missing from the report; once its sheet lands the case fails until the
// line's pending column drops it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "support/hta_cases.h"
#include "support/sheet_compare.h"
#include "writers/csv_writer.h"

namespace fs = std::filesystem;
using namespace sollens;

namespace {

const std::vector<std::string> kCriticalPathKeys = {"s_name", "type", "duration", "pid", "tid", "stream", "bound_by"};

// The column's position in a header row, or -1.
int column_of(const test::CsvRows& rows, const std::string& name) {
  if (rows.empty()) return -1;
  const auto it = std::find(rows[0].begin(), rows[0].end(), name);
  return it == rows[0].end() ? -1 : static_cast<int>(it - rows[0].begin());
}

// The header and the rows whose rank column reads `rank` (a sheet without one: all).
test::CsvRows rows_of_rank(test::CsvRows rows, int rank) {
  const int column = column_of(rows, "rank");
  if (rank < 0 || column < 0) return rows;
  test::CsvRows kept{rows[0]};
  for (size_t r = 1; r < rows.size(); ++r) {
    double v = 0;
    if (test::as_number(rows[r][column], v) && v == rank) kept.push_back(rows[r]);
  }
  return kept;
}

// A number as one spelling ("-1.0", "-1" → "-1"), so that rows sort alike on both sides.
std::string canonical(const std::string& cell) {
  double v = 0;
  if (!test::as_number(cell, v)) return cell;
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// The named columns only, their numbers in one spelling.
test::CsvRows project(const test::CsvRows& rows, const std::vector<std::string>& names) {
  std::vector<int> columns;
  for (const std::string& n : names) columns.push_back(column_of(rows, n));
  test::CsvRows out;
  for (size_t r = 0; r < rows.size(); ++r) {
    std::vector<std::string> row;
    for (int c : columns) row.push_back(c < 0 ? "<no column>" : r == 0 ? rows[r][c] : canonical(rows[r][c]));
    out.push_back(row);
  }
  return out;
}

// pandas writes a group-by's summary of no rows without its index columns (rank, name,
// ...): an empty reference matches an empty sheet whose header ends with the reference's.
bool both_empty_alike(const test::CsvRows& ours, const test::CsvRows& reference) {
  if (ours.size() != 1 || reference.size() != 1 || ours[0].size() < reference[0].size()) return false;
  return std::equal(reference[0].rbegin(), reference[0].rend(), ours[0].rbegin());
}

// "" when our sheet matches the reference rows, else what differs first.
std::string difference(const Table* ours, const test::CsvRows& reference, double tolerance) {
  if (!ours) return "the report has no such sheet";
  test::CsvRows rows = test::parse_csv(to_csv(*ours));
  if (both_empty_alike(rows, reference)) return "";
  const test::Tolerance tol{.rel = tolerance};
  if (ours->name() == "critical_path_breakdown")
    return test::compare_sheets(project(rows, kCriticalPathKeys), project(reference, kCriticalPathKeys), tol, true);
  return test::compare_sheets(std::move(rows), reference, tol);
}

// HTA's failures.txt: "<analysis>: <exception>" per line, the analyses it raised on.
std::vector<std::string> failed_analyses(const fs::path& folder) {
  std::vector<std::string> names;
  for (const std::string& line : test::split_on(test::read_text(folder / "failures.txt"), '\n')) {
    const size_t colon = line.find(':');
    if (colon != std::string::npos && colon > 0) names.push_back(line.substr(0, colon));
  }
  return names;
}

}  // namespace

TEST_CASE("HTA golden cases: each sheet equals HTA's reference CSV", "[golden][hta]") {
  for (const test::HtaCase& c : test::read_hta_cases()) {
    DYNAMIC_SECTION(c.name) {
      const test::HtaCaseReport ours = test::hta_report_of_case(c);
      REQUIRE(ours.loaded);
      const fs::path folder = test::kTraces / c.reference;
      const std::set<std::string> in_reference = test::hta_reference_sheets(folder);
      const std::vector<std::string> sheets =
          c.sheets.empty() ? std::vector<std::string>(in_reference.begin(), in_reference.end()) : c.sheets;
      REQUIRE_FALSE(sheets.empty());
      for (const std::string& sheet : sheets) {
        INFO(c.reference.string() << ": " << sheet);
        REQUIRE(in_reference.contains(sheet));
        if (c.pending.contains(sheet)) {
          INFO("the report has this sheet now: take it out of the line's pending column");
          CHECK(ours.sheet(sheet) == nullptr);
          continue;
        }
        const test::CsvRows reference = rows_of_rank(test::parse_csv(test::read_reference_csv(folder, sheet)), c.rank);
        CHECK(difference(ours.sheet(sheet), reference, c.tolerance) == "");
      }
      const std::vector<std::string> failed = failed_analyses(folder);
      for (const std::string& sheet : c.pending) {
        INFO(sheet << " is pending but neither a CSV of " << c.reference.string() << " nor in its failures.txt");
        CHECK((in_reference.contains(sheet) || std::find(failed.begin(), failed.end(), sheet) != failed.end()));
      }
    }
  }
}

// Where HTA raised, sollens still answers: the sheet is there and has rows. Why its
// numbers are right is each analysis's own test (tests/analyses/hta/).
TEST_CASE("HTA golden cases: every analysis HTA failed on has a sheet with rows", "[golden][hta]") {
  for (const test::HtaCase& c : test::read_hta_cases()) {
    const fs::path folder = test::kTraces / c.reference;
    const std::vector<std::string> failed = failed_analyses(folder);
    if (failed.empty() || c.rank > 0) continue;  // one check per set
    DYNAMIC_SECTION(c.name) {
      const test::HtaCaseReport ours = test::hta_report_of_case(c);
      REQUIRE(ours.loaded);
      for (const std::string& analysis : failed) {
        INFO(c.reference.string() << "/failures.txt: HTA raised in " << analysis);
        const Table* sheet = ours.sheet(analysis);
        if (c.pending.contains(analysis)) {
          INFO("the report has this sheet now: take it out of the line's pending column");
          CHECK(sheet == nullptr);
          continue;
        }
        REQUIRE(sheet != nullptr);
        CHECK(sheet->num_rows() > 0);
      }
    }
  }
}

// HTA's gpu_kernel_type_breakdown of the DLRM set is one table over the eight ranks:
// each kernel type's time summed over the ranks, and its share of their total rounded
// to 0.1 % as HTA rounds it. The eight ranks' sheets, summed, must give it.
TEST_CASE("HTA golden cases: DLRM's gpu_kernel_type_breakdown is the eight ranks' sheets summed", "[golden][hta]") {
  std::map<std::string, double> sum;
  int ranks = 0;
  const fs::path folder = test::kTraces / "param-dlrm-v100-8rank" / "hta-reference";
  for (const test::HtaCase& c : test::read_hta_cases()) {
    if (c.reference != fs::path("param-dlrm-v100-8rank/hta-reference")) continue;
    const test::HtaCaseReport ours = test::hta_report_of_case(c);
    REQUIRE(ours.loaded);
    const Table* sheet = ours.sheet("gpu_kernel_type_breakdown");
    INFO(c.name);
    REQUIRE(sheet != nullptr);
    const test::CsvRows rows = test::parse_csv(to_csv(*sheet));
    const int type = column_of(rows, "kernel_type"), time = column_of(rows, "sum");
    REQUIRE((type >= 0 && time >= 0));
    for (size_t r = 1; r < rows.size(); ++r) sum[rows[r][type]] += std::stod(rows[r][time]);
    ++ranks;
  }
  REQUIRE(ranks == 8);
  const test::CsvRows reference = test::parse_csv(test::read_reference_csv(folder, "gpu_kernel_type_breakdown"));
  double total = 0;
  for (const auto& [type, us] : sum) total += us;
  CHECK(sum.size() == reference.size() - 1);
  for (size_t r = 1; r < reference.size(); ++r) {
    INFO(reference[r][0]);
    REQUIRE(sum.contains(reference[r][0]));
    CHECK(sum[reference[r][0]] == std::stod(reference[r][1]));
    CHECK(std::round(sum[reference[r][0]] / total * 1000) / 10 == Approx(std::stod(reference[r][2])));
  }
}

TEST_CASE("HTA golden cases: every hta-reference folder and CSV has its line", "[golden][hta]") {
  std::map<fs::path, std::set<std::string>> covered;
  for (const test::HtaCase& c : test::read_hta_cases()) {
    INFO(c.name);
    CHECK(fs::is_regular_file(test::kTraces / c.trace));
    REQUIRE(fs::is_directory(test::kTraces / c.reference));
    CHECK(fs::is_regular_file(test::kTraces / c.reference / "failures.txt"));
    const std::set<std::string> all = test::hta_reference_sheets(test::kTraces / c.reference);
    std::set<std::string>& seen = covered[c.reference];
    if (c.sheets.empty()) seen.insert(all.begin(), all.end());
    else seen.insert(c.sheets.begin(), c.sheets.end());
  }
  covered[fs::path("param-dlrm-v100-8rank/hta-reference")].insert("gpu_kernel_type_breakdown");  // summed above
  for (const auto& set : fs::directory_iterator(test::kTraces)) {
    const fs::path reference = set.path() / "hta-reference";
    if (!fs::is_directory(reference)) continue;
    const fs::path relative = fs::relative(reference, test::kTraces);
    INFO(relative.string());
    REQUIRE(covered.contains(relative));
    for (const std::string& sheet : test::hta_reference_sheets(reference)) {
      INFO(sheet);
      CHECK(covered[relative].contains(sheet));
    }
  }
}
