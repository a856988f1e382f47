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

// PyTorch Execution Traces are named *_et.json[.gz] (execution-trace.md); TraceLens
// reports Kineto traces only, so an ET beside a Kineto trace is never a report's trace.
inline bool is_execution_trace_name(const std::string& name) {
  return name.ends_with("_et.json.gz") || name.ends_with("_et.json");
}

// The (trace, report) pairs of one directory: tracelens-report/ with the directory's
// only Kineto trace, tracelens-report-<stem>/ with the traces whose name contains <stem>.
inline void add_reports_of_directory(const fs::path& dir, std::vector<std::pair<fs::path, fs::path>>& out) {
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string n = e.path().filename().string();
    if (!e.is_directory() || !n.starts_with("tracelens-report")) continue;
    const std::string stem = n == "tracelens-report" ? "" : n.substr(std::string("tracelens-report-").size());
    for (const auto& t : fs::directory_iterator(dir)) {
      const std::string tn = t.path().filename().string();
      if (t.is_regular_file() && tn.ends_with(".json.gz") && !is_execution_trace_name(tn) &&
          tn.find(stem) != std::string::npos)
        out.emplace_back(t.path(), e.path());
    }
  }
}

// (trace, reference report) pairs of every fixture set, in the set's directory and in
// its subdirectories (a graph-capture trace under capture_traces/ with its own report).
inline std::vector<std::pair<fs::path, fs::path>> traces_with_reports() {
  std::vector<std::pair<fs::path, fs::path>> out;
  for (const auto& set : fs::directory_iterator(kTraces)) {
    if (!set.is_directory()) continue;
    add_reports_of_directory(set.path(), out);
    for (const auto& sub : fs::directory_iterator(set.path()))
      if (sub.is_directory() && !sub.path().filename().string().starts_with("tracelens-report"))
        add_reports_of_directory(sub.path(), out);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace sollens::test
