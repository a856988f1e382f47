#include "writers/csv_writer.h"

#include <sstream>

#include "base/number_format.h"

namespace sollens {

namespace {

// One pass over the text (find_first_of searches the four characters once per text character).
bool needs_quotes(std::string_view text) {
  for (const char c : text)
    if (c == ',' || c == '"' || c == '\n' || c == '\r') return true;
  return false;
}

void append_csv_field(std::string& out, std::string_view text) {
  if (!needs_quotes(text)) {
    out += text;
    return;
  }
  out += '"';
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

void append_cell(std::string& out, const Column& c, size_t row) {
  if (c.is_null(row)) return;
  switch (c.type()) {
    case ColumnType::kString: append_csv_field(out, c.string_at(row)); return;
    case ColumnType::kInt: append_integer(out, c.int_at(row)); return;
    case ColumnType::kFloat: out += format_python_float(c.float_at(row)); return;
    case ColumnType::kBool: out += c.bool_at(row) ? "True" : "False"; return;
  }
}

}  // namespace

std::string csv_field(std::string_view text) {
  std::string out;
  append_csv_field(out, text);
  return out;
}

// Rows gathered in one reused buffer and handed to the stream in large pieces: a string
// and a stream insertion per cell cost more than the cells (sheets reach 100k rows).
void write_csv(const Table& table, std::ostream& out) {
  constexpr size_t kFlushAt = 1 << 16;
  std::string buffer;
  buffer.reserve(kFlushAt + 4096);
  for (size_t i = 0; i < table.num_columns(); ++i) {
    if (i) buffer += ',';
    append_csv_field(buffer, table.column(i).name());
  }
  buffer += '\n';
  for (size_t r = 0; r < table.num_rows(); ++r) {
    for (size_t i = 0; i < table.num_columns(); ++i) {
      if (i) buffer += ',';
      append_cell(buffer, table.column(i), r);
    }
    buffer += '\n';
    if (buffer.size() >= kFlushAt) {
      out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      buffer.clear();
    }
  }
  out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
}

std::string to_csv(const Table& table) {
  std::ostringstream out;
  write_csv(table, out);
  return out.str();
}

}  // namespace sollens
