#pragma once
// One sheet as a SpreadsheetML worksheet part (xl/worksheets/sheetN.xml): a bold,
// frozen header row, then one row per table row with inline strings, as Excel and
// libxlsxwriter's constant-memory mode write them. Written in pieces to `out`, so that
// a sheet of millions of rows never sits in memory whole.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "table/table.h"

namespace sollens::cli {

// Excel's limits: rows per sheet (the header included), columns, bytes of a cell kept.
inline constexpr size_t kXlsxMaxRows = 1048576;
inline constexpr size_t kXlsxMaxColumns = 16384;
inline constexpr size_t kXlsxMaxCellBytes = 32000;  // under 32,767 characters, cut on a UTF-8 boundary

// `selected`: the sheet Excel shows first (the workbook's first).
void write_sheet_xml(const Table& table, bool selected, const std::function<void(std::string_view)>& out);

// Text as a cell holds it: at most kXlsxMaxCellBytes, control characters XML 1.0 cannot
// carry (all but tab, newline, carriage return) replaced by U+FFFD.
std::string xlsx_cell_text(std::string_view s);

// `s` with & < > escaped, as element text; append_xml_attribute also escapes ".
void append_xml_text(std::string& out, std::string_view s);
void append_xml_attribute(std::string& out, std::string_view s);

// Excel's column letters: 0 → A, 25 → Z, 26 → AA.
void append_column_letters(std::string& out, size_t column);

}  // namespace sollens::cli
