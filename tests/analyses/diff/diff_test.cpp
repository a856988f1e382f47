// The diff's building blocks on hand-made tables: TraceLens's merge, split and diff
// columns, the alignment, and the gate's syntax and arithmetic.
#include <catch2/catch.hpp>

#include <cmath>

#include "analyses/diff/gate.h"
#include "analyses/diff/report_compare.h"
#include "analyses/diff/sequence_alignment.h"
#include "analyses/diff/table_compare.h"

using namespace sollens;

namespace {

Table ops(const std::vector<std::string>& names, const std::vector<double>& ms, const std::vector<int64_t>& count) {
  Table t("ops_summary", TableKind::kSummary);
  Column& n = t.add_column("name", ColumnType::kString);
  Column& sum = t.add_column("total_direct_kernel_time_sum", ColumnType::kFloat, Unit::kMicroseconds);
  Column& time = t.add_column("total_direct_kernel_time_ms", ColumnType::kFloat, Unit::kMilliseconds);
  Column& c = t.add_column("Count", ColumnType::kInt);
  Column& cum = t.add_column("Cumulative Percentage (%)", ColumnType::kFloat, Unit::kPercent);
  for (size_t i = 0; i < names.size(); ++i) {
    n.push_string(names[i]);
    sum.push_float(ms[i] * 1000);
    time.push_float(ms[i]);
    c.push_int(count[i]);
    cum.push_float(50);
  }
  return t;
}

std::vector<std::string> column_names(const Table& t) {
  std::vector<std::string> out;
  for (size_t c = 0; c < t.num_columns(); ++c) out.push_back(t.column(c).name());
  return out;
}

}  // namespace

TEST_CASE("compare_sheet: outer merge, diff and pct, column order, sort by baseline", "[diff]") {
  const Table base = ops({"aten::mm", "aten::add", "aten::gone"}, {2.0, 1.0, 0.5}, {4, 2, 1});
  const Table var = ops({"aten::add", "aten::mm", "aten::new"}, {1.5, 2.5, 3.0}, {2, 4, 1});
  const Table t = *compare_sheet(base, var, *summary_sheet_spec("ops_summary"), {"A", "B"}, "ops_summary");
  CHECK(column_names(t) == std::vector<std::string>{
                               "name", "total_direct_kernel_time_ms__B_diff", "total_direct_kernel_time_ms__B_pct",
                               "Count__B_diff", "Count__B_pct", "A::total_direct_kernel_time_ms", "A::Count",
                               "A::Cumulative Percentage (%)", "B::total_direct_kernel_time_ms", "B::Count"});
  // Sorted by A's time, descending; the row A lacks goes last.
  REQUIRE(t.num_rows() == 4);
  CHECK(t.column(0).string_at(0) == "aten::mm");
  CHECK(t.column(0).string_at(1) == "aten::add");
  CHECK(t.column(0).string_at(2) == "aten::gone");
  CHECK(t.column(0).string_at(3) == "aten::new");
  CHECK(t.column(1).float_at(0) == 0.5);             // 2.5 − 2.0
  CHECK(t.column(2).float_at(0) == 25.0);            // 100 · 0.5 / 2.0
  CHECK(t.column(1).float_at(1) == 0.5);             // 1.5 − 1.0
  CHECK(t.column(1).is_null(2));                     // only in A
  CHECK(t.column(1).is_null(3));                     // only in B
  CHECK(t.column(4).float_at(0) == 0.0);             // Count 4 → 4: pct 0
}

