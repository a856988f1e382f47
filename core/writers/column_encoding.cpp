#include "writers/column_encoding.h"

#include <string_view>
#include <unordered_map>

#include "base/json_text.h"

namespace sollens {

namespace {

void encode_strings(const Column& col, EncodedColumn& e) {
  std::unordered_map<std::string_view, int32_t> ids;
  e.codes.resize(col.size());
  e.dictionary_json = "[";
  for (size_t r = 0; r < col.size(); ++r) {
    if (col.is_null(r)) {
      e.codes[r] = -1;
      continue;
    }
    const std::string& v = col.string_at(r);
    auto [pos, added] = ids.try_emplace(v, static_cast<int32_t>(ids.size()));
    if (added) e.dictionary_json += (pos->second ? "," : "") + json_string(v);
    e.codes[r] = pos->second;
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
