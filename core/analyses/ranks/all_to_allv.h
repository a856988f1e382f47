#pragma once
// TraceLens's all-to-all-v sheets of the multi-rank report (NcclAnalyser's
// build_df_nccl_all2allv, build_df_summary_nccl_all2allv, build_df_all2allv_heatmap).
// Each rank of an all_to_allv sends a different amount, so instead of comm_latency and
// bus bandwidth they report, per collective:
//
//   wall_time (us)                 latest end − earliest start over the ranks
//   total data communicated (MB)   Σ_r In msg size (MB); total nelems likewise
//   throughput (GB/s)              total MB / 1024 / (wall_time / 1e6)
//   max/min_rank_throughput        per rank In MB / 1024 / (dur / 1e6), over ranks with
//                                  size and dur > 0
//   size_imbalance                 max_r In MB / mean_r In MB
//   skew in start / end time       latest − earliest start; latest − earliest end
//   rank_r_skew in start time      ts_r − earliest start
//   rank_r_skew in end time        latest end − end_r
//
//   nccl_all2allv          one row per all_to_allv collective_id, by total MB descending
//   nccl_summary_all2allv  by (Process Group Name, dtype): mean, median, min, max of
//                          total MB, wall_time (and its sum) and throughput; mean and max
//                          of size_imbalance, max_rank_dur and both skews; count
//   nccl_all2allv_heatmap  per (src_rank, dst_rank): Σ In split size[dst] · dtype bytes
//                          of src's all_to_allv kernels, in MB, its mean and count
//
// Differences from TraceLens: a metadata mismatch is counted, not raised; a rank
// without a message size leaves the totals empty (Python would raise); the heatmap is
// always written when there is data (TraceLens writes it with --all2allv_heatmap),
// up to 1024 ranks as there.
#include <cstddef>
#include <optional>

#include "analyses/ranks/matched_collectives.h"
#include "table/table.h"

namespace sollens::ranks {

struct AllToAllvSheets {
  std::optional<Table> summary, detail, heatmap;  // none when no all_to_allv
};

// `world_size`: the number of ranks read. Adds the collectives whose ranks disagree
// on their metadata to `metadata_mismatches`.
AllToAllvSheets all_to_allv_sheets(const LongTable& lt, size_t world_size, size_t& metadata_mismatches);

}  // namespace sollens::ranks
