// Session::diff (api/compare.h) and PageSession::build_comparison on the two bert-small
// traces (H100 as the baseline, MI300X as the variant): expected numbers come from the two
// TraceLens reference reports, a change is the variant's value − the baseline's. Then two
// stored report.json texts written here by hand, with the gate evaluated on them.
#include <catch2/catch.hpp>

#include <cstring>
#include <optional>

#include "api/compare.h"
#include "api/page_session.h"
#include "support/golden_fixtures.h"
#include "support/reference_csv.h"
#include "support/table_column.h"

using namespace sollens;

namespace {

const test::fs::path kH100 = test::kTraces / "tracelens-h100-bert-small";
const test::fs::path kMi300x = test::kTraces / "tracelens-mi300x-bert-small";
const char* const kTraceFile = "gaunernst_bert-small-uncased__1016001.json.gz";

// The WebAssembly build has no zlib (the page decompresses): the traces are .json.gz.
bool without_gzip(const Status& status) {
  if (status.code() != Code::gzip_unsupported) return false;
  WARN("gzip decompression is not available in this build: the comparison checks are skipped");
  return true;
}

std::optional<Session> load(const test::fs::path& set) {
  Session session;
  const Result<LoadStats> loaded = session.load(PaddedBuffer::copy_of(test::read_text(set / kTraceFile)));
  if (without_gzip(loaded.status())) return std::nullopt;
  REQUIRE(loaded.ok());
  return session;
}

// `column` of the reference ops_summary row named `op`, as a number.
double reference_ops_value(const test::fs::path& set, const std::string& op, const std::string& column) {
  const test::CsvRows rows = test::read_csv_file((set / "tracelens-report" / "ops_summary.csv").string());
  REQUIRE_FALSE(rows.empty());
  size_t c = 0;
  while (c < rows[0].size() && rows[0][c] != column) ++c;
  REQUIRE(c < rows[0].size());
  for (const auto& row : rows)
    if (!row.empty() && row[0] == op) return std::stod(row[c]);
  FAIL("no row " << op);
  return 0;
}

const Table& sheet(const std::vector<Table>& tables, const std::string& name) {
  for (const Table& t : tables)
    if (t.name() == name) return t;
  FAIL("no sheet " << name);
  throw;
}

size_t row_of(const Table& t, const std::string& name) {
  const Column& names = test::col(t, "name");
  for (size_t r = 0; r < t.num_rows(); ++r)
    if (names.string_at(r) == name) return r;
  FAIL("no row " << name);
  return 0;
}

}  // namespace

TEST_CASE("Session::diff: an op's change is the variant's time minus the baseline's") {
  const std::optional<Session> h100 = load(kH100);
  const std::optional<Session> mi300x = load(kMi300x);
  if (!h100 || !mi300x) return;
  const DiffResult diff = Session::diff(h100->diff_run(), mi300x->diff_run(), DiffRequest{});
  CHECK(diff.traces_compared);
  const std::vector<Table>& tables = diff.sheets;

  const Table& ops = sheet(tables, "ops_summary");
  const std::string metric = "total_direct_kernel_time_ms";
  for (const std::string op : {"aten::addmm", "aten::_flash_attention_forward"}) {
    const double base = reference_ops_value(kH100, op, metric);
    const double var = reference_ops_value(kMi300x, op, metric);
    const size_t r = row_of(ops, op);
    CHECK(test::col(ops, "baseline::" + metric).float_at(r) == Approx(base));
    CHECK(test::col(ops, "variant::" + metric).float_at(r) == Approx(var));
    CHECK(test::col(ops, metric + "__variant_diff").float_at(r) == Approx(var - base));
  }
  // Both runs are traces: the tree, name and cycle diffs follow the report's sheets
  // (bert-small has no repeating pattern to pair: its cycle_diff is there, empty).
  CHECK(sheet(tables, "op_tree_diff").num_rows() > 0);
  CHECK(sheet(tables, "ops_diff").num_rows() > 0);
  CHECK(sheet(tables, "cycle_diff").num_columns() > 0);
}

