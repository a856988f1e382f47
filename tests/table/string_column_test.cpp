// A table's string column holds each distinct string once: rows, nulls, copies and
// many distinct strings read back as written.
#include <catch2/catch.hpp>

#include <string>

#include "table/table.h"

using namespace sollens;

TEST_CASE("string rows read back as written; nulls read as empty and invalid", "[table][string_column]") {
  Table t("t", TableKind::kHta);
  Column& c = t.add_column("s", ColumnType::kString);
  c.push_string("gemm");
  c.push_null();
  c.push_string("");
  c.push_string("gemm");
  c.push_string(std::string(300, 'x'));
  REQUIRE(c.size() == 5);
  CHECK(c.string_at(0) == "gemm");
  CHECK(c.is_null(1));
  CHECK(c.string_at(1).empty());
  CHECK_FALSE(c.is_null(2));
  CHECK(c.string_at(2).empty());
  CHECK(c.string_at(3) == "gemm");
  CHECK(c.string_at(4) == std::string(300, 'x'));
  CHECK(&c.string_at(0) == &c.string_at(3));  // held once
}

TEST_CASE("many distinct strings keep their rows through the dictionary's growth, and a copy reads the same",
          "[table][string_column]") {
  StringDictionary d;
  for (int i = 0; i < 5000; ++i) CHECK(d.code_of("name " + std::to_string(i)) == uint32_t(i));
  for (int i = 4999; i >= 0; --i) CHECK(d.code_of("name " + std::to_string(i)) == uint32_t(i));
  CHECK(d.size() == 5000);

  Table t("t", TableKind::kHta);
  Column& c = t.add_column("s", ColumnType::kString);
  for (int i = 0; i < 3000; ++i) c.push_string("k" + std::to_string(i % 1000));
  const Table copy = t;
  const Table moved = std::move(t);
  for (const Table* x : {&copy, &moved}) {
    const Column& col = x->column(0);
    REQUIRE(col.size() == 3000);
    for (int i = 0; i < 3000; i += 7) CHECK(col.string_at(i) == "k" + std::to_string(i % 1000));
  }
}
