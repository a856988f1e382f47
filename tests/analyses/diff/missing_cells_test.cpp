// Compare sheets read cells as TraceLens's compare reads them back from the reports'
// workbooks: pandas turns a cell whose whole text is "None" (or another of read_excel's
// default NA strings) into NaN, so an absent stride is an empty cell, a missing key.
#include <catch2/catch.hpp>

#include "analyses/diff/table_compare.h"

using namespace sollens;

namespace {

// A roofline-like sheet: key `name` and `param: stride_output`, one value column.
Table strides(const std::vector<std::string>& names, const std::vector<std::string>& stride,
              const std::vector<double>& us) {
  Table t("BinaryElementwise", TableKind::kSummary);
  Column& n = t.add_column("name", ColumnType::kString);
  Column& s = t.add_column("param: stride_output", ColumnType::kString);
  Column& d = t.add_column("param: dtype", ColumnType::kString);
  Column& k = t.add_column("Kernel Time (µs)_sum", ColumnType::kFloat, Unit::kMicroseconds);
  for (size_t i = 0; i < names.size(); ++i) {
    n.push_string(names[i]);
    s.push_string(stride[i]);
    d.push_string("('c10::BFloat16', None)");  // "None" inside a text is kept
    k.push_float(us[i]);
  }
  return t;
}

}  // namespace

TEST_CASE("compare sheets: a 'None' cell is missing, as pandas reads it back", "[diff]") {
  const Table base = strides({"aten::add", "aten::mul"}, {"None", "(512, 1)"}, {10, 4});
  const Table var = strides({"aten::add", "aten::mul"}, {"None", "(512, 1)"}, {12, 4});
  SheetCompareSpec spec;
  spec.keys = {"name", "param: stride_output"};
  spec.diff_columns = {"Kernel Time (µs)_sum"};
  const Table t = *compare_sheet(base, var, spec, {"A", "B"}, "bin_eltwise");
  // The two "None" keys are both missing (NaN) and so pair: two rows, not three.
  REQUIRE(t.num_rows() == 2);
  const Column* stride = t.find("param: stride_output");
  REQUIRE(stride != nullptr);
  // pandas sorts the merge keys: aten::add before aten::mul.
  CHECK(t.find("name")->string_at(0) == "aten::add");
  CHECK(stride->is_null(0));  // written as an empty cell, not None
  CHECK(stride->string_at(1) == "(512, 1)");
  CHECK(t.find("Kernel Time (µs)_sum__B_diff")->float_at(0) == 2.0);  // 12 − 10
  CHECK(t.find("A::param: dtype")->string_at(0) == "('c10::BFloat16', None)");

  // A value column whose every cell reads back missing is left out of the split sheets.
  const Table only_none = strides({"aten::add"}, {"None"}, {10});
  const Table merged = *compare_sheet(only_none, only_none, spec, {"A", "B"}, "bin_eltwise");
  const std::vector<Table> split = split_compared_sheet(merged, spec, {"A", "B"}, "bin_eltwise");
  REQUIRE(split.size() == 3);
  CHECK(split[0].find("param: stride_output") == nullptr);
}
