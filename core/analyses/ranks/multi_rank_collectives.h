#pragma once
// TraceLens's multi-rank collective report (tracelens-semantics.md §8.3;
// NcclAnalyser + generate_multi_rank_collective_report_pytorch): collectives matched
// across ranks by process group and order, then per collective the skew and wait of
// every rank, and per rank how often it made the others wait.
//
//   nccl_long                  one row per collective kernel per rank, with its
//                              collective_id (process group + index in that group)
//   nccl_summary_long          per rank and metadata: dur sum/mean/std/min/max, count
//   nccl_implicit_sync         per implicit-sync collective (all-reduce, reduce-scatter,
//                              all-gather, all-to-all): comm_latency = min dur,
//                              wait_r = latest start − ts_r, skews, algo/bus bw, and
//                              rank_r_ts / _dur / _wait_time
//   nccl_summary_implicit_sync by Collective name, dtype, In msg nelems: mean, median,
//                              min, max of each metric, count, Total comm latency (ms)
//   straggler_summary          per rank: total/mean wait, times arrived last/first
//   nccl_summary_all2allv, nccl_all2allv_heatmap, nccl_all2allv: see all_to_allv.h
//
// Differences from TraceLens, where it would raise or drop: a metadata mismatch across
// ranks is kept (the first rank's values) and counted in `metadata_mismatches`
// rather than raised; nccl_summary_long keeps rows with a missing key (TraceLens's
// dropna drops every collective of an older trace). Ties sort stably.
#include <vector>

#include "analyses/ranks/rank_summary.h"
#include "table/table.h"

namespace sollens::ranks {

struct MultiRankCollectives {
  // TraceLens's order: nccl_summary_implicit_sync, nccl_summary_long,
  // nccl_summary_all2allv, nccl_all2allv_heatmap, nccl_long, nccl_implicit_sync,
  // nccl_all2allv, straggler_summary (each only when it has rows).
  std::vector<Table> sheets;
  bool simplified_mode = false;  // matched by order on one stream (no process groups)
  size_t metadata_mismatches = 0;
};

// `ranks` sorted by rank (settle_ranks).
MultiRankCollectives multi_rank_collective_sheets(const std::vector<RankSummary>& ranks);

}  // namespace sollens::ranks
