// The Markdown summary of a diff on a hand-made compared gpu_timeline; the expected
// text is written out below.
#include <catch2/catch.hpp>

#include <sstream>

#include "writers/diff_markdown.h"

using namespace sollens;

namespace {

// gpu_timeline compared as Session::diff tags it: total_time grew 10 → 12.5 ms, idle
// time shrank 2 → 1 ms (not listed: only what grew is).
Table compared_timeline() {
  Table t("gpu_timeline", TableKind::kTimeline);
  Column& type = t.add_column("type", ColumnType::kString);
  Column& base = t.add_column("main::time ms", ColumnType::kFloat);
  Column& var = t.add_column("pr::time ms", ColumnType::kFloat);
  Column& diff = t.add_column("time ms__pr_diff", ColumnType::kFloat);
  for (const auto& [name, b, v] : {std::tuple{"idle_time", 2.0, 1.0}, std::tuple{"total_time", 10.0, 12.5}}) {
    type.push_string(name);
    base.push_float(b);
    var.push_float(v);
    diff.push_float(v - b);
  }
  return t;
}

}  // namespace

TEST_CASE("diff markdown: the verdict, the gates and what grew") {
  std::vector<Table> sheets;
  sheets.push_back(compared_timeline());
  GateResult gate;
  gate.expr.text = "total time > +10%";
  gate.expr.percent = true;
  gate.baseline = 10;
  gate.variant = 12.5;
  gate.change = 25;
  gate.failed = true;
  std::ostringstream md;
  write_diff_markdown(md, CompareTags{"main", "pr"}, sheets, {gate}, GateVerdict::kRegression);
  CHECK(md.str() ==
        "## sollens diff: pr vs main\n\n❌ regression\n"
        "\n| gate | main | pr | change | result |\n|---|---:|---:|---:|---|\n"
        "| `total time > +10%` | 10 | 12.5 | +25% | ❌ fail |\n"
        "\n### GPU time (ms) that grew\n\n| type | main | pr | change |\n|---|---:|---:|---:|\n"
        "| total_time | 10 | 12.5 | +2.5 |\n");
}

TEST_CASE("diff markdown: no gates, nothing grew") {
  std::ostringstream md;
  write_diff_markdown(md, CompareTags{}, {}, {}, GateVerdict::kWithin);
  CHECK(md.str() == "## sollens diff: variant vs baseline\n\n✅ within thresholds\n");
}
