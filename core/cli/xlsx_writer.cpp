#include "cli/xlsx_writer.h"

#include <xlsxwriter.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <string_view>
#include <system_error>

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

}  // namespace

std::vector<std::string> xlsx_sheet_names(const std::vector<std::string>& table_names) {
  std::vector<std::string> out;
  std::set<std::string> used;  // Excel compares sheet names case-insensitively
  auto lower = [](std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  for (const std::string& name : table_names) {
    std::string base;
    for (char c : name) base += std::string_view("[]:*?/\\").find(c) == std::string_view::npos ? c : '_';
    while (!base.empty() && base.front() == '\'') base.erase(base.begin());
    while (!base.empty() && base.back() == '\'') base.pop_back();
    if (base.empty()) base = "sheet";
    auto fit = [](std::string s, size_t n) {
      if (s.size() <= n) return s;
      s.resize(n);
      while (!s.empty() && (static_cast<unsigned char>(s.back()) & 0xC0) == 0x80) s.pop_back();
      if (!s.empty() && static_cast<unsigned char>(s.back()) >= 0xC0) s.pop_back();
      return s;
    };
    std::string candidate = fit(base, LXW_SHEETNAME_MAX);
    for (int k = 2; used.count(lower(candidate)); ++k) {
      const std::string suffix = "~" + std::to_string(k);
      candidate = fit(base, LXW_SHEETNAME_MAX - suffix.size()) + suffix;
    }
    used.insert(lower(candidate));
    out.push_back(candidate);
  }
  return out;
}

std::string write_xlsx(const std::string& path, const std::vector<const Table*>& sheets) {
  lxw_workbook_options options{};
  options.constant_memory = 1;  // rows go to temp files as written: flat memory on large sheets
  options.use_zip64 = 1;
  lxw_workbook* wb = workbook_new_opt(path.c_str(), &options);
  if (!wb) return "cannot create " + path;
  lxw_format* bold = workbook_add_format(wb);
  format_set_bold(bold);

  std::vector<std::string> names;
  for (const Table* t : sheets) names.push_back(t->name());
  names = xlsx_sheet_names(names);
  std::string problem;
  for (size_t s = 0; s < sheets.size() && problem.empty(); ++s) {
    const Table& t = *sheets[s];
    lxw_worksheet* ws = workbook_add_worksheet(wb, names[s].c_str());
    if (!ws) {
      problem = "cannot add worksheet '" + names[s] + "'";
      break;
    }
    worksheet_freeze_panes(ws, 1, 0);
    for (size_t c = 0; c < t.num_columns() && c < LXW_COL_MAX; ++c)
      worksheet_write_string(ws, 0, static_cast<lxw_col_t>(c), cell_text(t.column(c).name()).c_str(), bold);
    const size_t rows = std::min<size_t>(t.num_rows(), LXW_ROW_MAX - 1);
    for (size_t r = 0; r < rows; ++r) {
      const auto row = static_cast<lxw_row_t>(r + 1);
      for (size_t c = 0; c < t.num_columns() && c < LXW_COL_MAX; ++c) {
        const Column& col = t.column(c);
        if (col.is_null(r)) continue;
        const auto cc = static_cast<lxw_col_t>(c);
        lxw_error err = LXW_NO_ERROR;
        switch (col.type()) {
          case ColumnType::kString:
            err = worksheet_write_string(ws, row, cc, cell_text(col.string_at(r)).c_str(), nullptr);
            break;
          case ColumnType::kInt: {
            const int64_t v = col.int_at(r);
            if (std::fabs(static_cast<double>(v)) <= kMaxExactInt)
              err = worksheet_write_number(ws, row, cc, static_cast<double>(v), nullptr);
            else
              err = worksheet_write_string(ws, row, cc, std::to_string(v).c_str(), nullptr);
            break;
          }
          case ColumnType::kBool:
            err = worksheet_write_boolean(ws, row, cc, col.bool_at(r) ? 1 : 0, nullptr);
            break;
          case ColumnType::kFloat: {
            const double v = col.float_at(r);
            if (std::isfinite(v)) err = worksheet_write_number(ws, row, cc, v, nullptr);
            break;
          }
        }
        if (err != LXW_NO_ERROR && problem.empty())
          problem = "sheet '" + names[s] + "': " + lxw_strerror(err);
      }
    }
  }
  const lxw_error closed = workbook_close(wb);  // writes the file; frees the workbook
  if (!problem.empty()) return problem;
  if (closed != LXW_NO_ERROR) return "cannot write " + path + ": " + lxw_strerror(closed);
  return {};
}

void XlsxJob::run(const std::string& path, const std::vector<const Table*>& sheets) {
  const auto t0 = std::chrono::steady_clock::now();
  problem_ = write_xlsx(path, sheets);
  ms_ = ms_since(t0);
}

void XlsxJob::start(std::string path, std::vector<const Table*> sheets) {
  try {
    thread_ = std::thread([this, path = std::move(path), sheets = std::move(sheets)] { run(path, sheets); });
  } catch (const std::system_error&) {
    run(path, sheets);
  }
}

double XlsxJob::join() {
  const auto t0 = std::chrono::steady_clock::now();
  if (thread_.joinable()) thread_.join();
  return ms_since(t0);
}

}  // namespace sollens::cli