TEST_CASE("split_compared_sheet: intersect, only baseline, only variant", "[diff]") {
  Table base("GEMM", TableKind::kPerfModel), var("GEMM", TableKind::kPerfModel);
  for (Table* t : {&base, &var}) {
    t->add_column("name", ColumnType::kString);
    t->add_column("param: M", ColumnType::kInt);
    t->add_column("Kernel Time (µs)_sum", ColumnType::kFloat);
    t->add_column("GFLOPS_first", ColumnType::kFloat);
  }
  const auto row = [](Table& t, const char* n, int64_t m, double us) {
    t.column(0).push_string(n);
    t.column(1).push_int(m);
    t.column(2).push_float(us);
    t.column(3).push_float(1.0);
  };
  row(base, "aten::mm", 64, 10);
  row(base, "aten::mm", 128, 30);
  row(var, "aten::mm", 128, 20);
  row(var, "aten::mm", 256, 5);
  SheetCompareSpec spec;
  spec.keys = {"name", "param: M"};
  spec.diff_columns = {"Kernel Time (µs)_sum"};
  spec.drop_variant = {"GFLOPS_first"};
  spec.sort_column = "Kernel Time (µs)_sum";
  const CompareTags tags{"A", "B"};
  const Table merged = *compare_sheet(base, var, spec, tags, "GEMM");
  const std::vector<Table> parts = split_compared_sheet(merged, spec, tags, "GEMM");
  REQUIRE(parts.size() == 3);
  CHECK(parts[0].name() == "GEMM_intersect_B");
  CHECK(parts[1].name() == "GEMM_only_baseline_B");
  CHECK(parts[2].name() == "GEMM_only_variant_B");
  REQUIRE(parts[0].num_rows() == 1);
  CHECK(parts[0].find("param: M")->int_at(0) == 128);
  CHECK(parts[0].find("Kernel Time (µs)_sum__B_diff")->float_at(0) == -10.0);
  CHECK(parts[0].find("B::GFLOPS_first") == nullptr);
  REQUIRE(parts[1].num_rows() == 1);
  CHECK(parts[1].find("param: M")->int_at(0) == 64);
  CHECK(column_names(parts[1]) == std::vector<std::string>{"name", "param: M", "A::Kernel Time (µs)_sum", "A::GFLOPS_first"});
  REQUIRE(parts[2].num_rows() == 1);
  // The variant-only rows have no diff (all empty: dropped) and no baseline columns.
  CHECK(column_names(parts[2]) == std::vector<std::string>{"name", "param: M", "B::Kernel Time (µs)_sum"});
}

TEST_CASE("align_sequences: edit distance with TraceLens's backtrack", "[diff]") {
  // a b c d  vs  a c x d: b deleted, x inserted.
  const auto steps = align_sequences({1, 2, 3, 4}, {1, 3, 9, 4});
  std::string ops;
  for (const AlignStep& s : steps) ops += s.op == AlignOp::kMatch ? 'M' : s.op == AlignOp::kDelete ? 'D' : 'I';
  CHECK(ops == "MDMIM");
  CHECK(align_sequences({}, {5, 6}).size() == 2);
}

TEST_CASE("parse_gate: figures, operators, changes and errors", "[diff]") {
  auto g = parse_gate("op aten::mm time > +10%");
  REQUIRE(g.ok());
  CHECK(g->sheet == "ops_summary");
  CHECK(g->key == "aten::mm");
  CHECK(g->metric == "total_direct_kernel_time_ms");
  CHECK(g->percent);
  CHECK(g->threshold == 10);
  g = parse_gate("kernel \"void k<a > b>\" time >= 50us");
  REQUIRE(g.ok());
  CHECK(g->key == "void k<a > b>");
  CHECK(g->op == GateOp::kGreaterEqual);
  CHECK(g->unit_scale_us == 1);
  g = parse_gate("gpu_timeline.idle_time > +0.2ms");
  REQUIRE(g.ok());
  CHECK(g->key == "idle_time");
  CHECK(g->unit_scale_us == 1000);
  g = parse_gate("ops_summary[aten::add].Count > 0");
  REQUIRE(g.ok());
  CHECK(g->metric == "Count");
  const auto refused = [](const char* text, const char* words) {
    const Result<GateExpr> r = parse_gate(text);
    INFO(text);
    CHECK(r.code() == Code::bad_option_value);
    CHECK(r.message().find(words) != std::string::npos);
  };
  refused("total time >5%", "no comparison");
  refused("walltime > 5%", "unknown figure");
  refused("total time > 5 parsecs", "unknown unit");
}

TEST_CASE("evaluate_gate: relative and absolute changes, rows in one run only", "[diff]") {
  const Table base = ops({"aten::mm", "aten::gone"}, {2.0, 0.5}, {4, 1});
  const Table var = ops({"aten::mm", "aten::new"}, {2.3, 3.0}, {4, 1});
  std::vector<Table> compared;
  compared.push_back(*compare_sheet(base, var, *summary_sheet_spec("ops_summary"), {}, "ops_summary"));
  const auto eval = [&](const char* text) { return evaluate_gate(*parse_gate(text), compared, {}); };
  CHECK(eval("op aten::mm time > +10%").failed);           // +15 %
  CHECK_FALSE(eval("op aten::mm time > +20%").failed);
  CHECK(eval("op aten::mm time > +0.2ms").failed);         // +0.3 ms
  CHECK_FALSE(eval("op aten::mm time > +400us").failed);   // +300 µs
  CHECK(eval("op aten::new time > +50%").failed);           // new: +inf %
  CHECK(eval("op aten::gone time < -99%").failed);          // gone: −100 %
  CHECK(std::fabs(eval("op aten::mm time > +10%").change - 15.0) < 1e-9);
  const GateResult missing = eval("op aten::nothing time > +1%");
  CHECK(missing.error.code() == Code::gate_not_evaluable);
  CHECK_FALSE(missing.failed);
}
