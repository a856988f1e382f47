#include "writers/column_encoding.h"

#include <vector>

#include "base/json_text.h"

namespace sollens {

namespace {

// The column holds each distinct string once already: its codes are renumbered in the
// order the non-null rows first use them (a null row's code is not in the dictionary).
void encode_strings(const Column& col, EncodedColumn& e) {
  std::vector<int32_t> id_of_code(col.dictionary().size(), -1);
  int32_t next_id = 0;
  e.codes.resize(col.size());
  e.dictionary_json = "[";
  for (size_t r = 0; r < col.size(); ++r) {
    if (col.is_null(r)) {
      e.codes[r] = -1;
      continue;
    }
    const uint32_t code = col.string_code(r);
    if (id_of_code[code] < 0) {
      id_of_code[code] = next_id++;
      e.dictionary_json += (id_of_code[code] ? "," : "") + json_string(col.dictionary().at(code));
    }
    e.codes[r] = id_of_code[code];
  }
  e.dictionary_json += "]";
}

void encode_numbers(const Column& col, EncodedColumn& e) {
  e.numbers.resize(col.size());
  for (size_t r = 0; r < col.size(); ++r)
    e.numbers[r] = col.type() == ColumnType::kFloat ? col.float_at(r)
                                                    : static_cast<double>(col.int_at(r));
}

}  // namespace

EncodedColumn encode_column(const Column& column) {
  EncodedColumn e;
  if (column.type() == ColumnType::kString) encode_strings(column, e);
  else encode_numbers(column, e);
  return e;
}

}  // namespace sollens
