#pragma once
// The multi-rank report's `idle_time_breakdown`: HTA's idle-time breakdown of each rank
// (analyses/hta/idle_time.h computes it per stream; this sheet only gathers the ranks'
// rows, with the ranks' own numbering).
#include <vector>

#include "analyses/hta/idle_time.h"
#include "table/table.h"

namespace sollens::ranks {

using hta::StreamIdle;

struct RankSummary;
// rank, stream, idle_category (host_wait, kernel_wait, other), idle_time (µs),
// idle_time_ratio (of the stream's idle time); HTA's columns, rounding and rows.
Table idle_time_table(const std::vector<RankSummary>& ranks);

}  // namespace sollens::ranks
