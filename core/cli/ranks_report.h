#pragma once
// sollens report with several traces (one per rank): each rank's own report in
// OUT/rank<k>/, and the cross-rank sheets (Session::ranks) in OUT/. Ranks are read in
// parallel, one per core, and only their summaries are kept once their report is written.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "api/session.h"
#include "cli/loaded_trace.h"

namespace sollens::cli {

// The report of one loaded trace into `out_dir` (CSV per sheet, report.json,
// report.xlsx), with its summary lines on `log`. 0, or the exit code of a failure.
int write_report_dir(const std::string& trace, const LoadedTrace& loaded, const ReportRequest& request,
                     const std::string& out_dir, bool write_json, bool write_xlsx_file, std::ostream& log);

bool is_directory(const std::string& path);
// Arguments to trace files: a folder gives its *.json and *.json.gz files, a pattern
// with * ? [ that names no file gives its matches; each set sorted. False, with the
// reason on stderr, when an argument gives no file.
bool resolve_traces(const std::vector<std::string>& inputs, std::vector<std::string>& traces);

// Each trace is read keeping only what the analyses need of it (its file's pages are
// dropped as they are parsed). `max_memory` (bytes; 0: no limit) caps how many ranks
// are read at once, from an estimate of each rank's peak (1.1 × its JSON size), and
// then each is parsed in one pass.
int run_ranks_report(const std::vector<std::string>& traces, const TreeOptions& tree_options,
                     const ReportRequest& request, const std::string& out_dir, bool write_json,
                     bool write_xlsx_file, uint64_t max_memory = 0);

}  // namespace sollens::cli
