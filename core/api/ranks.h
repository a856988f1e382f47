#pragma once
// Many ranks at once (analyses/ranks), for Session::rank_summary and Session::ranks:
// what is kept of each rank's trace, and the cross-rank sheets from those summaries.
// sollens report with several traces and the web page both build them here; each keeps
// only a summary per rank, so a rank's trace is dropped once it is summarised.
#include <string>
#include <vector>

#include "analyses/ranks/rank_summary.h"
#include "api/session.h"
#include "table/table.h"

namespace sollens {

struct RanksResult {
  // The ranks numbered (distributedInfo, file name, else position) and in rank order.
  std::vector<ranks::RankSummary> ranks;
  // TraceLens's multi-rank collective sheets (analyses/ranks/multi_rank_collectives.h),
  // then gpu_timeline_ranks, comm_comp_overlap, idle_time_breakdown and rank_clocks.
  std::vector<Table> sheets;
  bool simplified_mode = false;  // collectives matched by order on one stream
  size_t metadata_mismatches = 0;
};

}  // namespace sollens
