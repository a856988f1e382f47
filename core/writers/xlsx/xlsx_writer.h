#pragma once
// The report as one .xlsx workbook (native CLI only): one worksheet per sheet, in order,
// with a bold frozen header row (writers/xlsx/xlsx_sheet_xml.h), each compressed into the zip
// (minizip) as soon as it is written. Sheet names are made valid for Excel (at most 31
// characters, no []:*?/\, unique). Numbers are numbers; NaN and infinities and null
// cells are empty; integers beyond 2^53 and strings longer than Excel's 32,767-character
// cell limit are written as (truncated) text; XML-invalid control characters become
// U+FFFD.
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "table/table.h"

namespace sollens::cli {

// A workbook written one worksheet at a time, each compressed into the zip as it is
// written. It is written as PATH.partial and renamed to PATH once complete, so that a
// failed or interrupted report never leaves a truncated workbook under the real name.
class XlsxWorkbook {
 public:
  explicit XlsxWorkbook(std::string path);
  ~XlsxWorkbook();  // abandon() unless closed
  XlsxWorkbook(const XlsxWorkbook&) = delete;
  XlsxWorkbook& operator=(const XlsxWorkbook&) = delete;
  void add(const Table& sheet);  // the next worksheet
  // Writes the rest of the file; returns what went wrong (from the first failure), or "".
  std::string close();
  void abandon();  // no workbook after all: what was written is removed
  // What a reader of the workbook should know: sheets cut at Excel's row or column limit.
  const std::vector<Diagnostic>& notices() const;  // xlsx_sheet_cut

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// The whole workbook at once. Returns an empty string on success, else what went wrong;
// `notices` (if given) receives XlsxWorkbook::notices().
std::string write_xlsx(const std::string& path, const std::vector<const Table*>& sheets,
                       std::vector<Diagnostic>* notices = nullptr);

}  // namespace sollens::cli
