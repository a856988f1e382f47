#include "writers/csv_writer.h"

#include <sstream>

#include "base/number_format.h"

namespace sollens {

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

static std::string cell(const Column& c, size_t row) {
  if (c.is_null(row)) return "";
  switch (c.type()) {
    case ColumnType::kString: return csv_field(c.string_at(row));
    case ColumnType::kInt: return std::to_string(c.int_at(row));
    case ColumnType::kFloat: return format_python_float(c.float_at(row));
    case ColumnType::kBool: return c.bool_at(row) ? "True" : "False";
  }
  return "";
}

void write_csv(const Table& table, std::ostream& out) {
  for (size_t i = 0; i < table.num_columns(); ++i)
    out << (i ? "," : "") << csv_field(table.column(i).name());
  out << '\n';
  for (size_t r = 0; r < table.num_rows(); ++r) {
    for (size_t i = 0; i < table.num_columns(); ++i)
      out << (i ? "," : "") << cell(table.column(i), r);
    out << '\n';
  }
}

std::string to_csv(const Table& table) {
  std::ostringstream out;
  write_csv(table, out);
  return out.str();
}

}  // namespace sollens
