#pragma once
// The parts of an .xlsx package around its worksheets (Office Open XML, ECMA-376):
// content types, relationships, the workbook with its sheet names, styles (the normal
// font and the header's bold), and the document properties.
#include <string>
#include <utility>
#include <vector>

namespace sollens::cli {

// Each part's path in the zip and its text, for a workbook of `sheet_names` in order
// (their worksheets are xl/worksheets/sheet1.xml, sheet2.xml, ...). `created` is the
// W3CDTF time of docProps/core.xml, e.g. 2026-11-27T03:31:04Z.
std::vector<std::pair<std::string, std::string>> xlsx_package_parts(const std::vector<std::string>& sheet_names,
                                                                     const std::string& created);

std::string xlsx_worksheet_path(size_t index);  // 0 → xl/worksheets/sheet1.xml

}  // namespace sollens::cli
