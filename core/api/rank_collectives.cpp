#include "api/rank_collectives.h"

#include <vector>

#include "analyses/ranks/multi_rank_collectives.h"
#include "analyses/ranks/rank_summary.h"
#include "api/ranks.h"

namespace sollens {

Table rank_collectives_sheet(const Session& session, const std::string& file) {
  std::vector<ranks::RankSummary> one;
  one.push_back(session.rank_summary(file));
  ranks::MultiRankCollectives sheets = ranks::multi_rank_collective_sheets(one);
  for (Table& t : sheets.sheets)
    if (t.name() == "nccl_long") return std::move(t);
  Table empty("nccl_long", TableKind::kRanks);
  empty.add_column("rank", ColumnType::kInt);
  return empty;
}

}  // namespace sollens
