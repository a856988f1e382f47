// encode_column: a string column as the page receives it, codes numbered in the order
// the non-null rows first use each string, -1 for null; numbers as doubles.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "table/table.h"
#include "writers/column_encoding.h"

using namespace sollens;

TEST_CASE("encode_column: string codes in first use by non-null rows; nulls are -1 and not in the dictionary",
          "[writers][column_encoding]") {
  Table t("t", TableKind::kHta);
  Column& c = t.add_column("s", ColumnType::kString);
  c.push_null();  // the column holds "" for it, which no non-null row uses until row 4
  c.push_string("b");
  c.push_string("a");
  c.push_string("b");
  c.push_string("");
  c.push_null();
  c.push_string("\"q\"");
  const EncodedColumn e = encode_column(c);
  CHECK(e.codes == std::vector<int32_t>{-1, 0, 1, 0, 2, -1, 3});
  CHECK(e.dictionary_json == R"(["b","a","","\"q\""])");
  CHECK(e.numbers.empty());
}

TEST_CASE("encode_column: numbers as doubles, null cells 0", "[writers][column_encoding]") {
  Table t("t", TableKind::kHta);
  Column& i = t.add_column("i", ColumnType::kInt);
  i.push_int(3);
  i.push_null();
  i.push_int(-7);
  CHECK(encode_column(i).numbers == std::vector<double>{3, 0, -7});
  CHECK(encode_column(i).dictionary_json == "[]");
}
