#pragma once
// The report as one .xlsx workbook (native CLI only): one worksheet per sheet, in order,
// with a bold frozen header row (cli/xlsx_sheet_xml.h), each compressed into the zip
// (minizip) as soon as it is written. Sheet names are made valid for Excel (at most 31
// characters, no []:*?/\, unique). Numbers are numbers; NaN and infinities and null
// cells are empty; integers beyond 2^53 and strings longer than Excel's 32,767-character
// cell limit are written as (truncated) text; XML-invalid control characters become
// U+FFFD.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "api/beside_task.h"
#include "table/table.h"

namespace sollens::cli {

// Returns an empty string on success, else what went wrong.
std::string write_xlsx(const std::string& path, const std::vector<const Table*>& sheets);

class XlsxWorkbook;

// write_xlsx on a thread of its own that takes the sheets as they are computed: the
// workbook is mostly written by the time the last sheet is done.
class XlsxJob {
 public:
  XlsxJob();
  ~XlsxJob();
  XlsxJob(const XlsxJob&) = delete;
  XlsxJob& operator=(const XlsxJob&) = delete;
  // The writer runs beside the caller (api/beside_task.h); without a thread to be had,
  // join() writes every sheet added.
  void start(std::string path);
  // The next sheet, in order; it must stay in place until join().
  void add(const Table& sheet);
  // No more sheets: the file is written while the caller goes on.
  void finish();
  // Waits for the file (finish() first if need be); returns the milliseconds waited.
  double join();
  const std::string& problem() const { return problem_; }  // after join()
  double ms() const { return ms_; }  // from start() to the file written

 private:
  void run();
  bool next(const Table*& sheet);  // false once finish() is called and every sheet is taken

  std::unique_ptr<XlsxWorkbook> book_;
  std::unique_ptr<BesideTask> writer_;
  std::mutex mutex_;
  std::condition_variable more_;
  std::deque<const Table*> queue_;
  bool done_ = false;
  std::string problem_;
  std::chrono::steady_clock::time_point started_;
  double ms_ = 0;
};

}  // namespace sollens::cli
