// sollens diff: two runs compared (TraceLens's compare sheets, an op-tree diff, a
// cycle diff), written as CSV + diff.json, and a CI gate on thresholds with a
// Markdown summary and JUnit XML.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "api/compare.h"
#include "api/command_options.h"
#include "cli/commands.h"
#include "cli/output_files.h"
#include "cli/loaded_trace.h"
#include "cli/read_file.h"
#include "cli/trace_args.h"
#include "writers/csv_writer.h"
#include "writers/diff_json.h"
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
    std::cerr << "sollens: diff needs two inputs, BASE and NEW (traces, report folders or report.json)\n";
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
  std::string error;
  if (!read_file(path, bytes, error)) {
    std::cerr << "sollens: " << error << "\n";
    return false;
  }
  if (!read_stored_report(std::string_view(bytes.data(), bytes.size()), run.diff, error)) {
    std::cerr << "sollens: " << path << ": " << error << "\n";
    return false;
  }
  return true;
}

bool read_run(const std::string& input, Run& run) {
  std::error_code ec;
  if (fs::is_directory(input, ec)) {
    const fs::path report = fs::path(input) / "report.json";
    if (!fs::exists(report, ec)) {
      std::cerr << "sollens: " << input << " is a directory without report.json (write one with sollens report)\n";
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
      std::cerr << "sollens: cannot write " << (fs::path(o.out_dir) / (t.name() + ".csv")).string() << "\n";
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
    std::cerr << "sollens: cannot write " << (fs::path(o.out_dir) / "diff.json").string() << "\n";
    return false;
  }
  return true;
}

std::string number(std::optional<double> v) {
  if (!v) return "–";
  if (std::isinf(*v)) return *v > 0 ? "+inf" : "-inf";
  char buf[48];
  std::snprintf(buf, sizeof buf, std::fabs(*v) >= 1e4 ? "%.0f" : "%.4g", *v);
  return buf;
}

std::string signed_change(const GateResult& r) {
  std::string s = number(r.change);
  if (r.change > 0 && s[0] != '+') s = "+" + s;
  return s + (r.expr.percent ? "%" : "");
}

std::string gate_line(const GateResult& r) {
  if (!r.error.empty()) return "ERROR " + r.expr.text + ": " + r.error;
  return std::string(r.failed ? "FAIL  " : "ok    ") + r.expr.text + "  (" + number(r.baseline) + " → " +
         number(r.variant) + ", change " + signed_change(r) + ")";
}

// A code span inside a table: only '|' needs escaping there (GitHub keeps < as is).
std::string markdown_code(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

// Table-safe text: '|' escaped, '<' as an entity (GitHub would take <...> for HTML), cut at 120.
std::string markdown_cell(const std::string& text) {
  const std::string s = text.size() > 120 ? text.substr(0, 117) + "..." : text;
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : c == '<' ? std::string("&lt;") : std::string(1, c);
  return out;
}

// Rows of a compared sheet, largest change first, as a Markdown table.
void markdown_top(std::ostream& md, const std::vector<Table>& tables, const std::string& sheet,
                  const std::string& metric, const CompareTags& tags, size_t limit, const char* title) {
  const Table* t = nullptr;
  for (const Table& x : tables)
    if (x.name() == sheet) t = &x;
  if (!t) return;
  const Column* diff = t->find(metric + "__" + tags.variant + "_diff");
  const Column* base = t->find(tags.baseline + "::" + metric);
  const Column* var = t->find(tags.variant + "::" + metric);
  if (!diff || !base || !var) return;
  std::vector<size_t> rows;
  for (size_t r = 0; r < t->num_rows(); ++r)
    if (cell_number(*diff, r).value_or(0) > 0) rows.push_back(r);
  std::stable_sort(rows.begin(), rows.end(), [&](size_t a, size_t b) {
    return *cell_number(*diff, a) > *cell_number(*diff, b);
  });
  if (rows.empty()) return;
  md << "\n### " << title << "\n\n| " << t->column(0).name() << " | " << tags.baseline << " | " << tags.variant
     << " | change |\n|---|---:|---:|---:|\n";
  for (size_t i = 0; i < rows.size() && i < limit; ++i) {
    const size_t r = rows[i];
    md << "| " << markdown_cell(cell_text(t->column(0), r)) << " | " << number(cell_number(*base, r)) << " | "
       << number(cell_number(*var, r)) << " | +" << number(cell_number(*diff, r)) << " |\n";
  }
}

// The op-tree rows with the largest changes (the sheet is ranked by |diff|).
void markdown_op_tree(std::ostream& md, const std::vector<Table>& tables, const CompareTags& tags, size_t limit) {
  const Table* t = nullptr;
  for (const Table& x : tables)
    if (x.name() == "op_tree_diff") t = &x;
  if (!t || t->num_rows() == 0) return;
  const Column* diff = t->find("gpu_time_us__" + tags.variant + "_diff");
  md << "\n### Call paths that changed most (GPU µs)\n\n| path | status | change | share of total |\n"
        "|---|---|---:|---:|\n";
  for (size_t r = 0; r < t->num_rows() && r < limit; ++r) {
    if (cell_number(*diff, r).value_or(0) == 0) break;
    md << "| " << markdown_cell(t->find("path")->string_at(r)) << " | " << t->find("status")->string_at(r) << " | "
       << number(cell_number(*diff, r)) << " | " << number(cell_number(*t->find("share_of_total_pct"), r)) << "% |\n";
  }
}

void write_markdown(std::ostream& md, const DiffOptions& o, const std::vector<Table>& tables,
                    const std::vector<GateResult>& results, int exit_code) {
  md << "## sollens diff: " << o.tags.variant << " vs " << o.tags.baseline << "\n\n";
  md << (exit_code == 0 ? "✅ within thresholds" : exit_code == kExitRegression ? "❌ regression" : "⚠️ gate not evaluated")
     << "\n";
  if (!results.empty()) {
    md << "\n| gate | " << o.tags.baseline << " | " << o.tags.variant << " | change | result |\n|---|---:|---:|---:|---|\n";
    for (const GateResult& r : results)
      md << "| `" << markdown_code(r.expr.text) << "` | " << number(r.baseline) << " | " << number(r.variant) << " | "
         << (r.error.empty() ? signed_change(r) : "–") << " | "
         << (!r.error.empty() ? "error: " + markdown_cell(r.error) : r.failed ? "❌ fail" : "✅ pass") << " |\n";
  }
  markdown_top(md, tables, "gpu_timeline", "time ms", o.tags, 20, "GPU time (ms) that grew");
  markdown_top(md, tables, "ops_summary", "total_direct_kernel_time_ms", o.tags, 10, "Ops that got slower (ms)");
  markdown_op_tree(md, tables, o.tags, 10);
  markdown_top(md, tables, "cycle_diff", "latency_us", o.tags, 10, "Cycles that got slower (µs)");
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

void write_junit(std::ostream& x, const std::vector<GateResult>& results) {
  size_t failures = 0, errors = 0;
  for (const GateResult& r : results) {
    errors += !r.error.empty();
    failures += r.error.empty() && r.failed;
  }
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"sollens diff\" tests=\"" << results.size()
    << "\" failures=\"" << failures << "\" errors=\"" << errors << "\">\n";
  for (const GateResult& r : results) {
    x << "  <testcase classname=\"sollens.diff\" name=\"" << xml_escape(r.expr.text) << "\"";
    if (!r.error.empty()) x << ">\n    <error message=\"" << xml_escape(r.error) << "\"/>\n  </testcase>\n";
    else if (r.failed) x << ">\n    <failure message=\"" << xml_escape(gate_line(r)) << "\"/>\n  </testcase>\n";
    else x << "/>\n";
  }
  x << "</testsuite>\n";
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

  const std::vector<GateResult>& results = diff.gates;
  for (const GateResult& r : results) std::cout << gate_line(r) << "\n";
  const int code = diff.gates_unevaluated() ? 1 : diff.regression() ? kExitRegression : 0;
  std::ostringstream md, junit;
  write_markdown(md, o, tables, results, code);
  write_junit(junit, results);
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
