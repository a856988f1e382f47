#include "api/rank_set.h"

#include "api/ranks.h"
#include "base/json_text.h"
#include "writers/csv_writer.h"

namespace sollens {

std::string RankSet::add(const PageSession& rank, const std::string& file) {
  if (!rank.session().loaded()) return "no trace is loaded";
  ranks_.push_back(summarize_session(rank.session(), file));
  return "";
}

std::string RankSet::build() {
  if (ranks_.empty()) return "{\"error\":\"no rank trace was read\"}";
  ranks::settle_ranks(ranks_);
  CrossRankReport report = cross_rank_report(ranks_);
  std::string listed = "[";
  for (const ranks::RankSummary& r : ranks_)
    listed += (listed.size() > 1 ? "," : "") + std::string("{\"rank\":") + std::to_string(r.rank) +
              ",\"file\":" + json_string(r.file) + ",\"rankFrom\":" + json_string(r.rank_from) + "}";
  return "{\"ranks\":" + listed + "],\"simplifiedMode\":" + (report.simplified_mode ? "true" : "false") +
         ",\"metadataMismatches\":" + std::to_string(report.metadata_mismatches) +
         ",\"sheets\":" + tables_.replace(TableSet::kRanks, std::move(report.sheets)) + "}";
}

std::string RankSet::sheet_csv(int32_t handle) const {
  const Table* t = tables_.table(handle);
  return t ? to_csv(*t) : "";
}

}  // namespace sollens
