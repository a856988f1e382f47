#pragma once
// The report as one .xlsx workbook (libxlsxwriter, native CLI only): one worksheet per
// sheet, in order, with a bold frozen header row. Sheet names are made valid for Excel
// (at most 31 characters, no []:*?/\, unique). Numbers are numbers; NaN and infinities
// and null cells are empty; integers beyond 2^53 and strings longer than Excel's
// 32,767-character cell limit are written as (truncated) text; XML-invalid control
// characters become U+FFFD.
#include <string>
#include <thread>
#include <vector>

#include "table/table.h"

namespace sollens::cli {

// Returns an empty string on success, else what went wrong.
std::string write_xlsx(const std::string& path, const std::vector<const Table*>& sheets);

// write_xlsx on a thread of its own, beside the other writers.
class XlsxJob {
 public:
  XlsxJob() = default;
  ~XlsxJob() { join(); }
  XlsxJob(const XlsxJob&) = delete;
  XlsxJob& operator=(const XlsxJob&) = delete;
  // The sheets must outlive join(). Without a thread to be had, writes here and now.
  void start(std::string path, std::vector<const Table*> sheets);
  // Waits for the file; returns the milliseconds waited.
  double join();
  const std::string& problem() const { return problem_; }  // after join()
  double ms() const { return ms_; }  // the write's own wall time

 private:
  void run(const std::string& path, const std::vector<const Table*>& sheets);

  std::thread thread_;
  std::string problem_;
  double ms_ = 0;
};

// The worksheet names write_xlsx uses for these table names.
std::vector<std::string> xlsx_sheet_names(const std::vector<std::string>& table_names);

}  // namespace sollens::cli
