#pragma once
// The verdict's lists: the top ops and kernels by GPU time, and the functions furthest
// from their speed of light by the time lost (measured − estimated), kTopN of each.
#include "analyses/verdict/verdict_rows.h"
#include "table/table.h"

namespace sollens::verdict {

void add_top_ops(VerdictRows& rows, const Table& ops_summary);        // top_op.1 … (view ops)
void add_top_kernels(VerdictRows& rows, const Table& kernel_summary);  // top_kernel.1 … (view kernels)
void add_sol_gaps(VerdictRows& rows, const Table& sol_by_function);    // sol_gap.1 … (view sol)

}  // namespace sollens::verdict
