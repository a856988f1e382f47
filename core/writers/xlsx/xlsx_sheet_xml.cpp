#include "writers/xlsx/xlsx_sheet_xml.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>

namespace sollens::cli {

namespace {

constexpr int64_t kMaxExactInt = int64_t(1) << 53;  // a double holds every integer up to here
constexpr size_t kFlushBytes = size_t(256) << 10;
constexpr std::string_view kBoldStyle = " s=\"1\"";  // cellXfs entry 1 of styles.xml

void append_escaped(std::string& out, std::string_view s, bool quotes) {
  size_t plain = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const char* entity = c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;"
                                        : quotes && c == '"' ? "&quot;" : nullptr;
    if (!entity) continue;
    out.append(s.substr(plain, i - plain));
    out += entity;
    plain = i + 1;
  }
  out.append(s.substr(plain));
}

// A number as Excel stores it in the file: 16 significant digits (printf's %.16G).
void append_number(std::string& out, double v) {
  char buf[40];
  // Whole numbers below 1e15 (every integer column) print as their digits, and to_chars
  // of an integer is much cheaper than with a precision; -0 keeps its sign below.
  if (v > -1e15 && v < 1e15 && v != 0 && v == static_cast<double>(static_cast<int64_t>(v))) {
    out.append(buf, std::to_chars(buf, buf + sizeof buf, static_cast<int64_t>(v)).ptr);
    return;
  }
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 16);
  for (char* p = buf; p != r.ptr; ++p)
    if (*p == 'e') *p = 'E';
  out.append(buf, r.ptr);
}

void append_cell_ref(std::string& out, size_t row, size_t column) {
  append_column_letters(out, column);
  char buf[24];
  out.append(buf, std::to_chars(buf, buf + sizeof buf, row + 1).ptr);
}

bool is_c_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// <c> with an inline string; an empty one is a blank cell, kept only where it has a style.
void append_string_cell(std::string& out, size_t row, size_t column, std::string_view style,
                        std::string_view text) {
  if (text.empty() && style.empty()) return;
  out += "<c r=\"";
  append_cell_ref(out, row, column);
  out += '"';
  out += style;
  if (text.empty()) {
    out += "/>";
    return;
  }
  // Leading or trailing white space is kept only where the element says so.
  out += is_c_space(text.front()) || is_c_space(text.back()) ? " t=\"inlineStr\"><is><t xml:space=\"preserve\">"
                                                             : " t=\"inlineStr\"><is><t>";
  append_xml_text(out, text);
  out += "</t></is></c>";
}

void append_value_cell(std::string& out, size_t row, size_t column, std::string_view type, double number) {
  out += "<c r=\"";
  append_cell_ref(out, row, column);
  out += '"';
  out += type;
  out += "><v>";
  append_number(out, number);
  out += "</v></c>";
}

// Whether a data cell is written: not for a null, an empty string, NaN or infinity (the
// cell text of a non-empty string is never empty).
bool writes_cell(const Column& col, size_t r) {
  if (col.is_null(r)) return false;
  if (col.type() == ColumnType::kString) return !col.string_at(r).empty();
  if (col.type() == ColumnType::kFloat) return std::isfinite(col.float_at(r));
  return true;
}

// Whether xlsx_cell_text would return the text as it is (most cells): no copy needed.
bool is_cell_text(std::string_view s) {
  if (s.size() > kXlsxMaxCellBytes) return false;
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) return false;
  }
  return true;
}

void append_data_cell(std::string& out, size_t row, size_t column, const Column& col, size_t r) {
  if (!writes_cell(col, r)) return;
  switch (col.type()) {
    case ColumnType::kString: {
      const std::string& text = col.string_at(r);
      if (is_cell_text(text)) return append_string_cell(out, row, column, {}, text);
      return append_string_cell(out, row, column, {}, xlsx_cell_text(text));
    }
    case ColumnType::kInt: {
      const int64_t v = col.int_at(r);
      if (v >= -kMaxExactInt && v <= kMaxExactInt)
        return append_value_cell(out, row, column, {}, static_cast<double>(v));
      return append_string_cell(out, row, column, {}, std::to_string(v));  // beyond a double's integers
    }
    case ColumnType::kBool:
      return append_value_cell(out, row, column, " t=\"b\"", col.bool_at(r) ? 1 : 0);
    case ColumnType::kFloat:
      return append_value_cell(out, row, column, {}, col.float_at(r));
  }
}

