#include "analyses/ranks/idle_time.h"

#include "analyses/ranks/rank_summary.h"

namespace sollens::ranks {

Table idle_time_table(const std::vector<RankSummary>& ranks) {
  Table t = hta::make_idle_time_table(TableKind::kRanks);
  for (const RankSummary& r : ranks) hta::append_idle_time_rows(t, r.rank, r.idle);
  return t;
}

}  // namespace sollens::ranks
