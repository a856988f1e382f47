#include "writers/json_writer.h"

#include <cmath>
#include <sstream>

#include "base/number_format.h"

namespace sollens {

void write_json(const Table& table, std::ostream& out) {
  std::vector<std::string> keys;
  for (size_t c = 0; c < table.num_columns(); ++c) keys.push_back(json_string(table.column(c).name()));
  out << '[';
  for (size_t r = 0; r < table.num_rows(); ++r) {
    out << (r ? ",\n{" : "\n{");
    for (size_t c = 0; c < table.num_columns(); ++c) {
      const Column& col = table.column(c);
      if (c) out << ',';
      out << keys[c] << ':';
      if (col.is_null(r)) {
        out << "null";
        continue;
      }
      switch (col.type()) {
        case ColumnType::kString: out << json_string(col.string_at(r)); break;
        case ColumnType::kInt: out << col.int_at(r); break;
        case ColumnType::kBool: out << (col.bool_at(r) ? "true" : "false"); break;
        case ColumnType::kFloat: {
          const double v = col.float_at(r);
          out << (std::isfinite(v) ? format_python_float(v) : std::string("null"));
          break;
        }
      }
    }
    out << '}';
  }
  out << (table.num_rows() ? "\n]\n" : "]\n");
}

std::string to_json(const Table& table) {
  std::ostringstream s;
  write_json(table, s);
  return s.str();
}

}  // namespace sollens
