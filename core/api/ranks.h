#pragma once
// Many ranks at once (analyses/ranks): the cross-rank sheets from the ranks' summaries.
// sollens report with several traces and the web page both build them here; each keeps
// only a summary per rank, so a rank's trace is dropped once it is summarised.
#include <string>
#include <vector>

#include "analyses/ranks/rank_summary.h"
#include "api/session.h"
#include "table/table.h"

namespace sollens {

struct CrossRankReport {
  // TraceLens's multi-rank collective sheets (analyses/ranks/multi_rank_collectives.h),
  // then gpu_timeline_ranks, comm_comp_overlap, idle_time_breakdown and rank_clocks.
  std::vector<Table> sheets;
  bool simplified_mode = false;  // collectives matched by order on one stream
  size_t metadata_mismatches = 0;
};

// What is kept of a loaded rank trace; `file` names it (its rank may come from it).
ranks::RankSummary summarize_session(const Session& session, std::string file);

// `ranks` settled (ranks::settle_ranks: numbered and sorted by rank).
CrossRankReport cross_rank_report(const std::vector<ranks::RankSummary>& ranks);

}  // namespace sollens
