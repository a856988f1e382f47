#include "writers/json_writer.h"

#include <cmath>
#include <sstream>

#include "base/number_format.h"

namespace sollens {

namespace {

// json_string's text, appended: most cells need no escapes and are copied whole.
void append_json_string(std::string& out, std::string_view text) {
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\' || c < 0x20 || c == 0x7f) {
      out += json_string(text);
      return;
    }
  }
  out += '"';
  out += text;
  out += '"';
}

void append_value(std::string& out, const Column& col, size_t r) {
  if (col.is_null(r)) {
    out += "null";
    return;
  }
  switch (col.type()) {
    case ColumnType::kString: append_json_string(out, col.string_at(r)); return;
    case ColumnType::kInt: append_integer(out, col.int_at(r)); return;
    case ColumnType::kBool: out += col.bool_at(r) ? "true" : "false"; return;
    case ColumnType::kFloat: {
      const double v = col.float_at(r);
      if (std::isfinite(v)) out += format_python_float(v);
      else out += "null";
      return;
    }
  }
}

}  // namespace

// Rows gathered in one reused buffer and handed to the stream in large pieces (a stream
// insertion per cell costs more than the cell).
void write_json(const Table& table, std::ostream& out) {
  constexpr size_t kFlushAt = 1 << 16;
  std::vector<std::string> keys;
  for (size_t c = 0; c < table.num_columns(); ++c) keys.push_back(json_string(table.column(c).name()) + ':');
  std::string buffer;
  buffer.reserve(kFlushAt + 4096);
  buffer += '[';
  for (size_t r = 0; r < table.num_rows(); ++r) {
    buffer += r ? ",\n{" : "\n{";
    for (size_t c = 0; c < table.num_columns(); ++c) {
      if (c) buffer += ',';
      buffer += keys[c];
      append_value(buffer, table.column(c), r);
    }
    buffer += '}';
    if (buffer.size() >= kFlushAt) {
      out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      buffer.clear();
    }
  }
  buffer += table.num_rows() ? "\n]\n" : "]\n";
  out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
}

std::string to_json(const Table& table) {
  std::ostringstream s;
  write_json(table, s);
  return s.str();
}

}  // namespace sollens
