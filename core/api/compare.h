#pragma once
// Two runs compared (analyses/diff): the sheets of both reports as TraceLens compares
// them, then, where both runs are loaded traces, the op-tree and op-name diffs and the
// cycle diff. The command line (sollens diff) and the web page both compare here.
#include <optional>
#include <string>
#include <vector>

#include "analyses/cycles/cycles.h"
#include "analyses/diff/table_compare.h"
#include "api/session.h"
#include "table/table.h"

namespace sollens {

// One side of a comparison: a report's sheets, and the trace they came from when it
// was loaded (a stored report has neither session nor cycles).
struct ComparedRun {
  const std::vector<Table>& sheets;
  const Session* session = nullptr;
  const CycleReport* cycles = nullptr;
};

// The compared sheets in order: compare_reports, then op_tree_diff and ops_diff (both
// sessions given), then cycle_diff and cycle_positions_diff (both cycles given; the
// latter only when any position paired).
std::vector<Table> compare_runs(const ComparedRun& baseline, const ComparedRun& variant, const CompareTags& tags);

// Why two run names cannot tag a comparison's columns ("" when they can): both given,
// different, without "::" (it separates the name from the metric) and without a comma
// (sollens diff --names A,B could not say them).
std::string compare_tags_problem(const CompareTags& tags);

// Two loaded traces compared with the default report and cycles (as sollens diff).
std::vector<Table> compare_sessions(const Session& baseline, const Session& variant, const CompareTags& tags = {});

}  // namespace sollens
