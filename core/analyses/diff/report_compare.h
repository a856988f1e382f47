#pragma once
// Two reports' sheets compared as TraceLens's compare_perf_reports_pytorch does, sheet
// by sheet, in its order: gpu_timeline, ops_summary, kernel_summary (merged sheets),
// then ops_unique_args, unified_perf_summary and the roofline sheets (GEMM, SDPA_fwd,
// SDPA_bwd, CONV_fwd, CONV_bwd, un_eltwise, bin_eltwise), each split three ways.
// Tables in, tables out: a stored report needs no trace.
#include <vector>

#include "analyses/diff/table_compare.h"
#include "table/table.h"

namespace sollens {

// A sheet missing from either report, or without its key columns, is left out.
std::vector<Table> compare_reports(const std::vector<Table>& baseline, const std::vector<Table>& variant,
                                   const CompareTags& tags);

// The spec of a merged (unsplit) summary sheet by its name (gpu_timeline, ops_summary,
// kernel_summary); null for any other. The CI gate reads these sheets' metrics.
const SheetCompareSpec* summary_sheet_spec(const std::string& sheet);

}  // namespace sollens
