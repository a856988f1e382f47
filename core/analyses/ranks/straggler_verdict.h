#pragma once
// The multi-rank report's verdict in words and the figures it quotes, from the
// cross-rank sheets (multi_rank_collectives.h, rank_tables.h):
//
//   rank_lateness      per rank: how late it started the implicit-sync collectives,
//                      Σ (its start − the earliest rank's start), and how long it waited
//                      for the others. The straggler is the latest: its bar is longest.
//                      (lateness + wait = the collective's skew, so the rank that
//                      waited least is the one that came latest.)
//   straggler_verdict  one row: straggler_summary's first rank, how often it arrived
//                      last, how long each other rank waited for it at the collectives
//                      it arrived last at (mean over the others, ms and % of their GPU
//                      time), the collective with the largest skew among those, and
//                      the sentence.
// Both empty (no rows) when no collective is matched across the ranks.
#include <vector>

#include "table/table.h"

namespace sollens::ranks {

// `sheets`: the cross-rank sheets (straggler_summary, nccl_implicit_sync,
// gpu_timeline_ranks read by name). Returns rank_lateness and straggler_verdict, or
// nothing when straggler_summary or nccl_implicit_sync is missing.
std::vector<Table> straggler_verdict_sheets(const std::vector<Table>& sheets);

}  // namespace sollens::ranks
