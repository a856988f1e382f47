#pragma once
// Compares one of our CSV sheets with a TraceLens reference CSV by the rules of
// shared/tools/compare_report.py, made stricter: identical headers (names and order,
// duplicates compared by position), the same number of rows, and rows compared in
// order (sollens reproduces TraceLens's row order, ties included). A cell matches when
// it is equal after normalising Python reprs (tuples vs lists, np.float64(x), spaces),
// or when it and the reference are numbers within the tolerance, or when both are
// containers whose tokens match that way.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "support/reference_csv.h"

namespace sollens::test {

// Two numbers match when |x - y| <= rel * max(|x|, |y|) + abs.
struct Tolerance {
  double rel = 1e-6;
  double abs = 1e-9;
};

inline std::string norm_cell(std::string s) {
  // np.float64(x) -> x
  for (size_t p; (p = s.find("np.float64(")) != std::string::npos;) {
    const size_t close = s.find(')', p);
    if (close == std::string::npos) break;
    s = s.substr(0, p) + s.substr(p + 11, close - p - 11) + s.substr(close + 1);
  }
  std::string out;
  for (char c : s) {
    if (c == ' ') continue;
    out += c == '(' ? '[' : c == ')' ? ']' : c;
  }
  for (size_t p; (p = out.find(",]")) != std::string::npos;) out.erase(p, 1);
  return out;
}

inline bool as_number(const std::string& s, double& v) {
  if (s.empty()) return false;
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

inline std::vector<std::string> split_tokens(const std::string& s) {
  static const std::string kDelims = "[],:{}'\"";
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (kDelims.find(c) != std::string::npos) {
      out.push_back(cur);
      out.push_back(std::string(1, c));
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

inline bool numbers_close(const std::string& a, const std::string& b, Tolerance tol) {
  double x, y;
  if (!as_number(a, x) || !as_number(b, y)) return false;
  if (std::isnan(x) && std::isnan(y)) return true;
  return std::fabs(x - y) <= tol.rel * std::max(std::fabs(x), std::fabs(y)) + tol.abs;
}

inline bool cells_match(const std::string& ours, const std::string& ref, Tolerance tol = {}) {
  const std::string a = norm_cell(ours), b = norm_cell(ref);
  if (a == b) return true;
  double x;
  if (as_number(a, x) || as_number(b, x)) return numbers_close(a, b, tol);
  const auto ta = split_tokens(a), tb = split_tokens(b);
  if (ta.size() != tb.size()) return false;
  for (size_t i = 0; i < ta.size(); ++i)
    if (ta[i] != tb[i] && !numbers_close(ta[i], tb[i], tol)) return false;
  return true;
}

// Empty string when the sheets match, else what differs first. unordered: rows compared
// as multisets (both sides sorted first), for sheets whose tie order is not reproduced.
inline std::string compare_sheets(CsvRows ours, CsvRows ref, Tolerance tol = {}, bool unordered = false) {
  if (unordered) {
    auto sort_rows = [](CsvRows& rows) {
      if (rows.size() > 1) std::sort(rows.begin() + 1, rows.end());
    };
    sort_rows(ours);
    sort_rows(ref);
  }
  if (ours.empty() || ref.empty())
    return ours.size() == ref.size() ? "" : "one of the sheets is empty";
  if (ours[0] != ref[0]) return "headers differ";
  if (ours.size() != ref.size())
    return "rows " + std::to_string(ours.size() - 1) + " vs reference " + std::to_string(ref.size() - 1);
  for (size_t r = 1; r < ref.size(); ++r) {
    if (ours[r].size() != ref[r].size()) return "row " + std::to_string(r) + ": cell count";
    for (size_t c = 0; c < ref[r].size(); ++c)
      if (!cells_match(ours[r][c], ref[r][c], tol))
        return "row " + std::to_string(r) + " column '" + ref[0][c] + "': '" + ours[r][c].substr(0, 80) +
               "' vs '" + ref[r][c].substr(0, 80) + "'";
  }
  return "";
}

}  // namespace sollens::test