TEST_CASE("PageSession::build_comparison: needs two traces, then describes the compared sheets") {
  PageSession baseline, variant;
  CHECK(variant.build_comparison(baseline) == R"({"error":{"code":"no_trace_loaded","message":"two traces must be loaded to compare"}})");
  const auto fill = [](PageSession& page, const test::fs::path& set) {
    const std::string bytes = test::read_text(set / kTraceFile);
    std::memcpy(page.allocate(bytes.size()), bytes.data(), bytes.size());
    const Status loaded = page.load();
    if (without_gzip(loaded)) return false;
    REQUIRE(loaded.ok());
    return true;
  };
  if (!fill(baseline, kH100) || !fill(variant, kMi300x)) return;
  const std::string described = variant.build_comparison(baseline);
  CHECK(described.starts_with(R"({"names":["baseline","variant"],"sheets":[)"));
  CHECK(described.find(R"("name":"ops_summary")") != std::string::npos);
  CHECK(described.find(R"("name":"op_tree_diff")") != std::string::npos);
  // The report's handles stay valid beside the comparison's.
  REQUIRE(variant.build_report().find(R"("sheets":[)") != std::string::npos);
  CHECK(variant.build_comparison(baseline).find(R"("name":"cycle_diff")") != std::string::npos);
  // Named runs, as sollens diff --names main,pr: the names tag the compared columns.
  const std::string named = variant.build_comparison(baseline, "main", "pr");
  CHECK(named.starts_with(R"({"names":["main","pr"],"sheets":[)"));
  CHECK(named.find(R"("name":"main::time ms")") != std::string::npos);
  CHECK(named.find(R"("name":"time ms__pr_diff")") != std::string::npos);
  CHECK(named.find(R"("name":"time ms__variant_diff")") == std::string::npos);
  // Names --names refuses are refused here too.
  CHECK(variant.build_comparison(baseline, "a", "a") == R"({"error":{"code":"bad_run_names","message":"the two runs need different names"}})");
  CHECK(variant.build_comparison(baseline, "a::b", "c") == R"({"error":{"code":"bad_run_names","message":"a run's name cannot contain '::'"}})");
  CHECK(variant.build_comparison(baseline, "a", "b,c") == R"({"error":{"code":"bad_run_names","message":"a run's name cannot contain a comma"}})");
}

namespace {

// A report.json as sollens report writes it, with a gpu_timeline of two rows.
std::string stored_report(double total_ms) {
  return "{\"metadata\": {\"generator\": \"sollens 0.1.0\"},\n\"sheets\": {\n\"gpu_timeline\": [\n"
         "{\"type\":\"idle_time\",\"time ms\":2.0},\n{\"type\":\"total_time\",\"time ms\":" +
         std::to_string(total_ms) + "}\n]\n}}\n";
}

DiffRun read_run(const std::string& text) {
  Result<DiffRun> run = read_stored_report(text);
  REQUIRE(run.ok());
  return std::move(*run);
}

GateExpr gate(const std::string& text) {
  Result<GateExpr> parsed = parse_gate(text);
  REQUIRE(parsed.ok());
  return std::move(parsed).value();
}

}  // namespace

TEST_CASE("Session::diff: stored reports stand in for traces, and the gates are evaluated") {
  CHECK(looks_like_stored_report(stored_report(10)));
  CHECK_FALSE(looks_like_stored_report(R"({"traceEvents": []})"));
  const Result<DiffRun> bad = read_stored_report(R"({"sheets": 3})");
  CHECK(bad.code() == Code::report_no_sheets);
  CHECK(bad.message() == "not a report.json: no \"sheets\" object");
  CHECK(read_stored_report("not JSON").code() == Code::report_not_json);

  const DiffRun base = read_run(stored_report(10));
  const DiffRun var = read_run(stored_report(12.5));
  CHECK(base.session == nullptr);
  CHECK_FALSE(base.cycles);

  DiffRequest request;
  request.tags = {"main", "pr"};
  request.gates = {gate("total time > +20%"), gate("total time > +30%"), gate("op aten::mm time > +1%")};
  const DiffResult diff = Session::diff(base, var, request);
  CHECK_FALSE(diff.traces_compared);
  CHECK(diff.tags.variant == "pr");
  // The runs named, then the reports' sheets: no op-tree or cycle diff without traces.
  REQUIRE(diff.sheets.size() == 3);  // compare_verdict, compare_runs, gpu_timeline
  const Table& timeline = sheet(diff.sheets, "gpu_timeline");
  size_t total = 0;
  while (total < timeline.num_rows() && test::col(timeline, "type").string_at(total) != "total_time") ++total;
  REQUIRE(total < timeline.num_rows());
  CHECK(test::col(timeline, "main::time ms").float_at(total) == 10.0);
  CHECK(test::col(timeline, "pr::time ms").float_at(total) == 12.5);
  CHECK(test::col(timeline, "time ms__pr_diff").float_at(total) == 2.5);

  // 10 → 12.5 ms is +25 %: over the first threshold, under the second; no run has aten::mm.
  REQUIRE(diff.gates.size() == 3);
  CHECK(diff.gates[0].baseline == 10.0);
  CHECK(diff.gates[0].variant == 12.5);
  CHECK(diff.gates[0].change == Approx(25.0));
  CHECK(diff.gates[0].failed);
  CHECK_FALSE(diff.gates[1].failed);
  CHECK(diff.gates[2].error.code() == Code::gate_not_evaluable);
  CHECK(diff.regression());
  CHECK(diff.gates_unevaluated());

  request.gates = {gate("total time > +30%")};
  const DiffResult within = Session::diff(base, var, request);
  CHECK_FALSE(within.regression());
  CHECK_FALSE(within.gates_unevaluated());
}
