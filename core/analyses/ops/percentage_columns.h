#pragma once
// The closing "Percentage (%)" and "Cumulative Percentage (%)" columns that TraceLens
// appends to its sorted summary sheets (ops_summary*, ops_unique_args,
// unified_perf_summary).
#include <span>

#include "table/table.h"

namespace sollens {

// Appends both columns for `values`, one per row already in the sheet's order:
// value / Series.sum() * 100 (NumPy's pairwise sum), then its running sum.
void add_percentage_columns(Table& table, std::span<const double> values);

}  // namespace sollens