// The last row with a cell written (0: the header only).
size_t last_written_row(const Table& t, size_t rows, size_t columns) {
  for (size_t r = rows; r > 0; --r)
    for (size_t c = 0; c < columns; ++c)
      if (writes_cell(t.column(c), r - 1)) return r;
  return 0;
}

void append_head(std::string& out, bool selected, size_t last_row, size_t columns) {
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
         "<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" "
         "xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\"><dimension ref=\"A1";
  if (last_row > 0 || columns > 1) {
    out += ':';
    append_cell_ref(out, last_row, columns == 0 ? 0 : columns - 1);
  }
  out += "\"/><sheetViews><sheetView ";
  if (selected) out += "tabSelected=\"1\" ";
  out += "workbookViewId=\"0\"><pane ySplit=\"1\" topLeftCell=\"A2\" activePane=\"bottomLeft\" state=\"frozen\"/>"
         "<selection pane=\"bottomLeft\"/></sheetView></sheetViews><sheetFormatPr defaultRowHeight=\"15\"/>";
}

}  // namespace

std::string xlsx_cell_text(std::string_view s) {
  std::string out;
  out.reserve(std::min(s.size(), kXlsxMaxCellBytes));
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (out.size() >= kXlsxMaxCellBytes && (c & 0xC0) != 0x80) break;  // cut before a lead byte
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) out += "\xEF\xBF\xBD";
    else out += static_cast<char>(c);
  }
  return out;
}

void append_xml_text(std::string& out, std::string_view s) { append_escaped(out, s, false); }
void append_xml_attribute(std::string& out, std::string_view s) { append_escaped(out, s, true); }

void append_column_letters(std::string& out, size_t column) {
  char letters[8];
  size_t n = 0;
  for (size_t c = column + 1; c > 0; c = (c - 1) / 26) letters[n++] = static_cast<char>('A' + (c - 1) % 26);
  while (n > 0) out += letters[--n];
}

void write_sheet_xml(const Table& t, bool selected, const std::function<void(std::string_view)>& out) {
  const size_t columns = std::min(t.num_columns(), kXlsxMaxColumns);
  const size_t rows = std::min(t.num_rows(), kXlsxMaxRows - 1);
  std::string xml;
  xml.reserve(kFlushBytes + (size_t(64) << 10));
  append_head(xml, selected, last_written_row(t, rows, columns), columns);
  if (columns == 0) {
    xml += "<sheetData/>";
  } else {
    xml += "<sheetData><row r=\"1\">";
    for (size_t c = 0; c < columns; ++c)
      append_string_cell(xml, 0, c, kBoldStyle, xlsx_cell_text(t.column(c).name()));
    xml += "</row>";
    for (size_t r = 0; r < rows; ++r) {
      const size_t row_start = xml.size();
      xml += "<row r=\"";
      char buf[24];
      xml.append(buf, std::to_chars(buf, buf + sizeof buf, r + 2).ptr);
      xml += "\">";
      const size_t cells_start = xml.size();
      for (size_t c = 0; c < columns; ++c) append_data_cell(xml, r + 1, c, t.column(c), r);
      if (xml.size() == cells_start) xml.resize(row_start);  // a row with no cell is not written
      else xml += "</row>";
      if (xml.size() >= kFlushBytes) {
        out(xml);
        xml.clear();
      }
    }
    xml += "</sheetData>";
  }
  xml += "<pageMargins left=\"0.7\" right=\"0.7\" top=\"0.75\" bottom=\"0.75\" header=\"0.3\" footer=\"0.3\"/></worksheet>";
  out(xml);
}

}  // namespace sollens::cli
