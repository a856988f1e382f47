// sollens diff: two runs compared (TraceLens's compare sheets, an op-tree diff, a
// cycle diff), written as CSV + diff.json, and a CI gate on thresholds with a
// Markdown summary and JUnit XML.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "api/compare.h"
#include "api/command_options.h"
#include "cli/commands.h"
#include "cli/diagnostic_lines.h"
#include "cli/output_files.h"
#include "cli/loaded_trace.h"
#include "cli/read_file.h"
#include "cli/trace_args.h"
#include "writers/csv_writer.h"
#include "writers/diff_json.h"
#include "writers/diff_markdown.h"
#include "writers/gate_report.h"
#include "writers/report_json.h"

namespace sollens::cli {

namespace {

namespace fs = std::filesystem;

constexpr int kExitRegression = 4;

// The options of api/diff_flags.def and the two runs.
struct DiffOptions : DiffCliOptions {
  std::string baseline, variant;
};

// One side of the diff: a trace (kept loaded: the op-tree diffs read its events) or a
// stored report (its sheets only).
struct Run {
  std::unique_ptr<LoadedTrace> trace;
  DiffRun diff;
};

// Exit code 0 to go on, else the code to exit with.
int parse_diff_args(const std::vector<std::string>& args, DiffOptions& o) {
  DiffCliOptions& options = o;
  const ReadOption option = option_reader(args, options_in(diff_cli_options(), options));
  std::vector<std::string> inputs;
  if (!parse_runs_args("diff", args, option, inputs)) return 2;
  if (inputs.size() != 2) {
    print_error(Status(inputs.size() < 2 ? Code::missing_input : Code::too_many_inputs,
                       "diff needs two inputs, BASE and NEW (traces, report folders or report.json)"));
    return 2;
  }
  o.baseline = inputs[0];
  o.variant = inputs[1];
  return 0;
}

bool starts_like_report(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char head[256] = {};
  in.read(head, sizeof head);
  return looks_like_stored_report(std::string_view(head, static_cast<size_t>(in.gcount())));
}

bool read_report_file(const std::string& path, Run& run) {
  PaddedBuffer bytes;
  if (const Status read = read_file(path, bytes); !read.ok()) {
    print_error(read);
    return false;
  }
  Result<DiffRun> stored = read_stored_report(std::string_view(bytes.data(), bytes.size()));
  if (!stored.ok()) {
    print_error(Status(stored.code(), path + ": " + stored.message()));
    return false;
  }
  run.diff = std::move(*stored);
  return true;
}

bool read_run(const std::string& input, Run& run) {
  std::error_code ec;
  if (fs::is_directory(input, ec)) {
    const fs::path report = fs::path(input) / "report.json";
    if (!fs::exists(report, ec)) {
      print_error(Status(Code::file_unreadable,
                         input + " is a directory without report.json (write one with sollens report)"));
      return false;
    }
    return read_report_file(report.string(), run);
  }
  if (starts_like_report(input)) return read_report_file(input, run);
  run.trace = std::make_unique<LoadedTrace>();
  if (!load_and_model(input, {}, *run.trace)) return false;
  print_warnings(run.trace->session, std::cerr);
  run.diff = run.trace->session.diff_run();
  return true;
}

bool write_tables(const std::vector<Table>& tables, const DiffOptions& o) {
  if (!make_output_dir(o.out_dir)) return false;
  for (const Table& t : tables) {
    std::ofstream out(fs::path(o.out_dir) / (t.name() + ".csv"), std::ios::binary);
    if (out) write_csv(t, out);
    if (!out) {
      print_error(Status(Code::output_unwritable, "cannot write " + (fs::path(o.out_dir) / (t.name() + ".csv")).string()));
      return false;
    }
  }
  std::vector<const Table*> sheets;
  for (const Table& t : tables) sheets.push_back(&t);
  const std::string metadata =
      diff_metadata_json(std::string("sollens ") + kVersion, o.baseline, o.variant, o.tags);
  std::ofstream out(fs::path(o.out_dir) / "diff.json", std::ios::binary);
  if (out) write_report_json(metadata, sheets, out);
  if (!out) {
    print_error(Status(Code::output_unwritable, "cannot write " + (fs::path(o.out_dir) / "diff.json").string()));
    return false;
  }
  return true;
}

GateVerdict gate_verdict(const DiffResult& diff) {
  if (diff.gates_unevaluated()) return GateVerdict::kNotEvaluated;
  return diff.regression() ? GateVerdict::kRegression : GateVerdict::kWithin;
}

int exit_code(GateVerdict verdict) {
  switch (verdict) {
    case GateVerdict::kWithin: return 0;
    case GateVerdict::kRegression: return kExitRegression;
    case GateVerdict::kNotEvaluated: break;
  }
  return 1;
}

}  // namespace

int run_diff(const std::vector<std::string>& args) {
  DiffOptions o;
  if (const int code = parse_diff_args(args, o)) return code;
  Run base, var;
  if (!read_run(o.baseline, base) || !read_run(o.variant, var)) return 1;
  const DiffResult diff = Session::diff(base.diff, var.diff, DiffRequest{o.tags, o.gates});
  const std::vector<Table>& tables = diff.sheets;
  if (!write_tables(tables, o)) return 3;

  if (const std::string headline = diff.headline(); !headline.empty()) std::cout << headline << "\n";
  const std::vector<GateResult>& results = diff.gates;
  for (const GateResult& r : results) std::cout << gate_line(r) << "\n";
  const GateVerdict verdict = gate_verdict(diff);
  const int code = exit_code(verdict);
  std::ostringstream md, junit;
  write_diff_markdown(md, o.tags, tables, results, verdict);
  write_gate_junit(junit, results);
  if (!o.markdown.empty() && !write_text_file(o.markdown, md.str())) return 3;
  if (!o.junit.empty() && !write_text_file(o.junit, junit.str())) return 3;
  std::cerr << "sollens: diff " << o.tags.variant << " vs " << o.tags.baseline << ": " << tables.size()
            << " sheets in " << o.out_dir << (diff.traces_compared ? "" : " (a stored report: no op-tree or cycle diff)")
            << "\n";
  if (!results.empty())
    std::cerr << "sollens: gate: " << (code == 0 ? "within thresholds" : code == kExitRegression ? "regression" : "could not evaluate every threshold")
              << "\n";
  return code;
}

}  // namespace sollens::cli
