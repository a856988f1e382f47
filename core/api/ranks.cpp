#include "api/ranks.h"

#include "analyses/ranks/idle_time.h"
#include "analyses/ranks/multi_rank_collectives.h"
#include "analyses/ranks/rank_tables.h"
#include "analyses/ranks/straggler_verdict.h"

namespace sollens {

ranks::RankSummary Session::rank_summary(std::string file) const {
  return ranks::summarize_rank(store(), tree(), gpu_timeline(), std::move(file));
}

RanksResult Session::ranks(std::vector<ranks::RankSummary> summaries) {
  ranks::settle_ranks(summaries);
  ranks::MultiRankCollectives collectives = ranks::multi_rank_collective_sheets(summaries);
  RanksResult out;
  out.simplified_mode = collectives.simplified_mode;
  out.metadata_mismatches = collectives.metadata_mismatches;
  out.sheets = std::move(collectives.sheets);
  const Table* nccl_long = nullptr;
  for (const Table& t : out.sheets)
    if (t.name() == "nccl_long") nccl_long = &t;
  const Table no_collectives("nccl_long", TableKind::kRanks);
  Table clocks = ranks::rank_clocks_table(summaries, nccl_long ? *nccl_long : no_collectives);
  out.sheets.push_back(ranks::gpu_timeline_ranks_table(summaries));
  out.sheets.push_back(ranks::comm_comp_overlap_table(summaries));
  out.sheets.push_back(ranks::idle_time_table(summaries));
  out.sheets.push_back(std::move(clocks));
  for (Table& t : ranks::straggler_verdict_sheets(out.sheets)) out.sheets.push_back(std::move(t));
  out.ranks = std::move(summaries);
  return out;
}

}  // namespace sollens
