// The report's SOL sheets (ReportRequest::sol_sheets, as `sollens report` asks for them):
// after every TraceLens sheet, which stay as they are, with the numbers of the
// hand-made trace of support/sol_cases.h worked out there for the H100 SXM5.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "api/api_test_traces.h"
#include "api/session.h"
#include "support/sol_cases.h"
#include "support/table_column.h"
#include "writers/csv_writer.h"

using namespace sollens;
using test::col;
using test::kBigMmUs;
using test::kSmallMmUs;

namespace {

ReportRequest h100_request(bool sol) {
  ReportRequest request;
  request.device_name = "H100_SXM5_80GB";
  request.sol_sheets = sol;
  request.no_hta = true;  // the HTA sheets come after the SOL sheets: these tests look at SOL's place
  return request;
}

size_t row_of(const Table& t, const std::string& key) {
  for (size_t r = 0; r < t.num_rows(); ++r)
    if (t.column(0).string_at(r) == key) return r;
  FAIL("no row '" << key << "' in " << t.name());
  return 0;
}

bool has_sol_sheet(const Report& report) {
  for (const Table& t : report.sheets)
    if (t.name().starts_with("sol_")) return true;
  return false;
}

}  // namespace

TEST_CASE("report: SOL sheets after TraceLens's, which stay as they are", "[sol]") {
  Session session;  // the loaded tree has no python frames: the SOL sheets get a tree with them
  REQUIRE(test::load_text(session, test::two_modules_two_phases()).ok());
  const Report plain = session.report(h100_request(false));
  const Report report = session.report(h100_request(true));
  CHECK_FALSE(has_sol_sheet(plain));
  REQUIRE(report.sheets.size() > plain.sheets.size());
  // The verdict last in both, the same with or without the SOL sheets.
  REQUIRE(plain.sheets.back().name() == "verdict");
  CHECK(to_csv(report.sheets.back()) == to_csv(plain.sheets.back()));
  for (size_t i = 0; i + 1 < plain.sheets.size(); ++i) {
    CHECK(report.sheets[i].name() == plain.sheets[i].name());
    CHECK(to_csv(report.sheets[i]) == to_csv(plain.sheets[i]));
  }
  std::vector<std::string> added;
  for (size_t i = plain.sheets.size() - 1; i + 1 < report.sheets.size(); ++i) added.push_back(report.sheets[i].name());
  // In SolReport's order; sol_by_step has no rows here (one pass, no cycle) and, like
  // every empty sheet, is left out.
  CHECK(added == std::vector<std::string>{"sol_metrics", "sol_by_layer_type", "sol_by_layer_instance",
                                          "sol_by_module", "sol_by_function", "sol_by_phase",
                                          "sol_by_phase_layer", "sol_by_phase_prefix", "sol_top_operations", "sol_unmodeled"});

  const Table& metrics = *report.find("sol_metrics");
  const auto metric = [&](const std::string& name) { return metrics.column(1).float_at(row_of(metrics, name)); };
  CHECK(metric("sol/total_ops") == 4);
  CHECK(metric("sol/estimated_time_ms") == Approx((2 * kBigMmUs + 2 * kSmallMmUs) / 1e3).epsilon(1e-12));
  CHECK(metric("sol/measured_time_ms") == Approx(0.403).epsilon(1e-12));
  CHECK(metric("sol/unmodeled_time_ms") == Approx(0.005).epsilon(1e-12));
  CHECK(metric("sol/faster_than_estimate_ops") == 1);

  // Layer types from the module frames: Linear holds both mm 4096 (400 µs of kernels).
  const Table& types = *report.find("sol_by_layer_type");
  const size_t linear = row_of(types, "Linear");
  CHECK(col(types, "count").int_at(linear) == 2);
  CHECK(col(types, "estimated_time_ms").float_at(linear) == Approx(2 * kBigMmUs / 1e3).epsilon(1e-12));
  CHECK(col(types, "measured_time_ms").float_at(linear) == Approx(0.4).epsilon(1e-12));
  CHECK(col(types, "count").int_at(row_of(types, "Block")) == 1);

  const Table& phases = *report.find("sol_by_phase");
  const size_t fwd = row_of(phases, "train/fwd");
  CHECK(col(phases, "estimated_time_ms").float_at(fwd) == Approx((kBigMmUs + kSmallMmUs) / 1e3).epsilon(1e-12));
  CHECK(col(phases, "measured_time_ms").float_at(fwd) == Approx(0.302).epsilon(1e-12));
}

TEST_CASE("report: the SOL inputs are found beside the other sheets and kept by the session", "[sol]") {
  Session session;
  REQUIRE(test::load_text(session, test::repeating_kernels_trace(6)).ok());
  const Report report = session.report(h100_request(true));
  REQUIRE(has_sol_sheet(report));
  CHECK(report.timings.sol_inputs_ms > 0);  // the python-frame tree was built for this report
  // Kept: the later calls return what the second thread made, without another tree.
  const TraceTree& python = session.python_tree();
  CHECK(&python != &session.tree());
  CHECK(session.default_cycles().patterns() == session.cycle_report().patterns());
  // A second report reuses them and equals the first, sheet for sheet.
  const Report again = session.report(h100_request(true));
  CHECK(&session.python_tree() == &python);
  REQUIRE(again.sheets.size() == report.sheets.size());
  for (size_t i = 0; i < report.sheets.size(); ++i) CHECK(to_csv(again.sheets[i]) == to_csv(report.sheets[i]));
}

TEST_CASE("report: the efficiency factor reaches the SOL sheets", "[sol]") {
  Session session;
  REQUIRE(test::load_text(session, test::two_modules_two_phases()).ok());
  ReportRequest request = h100_request(true);
  request.sol_efficiency = 0.8;
  const Report report = session.report(request);
  const Table& metrics = *report.find("sol_metrics");
  CHECK(metrics.column(1).float_at(row_of(metrics, "sol/estimated_time_ms")) ==
        Approx((2 * kBigMmUs + 2 * kSmallMmUs) / 0.8 / 1e3).epsilon(1e-12));
}

TEST_CASE("report: no SOL sheets without a GPU with peaks, or with no_roofline", "[sol]") {
  Session session;
  REQUIRE(test::load_text(session, test::two_modules_two_phases()).ok());
  ReportRequest unknown;  // the trace has no deviceProperties: nothing identified
  unknown.sol_sheets = true;
  CHECK_FALSE(has_sol_sheet(session.report(unknown)));
  ReportRequest no_roofline = h100_request(true);
  no_roofline.no_roofline = true;
  CHECK_FALSE(has_sol_sheet(session.report(no_roofline)));
}

TEST_CASE("Session: the cycles and the python-frame tree are computed once", "[sol]") {
  Session session;
  REQUIRE(test::load_text(session, test::repeating_kernels_trace(6)).ok());
  const CycleReport& cycles = session.default_cycles();
  CHECK(&session.default_cycles() == &cycles);
  CHECK(cycles.patterns() == session.cycle_report().patterns());
  const TraceTree& python = session.python_tree();
  CHECK(&session.python_tree() == &python);
  CHECK(&python != &session.tree());  // loaded without python frames: a second tree

  Session with_python;
  LoadOptions options;
  options.tree.include_python = true;
  REQUIRE(test::load_text(with_python, test::repeating_kernels_trace(6), options).ok());
  CHECK(&with_python.python_tree() == &with_python.tree());
}
