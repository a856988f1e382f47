// Tables described without their cells, as the page reads them.
#include <catch2/catch.hpp>

#include "writers/table_description.h"

using namespace sollens;

namespace {

Table timeline() {
  Table t("gpu_timeline", TableKind::kTimeline);
  t.add_column("type", ColumnType::kString).push_string("busy_time");
  t.add_column("time ms", ColumnType::kFloat, Unit::kMilliseconds).push_float(1.5);
  return t;
}

}  // namespace

TEST_CASE("table description: name, kind, rows and each column's type and unit") {
  CHECK(table_description_json(7, timeline()) ==
        R"({"id":7,"name":"gpu_timeline","kind":"timeline","rows":1,"columns":[)"
        R"({"name":"type","type":"string","unit":""},{"name":"time ms","type":"float","unit":"ms"}]})");
}

TEST_CASE("table descriptions: one array, handles counted from the first") {
  std::vector<Table> tables;
  tables.push_back(timeline());
  Table counts("kernels \"x\"", TableKind::kSummary);
  counts.add_column("n", ColumnType::kInt);
  counts.add_column("ok", ColumnType::kBool, Unit::kMicroseconds);
  tables.push_back(std::move(counts));
  CHECK(table_descriptions_json(3, tables) ==
        R"([{"id":3,"name":"gpu_timeline","kind":"timeline","rows":1,"columns":[)"
        R"({"name":"type","type":"string","unit":""},{"name":"time ms","type":"float","unit":"ms"}]},)"
        R"({"id":4,"name":"kernels \"x\"","kind":"summary","rows":0,"columns":[)"
        R"({"name":"n","type":"int","unit":""},{"name":"ok","type":"bool","unit":"µs"}]}])");
  CHECK(table_descriptions_json(1, {}) == "[]");
}
