#include "writers/xlsx/xlsx_writer.h"

#include <zip.h>  // minizip

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <set>
#include <string_view>

#include "base/stopwatch.h"
#include "writers/xlsx/xlsx_package.h"
#include "writers/xlsx/xlsx_sheet_xml.h"

namespace sollens::cli {

namespace {

constexpr size_t kMaxSheetNameBytes = 31;
// zlib's fastest level: owlv2's workbook is 275 KB against 226 KB at the default level,
// and the whole report takes 7% less CPU.
constexpr int kDeflateLevel = 1;

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
    std::string candidate = fit(base, kMaxSheetNameBytes);
    for (int k = 2; used_.count(lower(candidate)); ++k) {
      const std::string suffix = "~" + std::to_string(k);
      candidate = fit(base, kMaxSheetNameBytes - suffix.size()) + suffix;
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

std::string utc_now_w3cdtf() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
}

}  // namespace

class XlsxWorkbook::Impl {
 public:
  explicit Impl(std::string file) : path_(std::move(file)), partial_(path_ + ".partial") {
    errno = 0;
    zip_ = zipOpen64(partial_.c_str(), APPEND_STATUS_CREATE);
    if (!zip_) problem_ = "cannot create " + path_ + reason(errno);
  }
  ~Impl() { abandon(); }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  void add(const Table& t) {
    if (!problem_.empty()) return;
    const size_t index = names_.size();
    names_.push_back(namer_.next(t.name()));
    if (!open_part(xlsx_worksheet_path(index))) return;
    write_sheet_xml(t, index == 0, [this](std::string_view piece) { write(piece); });
    close_part();
    if (t.num_rows() > kXlsxMaxRows - 1 || t.num_columns() > kXlsxMaxColumns)
      notices_.push_back({Code::xlsx_sheet_cut, "report.xlsx: sheet " + t.name() + " has " + std::to_string(t.num_rows()) + " rows and " +
                         std::to_string(t.num_columns()) + " columns; Excel holds " +
                         std::to_string(kXlsxMaxRows - 1) + " rows under the header and " +
                         std::to_string(kXlsxMaxColumns) + " columns, so the worksheet stops there (the CSV has all)"});
  }
  const std::vector<Diagnostic>& notices() const { return notices_; }

  // Writes the parts around the worksheets and the zip's directory; returns what went
  // wrong, or "".
  std::string close() {
    if (!zip_) return problem_;
    for (const auto& [path, text] : xlsx_package_parts(names_, utc_now_w3cdtf())) {
      if (!problem_.empty() || !open_part(path)) break;
      write(text);
      close_part();
    }
    if (zipClose(zip_, nullptr) != ZIP_OK) fail();
    zip_ = nullptr;
    if (problem_.empty() && std::rename(partial_.c_str(), path_.c_str()) != 0) fail(errno);
    if (!problem_.empty()) std::remove(partial_.c_str());
    return problem_;
  }

  // Stops without a workbook: the partial file is removed.
  void abandon() {
    if (!zip_) return;
    zipClose(zip_, nullptr);
    zip_ = nullptr;
    std::remove(partial_.c_str());
  }

 private:
  bool open_part(const std::string& path) {
    zip_fileinfo info{};
    info.tmz_date.tm_year = 1980;  // a fixed time: the same report gives the same bytes
    info.tmz_date.tm_mday = 1;
    if (zipOpenNewFileInZip64(zip_, path.c_str(), &info, nullptr, 0, nullptr, 0, nullptr, Z_DEFLATED,
                              kDeflateLevel, /*zip64=*/1) != ZIP_OK)
      fail();
    return problem_.empty();
  }
  void write(std::string_view bytes) {
    if (problem_.empty() && zipWriteInFileInZip(zip_, bytes.data(), static_cast<unsigned>(bytes.size())) != ZIP_OK)
      fail();
  }
  void close_part() {
    if (zipCloseFileInZip(zip_) != ZIP_OK) fail();
  }
  void fail(int error = 0) {
    if (problem_.empty()) problem_ = "cannot write " + path_ + reason(error);
  }
  static std::string reason(int error) { return error ? std::string(": ") + std::strerror(error) : ""; }

  zipFile zip_ = nullptr;
  SheetNamer namer_;
  std::vector<std::string> names_;
  std::vector<Diagnostic> notices_;
  std::string path_, partial_;
  std::string problem_;
};

std::string write_xlsx(const std::string& path, const std::vector<const Table*>& sheets,
                       std::vector<Diagnostic>* notices) {
  XlsxWorkbook book(path);
  for (const Table* t : sheets) book.add(*t);
  if (notices) *notices = book.notices();
  return book.close();
}

XlsxWorkbook::XlsxWorkbook(std::string path) : impl_(std::make_unique<Impl>(std::move(path))) {}
XlsxWorkbook::~XlsxWorkbook() = default;
void XlsxWorkbook::add(const Table& sheet) { impl_->add(sheet); }
std::string XlsxWorkbook::close() { return impl_->close(); }
void XlsxWorkbook::abandon() { impl_->abandon(); }
const std::vector<Diagnostic>& XlsxWorkbook::notices() const { return impl_->notices(); }

}  // namespace sollens::cli
