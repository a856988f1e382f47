// build_report's ReportOptions::hta_tables: a caller that computes the HTA sheets elsewhere
// (Session, on a second thread) hands them in; the report asks once, where the HTA sheets
// go (last), and keeps them in the order given.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "analyses/hta/hta_sheets.h"
#include "report/report.h"
#include "support/test_trace.h"

using namespace sollens;

namespace {

// One operator launching one kernel (times in µs).
std::string trace_json() {
  return R"({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 2, "dur": 4,
     "args": {"correlation": 5}},
    {"ph": "X", "cat": "kernel", "name": "add_kernel", "pid": 0, "tid": 7, "ts": 8, "dur": 3,
     "args": {"stream": 7, "correlation": 5}}]})";
}

std::vector<std::string> names(const Report& r) {
  std::vector<std::string> out;
  for (const Table& t : r.sheets) out.push_back(t.name());
  return out;
}

}  // namespace

TEST_CASE("report: HTA sheets handed in come last but for the verdict, in order, asked for once", "[report][hta]") {
  const auto t = test::load_with_tree(trace_json());
  ReportOptions options;
  int asked = 0;
  options.hta_tables = [&asked] {
    ++asked;
    std::vector<Table> sheets;
    sheets.emplace_back("hta_first", TableKind::kHta);
    sheets.emplace_back("hta_second", TableKind::kHta);
    return sheets;
  };
  std::vector<std::string> handed;
  SheetSink sink;
  sink.on_sheet = [&handed](const Table& sheet) { handed.push_back(sheet.name()); };
  const Report report = build_report(*t.store, t.tree, options, sink);
  CHECK(asked == 1);
  const std::vector<std::string> sheets = names(report);
  REQUIRE(sheets.size() >= 3);
  CHECK(sheets[sheets.size() - 3] == "hta_first");
  CHECK(sheets[sheets.size() - 2] == "hta_second");
  CHECK(sheets.back() == "verdict");  // the verdict sums up the sheets before it
  CHECK(handed == sheets);
  CHECK(report.timings.hta_wait_ms >= 0);
}

TEST_CASE("report: HTA sheets handed in replace the ones computed in place", "[report][hta]") {
  const auto t = test::load_with_tree(trace_json());
  ReportOptions in_place;
  const Report computed = build_report(*t.store, t.tree, in_place);
  ReportOptions handed_in;
  handed_in.hta_tables = [&] { return hta::hta_tables(*t.store, t.tree, handed_in.hta); };
  const Report given = build_report(*t.store, t.tree, handed_in);
  CHECK(names(given) == names(computed));
  ReportOptions off;
  off.hta.enabled = false;
  bool asked = false;
  off.hta_tables = [&asked] {
    asked = true;
    return std::vector<Table>{};
  };
  const Report without = build_report(*t.store, t.tree, off);
  CHECK_FALSE(asked);  // with the HTA sheets off nothing is asked for
  CHECK(names(without).size() < names(computed).size());
}
