#pragma once
// Two runs compared (analyses/diff), for Session::diff: the sheets of both reports as
// TraceLens compares them, then, where both runs are loaded traces, the op-tree and
// op-name diffs and the cycle diff, then the CI gate's thresholds. A run is a loaded
// trace (Session::diff_run) or a report.json that sollens report wrote, read back here.
// The command line (sollens diff) and the web page both compare through Session::diff.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyses/cycles/cycles.h"
#include "analyses/diff/gate.h"
#include "analyses/diff/run_facts.h"
#include "analyses/diff/table_compare.h"
#include "api/session.h"
#include "table/table.h"

namespace sollens {

// One side of a comparison: a report's sheets, and the trace they came from when it was
// loaded (a stored report has neither session nor cycles). The session must outlive the
// run: the op-tree diffs read its events. `facts` (device, wall time, GPU time with no
// launch) name the run in the headline; a stored report's are read from its sheets.
struct DiffRun {
  std::vector<Table> sheets;
  const Session* session = nullptr;
  std::optional<CycleReport> cycles;
  RunFacts facts;
};

struct DiffRequest {
  CompareTags tags;              // the runs' names, which tag the compared columns
  std::vector<GateExpr> gates;   // thresholds to evaluate (parse_gate), in order
};

struct DiffResult {
  // compare_verdict (the headline by the runs' names) and compare_runs (each run's
  // device, wall time and GPU time split by where it was launched), then
  // compare_reports' sheets (ops_summary with a row for GPU time no op counts), then op_tree_diff and ops_diff (both runs traces), then
  // cycle_diff and cycle_positions_diff (the latter only when any position paired).
  std::vector<Table> sheets;
  CompareTags tags;
  bool traces_compared = false;   // both runs were traces: the op-tree and cycle diffs are in
  std::vector<GateResult> gates;  // the request's gates, in order

  std::string headline() const;    // compare_verdict's sentence ("" when absent)
  bool regression() const;         // a gate's threshold was crossed
  bool gates_unevaluated() const;  // a gate could not be evaluated
};

// True when the text (a file's first bytes are enough) starts like a report.json.
bool looks_like_stored_report(std::string_view head);

// A report.json that sollens report wrote, read back as one side of a diff (its sheets
// alone), or why it cannot be (report_not_json, report_no_sheets, report_bad_sheet,
// out_of_memory).
Result<DiffRun> read_stored_report(std::string_view report_json);

// Whether two run names can tag a comparison's columns (else bad_run_names, saying why):
// both given, different, without "::" (it separates the name from the metric) and
// without a comma (sollens diff --names A,B could not say them).
Status check_compare_tags(const CompareTags& tags);

}  // namespace sollens
