#pragma once
// The per-rank tables of the multi-rank report, one row per rank:
//   gpu_timeline_ranks   each rank's gpu_timeline sheet on one row: `<type> ms` and
//                        `<type> %` for TraceLens's eight timeline types
//   comm_comp_overlap    HTA's comm-comp overlap: the share of communication time
//                        during which a computation kernel also runs
//                        (comp_comm_overlap_pctg = 100 · overlapped / total comm)
//   rank_clocks          where each rank's number and clock come from, and the clock
//                        offset to the lowest rank estimated two ways: from
//                        baseTimeNanoseconds, and as the median over matched
//                        implicit-sync collectives of the difference of their end
//                        times (a collective ends on every rank within its end skew)
#include <vector>

#include "analyses/ranks/rank_summary.h"
#include "table/table.h"

namespace sollens::ranks {

Table gpu_timeline_ranks_table(const std::vector<RankSummary>& ranks);
Table comm_comp_overlap_table(const std::vector<RankSummary>& ranks);
// `nccl_long`: the multi-rank report's long sheet (collective ids across ranks).
Table rank_clocks_table(const std::vector<RankSummary>& ranks, const Table& nccl_long);

}  // namespace sollens::ranks
