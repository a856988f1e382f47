#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "writers/json_writer.h"

using namespace sollens;

TEST_CASE("json_writer: rows as objects, typed values, nulls") {
  Table t("t", TableKind::kSummary);
  auto& s = t.add_column("name", ColumnType::kString);
  auto& i = t.add_column("n", ColumnType::kInt);
  auto& f = t.add_column("x", ColumnType::kFloat);
  auto& b = t.add_column("ok", ColumnType::kBool);
  s.push_string("a\"b\\c\n\x01é");
  i.push_int(-42);
  f.push_float(0.1);
  b.push_bool(true);
  s.push_null();
  i.push_null();
  f.push_float(std::numeric_limits<double>::quiet_NaN());
  b.push_bool(false);
  s.push_string("");
  i.push_int(7);
  f.push_float(std::numeric_limits<double>::infinity());
  b.push_null();
  s.push_string("z");
  i.push_int(0);
  f.push_float(3.0);
  b.push_bool(true);
  CHECK(to_json(t) ==
        "[\n"
        "{\"name\":\"a\\\"b\\\\c\\n\\u0001é\",\"n\":-42,\"x\":0.1,\"ok\":true},\n"
        "{\"name\":null,\"n\":null,\"x\":null,\"ok\":false},\n"
        "{\"name\":\"\",\"n\":7,\"x\":null,\"ok\":null},\n"
        "{\"name\":\"z\",\"n\":0,\"x\":3.0,\"ok\":true}\n"
        "]\n");
}

TEST_CASE("json_writer: empty table and tiny floats") {
  Table t("t", TableKind::kSummary);
  auto& f = t.add_column("x", ColumnType::kFloat);
  CHECK(to_json(t) == "[]\n");
  f.push_float(1e-7);
  CHECK(to_json(t) == "[\n{\"x\":1e-07}\n]\n");
  CHECK(json_string("\t\r\b\f\x7f") == "\"\\t\\r\\b\\f\\u007f\"");
}
