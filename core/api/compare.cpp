#include "api/compare.h"

#include <algorithm>

#include "analyses/diff/cycle_diff.h"
#include "analyses/diff/op_tree_diff.h"
#include "analyses/diff/ops_name_diff.h"
#include "analyses/diff/report_compare.h"
#include "ingest/report_reader.h"

namespace sollens {

namespace {

std::vector<Table> compare_runs(const DiffRun& baseline, const DiffRun& variant, const CompareTags& tags) {
  std::vector<Table> out = compare_reports(baseline.sheets, variant.sheets, tags);
  if (baseline.session && variant.session) {
    const Session& base = *baseline.session;
    const Session& var = *variant.session;
    out.push_back(op_tree_diff_table({base.store(), base.tree()}, {var.store(), var.tree()}, tags));
    out.push_back(ops_name_diff_table(base.store(), var.store(), tags));
  }
  if (baseline.cycles && variant.cycles) {
    CycleDiff cycles = diff_cycles(*baseline.cycles, *variant.cycles, tags);
    out.push_back(std::move(cycles.cycles));
    if (cycles.positions.num_columns()) out.push_back(std::move(cycles.positions));
  }
  return out;
}

}  // namespace

DiffRun Session::diff_run() const {
  return DiffRun{report(ReportRequest{}).release_sheets(), this, cycle_report()};
}

DiffResult Session::diff(const DiffRun& baseline, const DiffRun& variant, const DiffRequest& request) {
  DiffResult result;
  result.sheets = compare_runs(baseline, variant, request.tags);
  result.tags = request.tags;
  result.traces_compared = baseline.session && variant.session;
  for (const GateExpr& gate : request.gates) result.gates.push_back(evaluate_gate(gate, result.sheets, request.tags));
  return result;
}

bool DiffResult::regression() const {
  return std::any_of(gates.begin(), gates.end(), [](const GateResult& g) { return g.failed; });
}

bool DiffResult::gates_unevaluated() const {
  return std::any_of(gates.begin(), gates.end(), [](const GateResult& g) { return !g.error.empty(); });
}

bool looks_like_stored_report(std::string_view head) { return looks_like_report_json(head); }

bool read_stored_report(std::string_view report_json, DiffRun& run, std::string& error) {
  ReportReadResult read = read_report_json(report_json);
  if (!read.error.empty()) {
    error = std::move(read.error);
    return false;
  }
  run = DiffRun{std::move(read.sheets), nullptr, std::nullopt};
  return true;
}

std::string compare_tags_problem(const CompareTags& tags) {
  for (const std::string* name : {&tags.baseline, &tags.variant}) {
    if (name->empty()) return "each run needs a name";
    if (name->find("::") != std::string::npos) return "a run's name cannot contain '::'";
    if (name->find(',') != std::string::npos) return "a run's name cannot contain a comma";
  }
  if (tags.baseline == tags.variant) return "the two runs need different names";
  return "";
}

}  // namespace sollens
