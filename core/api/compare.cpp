#include "api/compare.h"

#include <algorithm>

#include "analyses/diff/cycle_diff.h"
#include "analyses/diff/op_tree_diff.h"
#include "analyses/diff/ops_name_diff.h"
#include "analyses/diff/report_compare.h"
#include "api/api_guard.h"
#include "ingest/report_reader.h"
#include "simdjson.h"

namespace sollens {

namespace {

// Each run's sheets with its unattributed GPU time as ops_summary rows of their own.
std::vector<Table> with_unattributed_ops(const DiffRun& run) {
  std::vector<Table> sheets = run.sheets;
  add_unattributed_op_rows(sheets, run.facts);
  return sheets;
}

std::vector<Table> compare_runs(const DiffRun& baseline, const DiffRun& variant, const CompareTags& tags) {
  std::vector<Table> out;
  out.push_back(compare_verdict_table(baseline.facts, variant.facts, tags));
  out.push_back(compare_runs_table(baseline.facts, variant.facts, tags));
  for (Table& t : compare_reports(with_unattributed_ops(baseline), with_unattributed_ops(variant), tags))
    out.push_back(std::move(t));
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

// The device a report.json was computed for, as its trace named it
// (metadata.device.trace_device_name); "" when it names none.
std::string stored_device_name(std::string_view report_json) {
  simdjson::dom::parser parser;
  const simdjson::padded_string padded(report_json);
  std::string_view name;
  if (parser.parse(padded)["metadata"]["device"]["trace_device_name"].get(name)) return "";
  return std::string(name);
}

}  // namespace

DiffRun Session::diff_run() const {
  DiffRun run{report(ReportRequest{}).release_sheets(), this, cycle_report(), {}};
  run.facts = trace_run_facts(store(), tree(), identify_device().trace_name, run.sheets);
  return run;
}

DiffResult Session::diff(const DiffRun& baseline, const DiffRun& variant, const DiffRequest& request) {
  DiffResult result;
  result.sheets = compare_runs(baseline, variant, request.tags);
  result.tags = request.tags;
  result.traces_compared = baseline.session && variant.session;
  for (const GateExpr& gate : request.gates) result.gates.push_back(evaluate_gate(gate, result.sheets, request.tags));
  return result;
}

std::string DiffResult::headline() const {
  for (const Table& t : sheets)
    if (t.name() == "compare_verdict" && t.num_rows() > 0) return t.column(0).string_at(0);
  return "";
}

bool DiffResult::regression() const {
  return std::any_of(gates.begin(), gates.end(), [](const GateResult& g) { return g.failed; });
}

bool DiffResult::gates_unevaluated() const {
  return std::any_of(gates.begin(), gates.end(), [](const GateResult& g) { return !g.error.ok(); });
}

bool looks_like_stored_report(std::string_view head) { return looks_like_report_json(head); }

Result<DiffRun> read_stored_report(std::string_view report_json) {
  return guarded("reading the report", [&]() -> Result<DiffRun> {
    Result<StoredReport> read = read_report_json(report_json);
    if (!read.ok()) return read.status();
    DiffRun run{std::move(read->sheets), nullptr, std::nullopt, {}};
    run.facts = stored_run_facts(run.sheets);
    run.facts.device = stored_device_name(report_json);
    return run;
  });
}

Status check_compare_tags(const CompareTags& tags) {
  for (const std::string* name : {&tags.baseline, &tags.variant}) {
    if (name->empty()) return Status(Code::bad_run_names, "each run needs a name");
    if (name->find("::") != std::string::npos) return Status(Code::bad_run_names, "a run's name cannot contain '::'");
    if (name->find(',') != std::string::npos) return Status(Code::bad_run_names, "a run's name cannot contain a comma");
  }
  if (tags.baseline == tags.variant) return Status(Code::bad_run_names, "the two runs need different names");
  return {};
}

}  // namespace sollens
