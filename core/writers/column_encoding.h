#pragma once
// A column converted once for a JavaScript front end: numbers (int, float, bool) as
// doubles, strings dictionary-encoded. Validity stays the column's own mask.
#include <cstdint>
#include <string>
#include <vector>

#include "table/table.h"

namespace sollens {

struct EncodedColumn {
  std::vector<double> numbers;  // numeric columns; null cells hold 0; ints exact up to 2^53
  std::vector<int32_t> codes;   // string columns: index into the dictionary, -1 = null
  std::string dictionary_json = "[]";  // the distinct strings, in first-seen order
};

EncodedColumn encode_column(const Column& column);

}  // namespace sollens
