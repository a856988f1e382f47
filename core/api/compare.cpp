#include "api/compare.h"

#include "analyses/diff/cycle_diff.h"
#include "analyses/diff/op_tree_diff.h"
#include "analyses/diff/ops_name_diff.h"
#include "analyses/diff/report_compare.h"

namespace sollens {

std::vector<Table> compare_runs(const ComparedRun& baseline, const ComparedRun& variant, const CompareTags& tags) {
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

std::string compare_tags_problem(const CompareTags& tags) {
  for (const std::string* name : {&tags.baseline, &tags.variant}) {
    if (name->empty()) return "each run needs a name";
    if (name->find("::") != std::string::npos) return "a run's name cannot contain '::'";
    if (name->find(',') != std::string::npos) return "a run's name cannot contain a comma";
  }
  if (tags.baseline == tags.variant) return "the two runs need different names";
  return "";
}

std::vector<Table> compare_sessions(const Session& baseline, const Session& variant, const CompareTags& tags) {
  const std::vector<Table> base_sheets = baseline.report(ReportRequest{}).release_sheets();
  const std::vector<Table> var_sheets = variant.report(ReportRequest{}).release_sheets();
  const CycleReport base_cycles = baseline.cycle_report();
  const CycleReport var_cycles = variant.cycle_report();
  return compare_runs({base_sheets, &baseline, &base_cycles}, {var_sheets, &variant, &var_cycles}, tags);
}

}  // namespace sollens
