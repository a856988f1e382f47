#include "cli/xlsx_writer.h"

#include <xlsxwriter.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <new>
#include <set>
#include <string_view>

#include "base/stopwatch.h"

namespace sollens::cli {

namespace {

constexpr size_t kMaxCellBytes = 32000;  // under Excel's 32,767 characters, on a UTF-8 boundary
constexpr double kMaxExactInt = 9007199254740992.0;  // 2^53

std::string cell_text(const std::string& s) {
  std::string out;
  out.reserve(std::min(s.size(), kMaxCellBytes));
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (out.size() >= kMaxCellBytes && (c & 0xC0) != 0x80) break;  // cut before a lead byte
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) out += "\xEF\xBF\xBD";
    else out += static_cast<char>(c);
  }
  return out;
}

// Sheet names valid for Excel and unique (compared case-insensitively, as Excel does),
// given one at a time in sheet order.
class SheetNamer {
 public:
  std::string next(const std::string& table_name) {
    std::string base;
    for (char c : table_name) base += std::string_view("[]:*?/\\").find(c) == std::string_view::npos ? c : '_';
    while (!base.empty() && base.front() == '\'') base.erase(base.begin());
    while (!base.empty() && base.back() == '\'') base.pop_back();
    if (base.empty()) base = "sheet";
    std::string candidate = fit(base, LXW_SHEETNAME_MAX);
    for (int k = 2; used_.count(lower(candidate)); ++k) {
      const std::string suffix = "~" + std::to_string(k);
      candidate = fit(base, LXW_SHEETNAME_MAX - suffix.size()) + suffix;
    }
    used_.insert(lower(candidate));
    return candidate;
  }

 private:
  static std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }
  // At most n bytes, cut before a UTF-8 sequence that would not fit whole.
  static std::string fit(std::string s, size_t n) {
    if (s.size() <= n) return s;
    s.resize(n);
    while (!s.empty() && (static_cast<unsigned char>(s.back()) & 0xC0) == 0x80) s.pop_back();
    if (!s.empty() && static_cast<unsigned char>(s.back()) >= 0xC0) s.pop_back();
    return s;
  }
  std::set<std::string> used_;
};

// One cell; LXW_NO_ERROR for cells left empty.
lxw_error write_cell(lxw_worksheet* ws, lxw_row_t row, lxw_col_t col_index, const Column& col, size_t r) {
  switch (col.type()) {
    case ColumnType::kString:
      return worksheet_write_string(ws, row, col_index, cell_text(col.string_at(r)).c_str(), nullptr);
    case ColumnType::kInt: {
      const int64_t v = col.int_at(r);
      if (std::fabs(static_cast<double>(v)) <= kMaxExactInt)
        return worksheet_write_number(ws, row, col_index, static_cast<double>(v), nullptr);
      return worksheet_write_string(ws, row, col_index, std::to_string(v).c_str(), nullptr);
    }
    case ColumnType::kBool:
      return worksheet_write_boolean(ws, row, col_index, col.bool_at(r) ? 1 : 0, nullptr);
    case ColumnType::kFloat: {
      const double v = col.float_at(r);
      return std::isfinite(v) ? worksheet_write_number(ws, row, col_index, v, nullptr) : LXW_NO_ERROR;
    }
  }
  return LXW_NO_ERROR;
}

}  // namespace

// A workbook written one worksheet at a time; the file is complete once closed.
class XlsxWorkbook {
 public:
  explicit XlsxWorkbook(std::string file) : path_(std::move(file)) {
    lxw_workbook_options options{};
    options.constant_memory = 1;  // rows go to temp files as written: flat memory on large sheets
    options.use_zip64 = 1;
    wb_ = workbook_new_opt(path_.c_str(), &options);
    if (!wb_) {
      problem_ = "cannot create " + path_;
      return;
    }
    bold_ = workbook_add_format(wb_);
    format_set_bold(bold_);
  }
  ~XlsxWorkbook() { close(); }
  XlsxWorkbook(const XlsxWorkbook&) = delete;
  XlsxWorkbook& operator=(const XlsxWorkbook&) = delete;

  void add(const Table& t) {
    if (!problem_.empty()) return;
    const std::string name = names_.next(t.name());
    lxw_worksheet* ws = workbook_add_worksheet(wb_, name.c_str());
    if (!ws) {
      problem_ = "cannot add worksheet '" + name + "'";
      return;
    }
    worksheet_freeze_panes(ws, 1, 0);
    const auto columns = static_cast<lxw_col_t>(std::min<size_t>(t.num_columns(), LXW_COL_MAX));
    for (lxw_col_t c = 0; c < columns; ++c)
      worksheet_write_string(ws, 0, c, cell_text(t.column(c).name()).c_str(), bold_);
    const size_t rows = std::min<size_t>(t.num_rows(), LXW_ROW_MAX - 1);
    for (size_t r = 0; r < rows; ++r) {
      for (lxw_col_t c = 0; c < columns; ++c) {
        const Column& col = t.column(c);
        if (col.is_null(r)) continue;
        const lxw_error err = write_cell(ws, static_cast<lxw_row_t>(r + 1), c, col, r);
        if (err != LXW_NO_ERROR && problem_.empty()) problem_ = "sheet '" + name + "': " + lxw_strerror(err);
      }
    }
  }

  // Writes the file and frees the workbook; returns what went wrong, or "".
  std::string close() {
    if (!wb_) return problem_;
    const lxw_error closed = workbook_close(wb_);
    wb_ = nullptr;
    if (problem_.empty() && closed != LXW_NO_ERROR) problem_ = "cannot write " + path_ + ": " + lxw_strerror(closed);
    return problem_;
  }

 private:
  lxw_workbook* wb_ = nullptr;
  lxw_format* bold_ = nullptr;
  SheetNamer names_;
  std::string path_;
  std::string problem_;
};

std::string write_xlsx(const std::string& path, const std::vector<const Table*>& sheets) {
  XlsxWorkbook book(path);
  for (const Table* t : sheets) book.add(*t);
  return book.close();
}

XlsxJob::XlsxJob() = default;
XlsxJob::~XlsxJob() { join(); }

void XlsxJob::start(std::string path) {
  started_ = std::chrono::steady_clock::now();
  book_ = std::make_unique<XlsxWorkbook>(std::move(path));
  writer_ = std::make_unique<BesideTask>([this] { run(); });
}

void XlsxJob::add(const Table& sheet) {
  if (!writer_) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(&sheet);
  }
  more_.notify_one();
}

bool XlsxJob::next(const Table*& sheet) {
  std::unique_lock<std::mutex> lock(mutex_);
  more_.wait(lock, [this] { return !queue_.empty() || done_; });
  if (queue_.empty()) return false;
  sheet = queue_.front();
  queue_.pop_front();
  return true;
}

void XlsxJob::run() {
  const Table* sheet = nullptr;
  try {
    while (next(sheet)) book_->add(*sheet);
    problem_ = book_->close();  // the zip: the largest part of the work
  } catch (const std::bad_alloc&) {
    problem_ = "out of memory while writing report.xlsx";
  }
  ms_ = ms_since(started_);
}

void XlsxJob::finish() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  more_.notify_one();
}

double XlsxJob::join() {
  const auto t0 = std::chrono::steady_clock::now();
  if (!writer_) return 0;
  finish();
  writer_->wait();
  writer_.reset();
  book_.reset();
  return ms_since(t0);
}

}  // namespace sollens::cli
