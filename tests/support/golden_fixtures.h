#pragma once
// The bundled fixtures for the golden tests: each trace with its TraceLens report.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace sollens::test {

namespace fs = std::filesystem;

inline const fs::path kTraces = fs::path(SOLLENS_FIXTURES_DIR) / "traces";

inline std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// (trace, reference report) pairs: tracelens-report/ beside a set's only trace, or
// tracelens-report-<stem>/ for the trace whose name starts with <stem>.
inline std::vector<std::pair<fs::path, fs::path>> traces_with_reports() {
  std::vector<std::pair<fs::path, fs::path>> out;
  for (const auto& set : fs::directory_iterator(kTraces)) {
    if (!set.is_directory()) continue;
    for (const auto& e : fs::directory_iterator(set.path())) {
      const std::string n = e.path().filename().string();
      if (!e.is_directory() || !n.starts_with("tracelens-report")) continue;
      const std::string stem = n == "tracelens-report" ? "" : n.substr(std::string("tracelens-report-").size());
      for (const auto& t : fs::directory_iterator(set.path())) {
        const std::string tn = t.path().filename().string();
        if (t.is_regular_file() && tn.ends_with(".json.gz") && tn.starts_with(stem))
          out.emplace_back(t.path(), e.path());
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace sollens::test
