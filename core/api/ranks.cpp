#include "api/ranks.h"

#include "analyses/ranks/idle_time.h"
#include "analyses/ranks/multi_rank_collectives.h"
#include "analyses/ranks/rank_tables.h"

namespace sollens {

ranks::RankSummary summarize_session(const Session& session, std::string file) {
  return ranks::summarize_rank(session.store(), session.tree(), session.gpu_timeline(), std::move(file));
}

CrossRankReport cross_rank_report(const std::vector<ranks::RankSummary>& ranks) {
  ranks::MultiRankCollectives collectives = ranks::multi_rank_collective_sheets(ranks);
  CrossRankReport out;
  out.simplified_mode = collectives.simplified_mode;
  out.metadata_mismatches = collectives.metadata_mismatches;
  out.sheets = std::move(collectives.sheets);
  const Table* nccl_long = nullptr;
  for (const Table& t : out.sheets)
    if (t.name() == "nccl_long") nccl_long = &t;
  const Table no_collectives("nccl_long", TableKind::kRanks);
  Table clocks = ranks::rank_clocks_table(ranks, nccl_long ? *nccl_long : no_collectives);
  out.sheets.push_back(ranks::gpu_timeline_ranks_table(ranks));
  out.sheets.push_back(ranks::comm_comp_overlap_table(ranks));
  out.sheets.push_back(ranks::idle_time_table(ranks));
  out.sheets.push_back(std::move(clocks));
  return out;
}

}  // namespace sollens
