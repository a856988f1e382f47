#include "cli/sheet_files_job.h"

#include <exception>
#include <fstream>
#include <new>
#include <string>

#include "base/stopwatch.h"
#include "writers/csv_writer.h"

namespace sollens::cli {

SheetFilesJob::~SheetFilesJob() { abandon(); }

void SheetFilesJob::abandon() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    abandoned_ = true;
  }
  join();
}

void SheetFilesJob::start(std::filesystem::path dir, bool workbook) {
  dir_ = std::move(dir);
  if (workbook) workbook_.emplace((dir_ / "report.xlsx").string());
  writer_ = std::make_unique<BesideTask>([this] { run(); });
}

void SheetFilesJob::add(const Table& sheet) {
  if (!writer_) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(&sheet);
  }
  more_.notify_one();
}

bool SheetFilesJob::next(const Table*& sheet) {
  std::unique_lock<std::mutex> lock(mutex_);
  more_.wait(lock, [this] { return !queue_.empty() || done_; });
  if (queue_.empty()) return false;
  sheet = queue_.front();
  queue_.pop_front();
  return true;
}

// After a file fails, nothing more is written: the command exits with that message.
void SheetFilesJob::write(const Table& sheet) {
  if (!problem_.empty()) return;
  auto t0 = std::chrono::steady_clock::now();
  const auto path = dir_ / (sheet.name() + ".csv");
  std::ofstream out(path, std::ios::binary);
  if (out) write_csv(sheet, out);
  if (out) out.close();
  if (!out) {
    problem_ = "cannot write " + path.string();
    return;
  }
  csv_files_.push_back(path);
  csv_ms_ += ms_since(t0);
  if (!workbook_) return;
  t0 = std::chrono::steady_clock::now();
  workbook_->add(sheet);
  xlsx_ms_ += ms_since(t0);
}

void SheetFilesJob::run() {
  const Table* sheet = nullptr;
  try {
    while (next(sheet)) write(*sheet);
    bool abandoned = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      abandoned = abandoned_;
    }
    if (workbook_ && (abandoned || !problem_.empty())) {
      workbook_->abandon();  // a CSV failed, or the report: no workbook of some of the sheets
    } else if (workbook_) {
      const auto t0 = std::chrono::steady_clock::now();
      notices_ = workbook_->notices();
      problem_ = workbook_->close();
      xlsx_ms_ += ms_since(t0);
    }
  } catch (const std::bad_alloc&) {
    problem_ = "out of memory while writing the report's files";
  } catch (const std::exception& e) {  // nothing may leave this thread: join() runs in a destructor
    problem_ = std::string("cannot write the report's files: ") + e.what();
  }
}

void SheetFilesJob::finish() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  more_.notify_one();
}

double SheetFilesJob::join() {
  const auto t0 = std::chrono::steady_clock::now();
  if (!writer_) return 0;
  finish();
  writer_->wait();
  writer_.reset();
  workbook_.reset();
  return ms_since(t0);
}

}  // namespace sollens::cli
