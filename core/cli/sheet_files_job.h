#pragma once
// The report's per-sheet files, written on a thread of their own that takes each sheet
// as soon as it is computed: its CSV, then its worksheet in report.xlsx (compressed into
// the zip at once). By the time the last sheet is computed, nearly every file is written.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "api/beside_task.h"
#include "writers/xlsx/xlsx_writer.h"

namespace sollens::cli {

class SheetFilesJob {
 public:
  SheetFilesJob() = default;
  ~SheetFilesJob();
  SheetFilesJob(const SheetFilesJob&) = delete;
  SheetFilesJob& operator=(const SheetFilesJob&) = delete;

  // NAME.csv for every sheet in `dir`, and dir/report.xlsx when `workbook`. The writer
  // runs beside the caller (api/beside_task.h); without a thread to be had, join()
  // writes every sheet added.
  void start(std::filesystem::path dir, bool workbook);
  // The next sheet, in order; it must stay in place until join().
  void add(const Table& sheet);
  // No more sheets: the files are finished while the caller goes on.
  void finish();
  // Waits for the files (finish() first if need be); returns the milliseconds waited.
  double join();
  // The report failed: waits for the sheet being written, and leaves no workbook of part
  // of the sheets (the CSVs written stay). The destructor does this unless joined.
  void abandon();

  // After join():
  const std::string& problem() const { return problem_; }  // the first file not written, or ""
  const std::vector<std::filesystem::path>& csv_files() const { return csv_files_; }  // written, in order
  double csv_ms() const { return csv_ms_; }    // writing the CSVs, on the writer's thread
  double xlsx_ms() const { return xlsx_ms_; }  // writing report.xlsx, on the writer's thread
  const std::vector<Diagnostic>& notices() const { return notices_; }  // XlsxWorkbook::notices()

 private:
  void run();
  bool next(const Table*& sheet);  // false once finish() is called and every sheet is taken
  void write(const Table& sheet);

  std::filesystem::path dir_;
  std::optional<XlsxWorkbook> workbook_;
  std::unique_ptr<BesideTask> writer_;
  std::mutex mutex_;
  std::condition_variable more_;
  std::deque<const Table*> queue_;
  bool done_ = false;
  bool abandoned_ = false;  // abandon() called before the writer finished
  std::string problem_;
  std::vector<std::filesystem::path> csv_files_;
  std::vector<Diagnostic> notices_;
  double csv_ms_ = 0, xlsx_ms_ = 0;
};

}  // namespace sollens::cli
