#include <catch2/catch.hpp>

#include "table/table.h"
#include "writers/csv_writer.h"

using namespace sollens;

TEST_CASE("CSV: header, minimal quoting, empty nulls, Python booleans") {
  Table t("sheet", TableKind::kSummary);
  Column& name = t.add_column("name", ColumnType::kString);
  Column& n = t.add_column("Count", ColumnType::kInt);
  Column& x = t.add_column("Kernel Time (µs)_sum", ColumnType::kFloat);
  Column& b = t.add_column("has_perf_model", ColumnType::kBool);
  name.push_string("aten::mm");
  n.push_int(3);
  x.push_float(1.5);
  b.push_bool(true);
  name.push_string("void f<int, \"q\">(x)\n");
  n.push_null();
  x.push_null();
  b.push_bool(false);
  CHECK(to_csv(t) ==
        "name,Count,Kernel Time (µs)_sum,has_perf_model\n"
        "aten::mm,3,1.5,True\n"
        "\"void f<int, \"\"q\"\">(x)\n\",,,False\n");
}
