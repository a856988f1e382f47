#include "api/rank_set.h"

#include "api/ranks.h"
#include "writers/csv_writer.h"
#include "writers/page_json.h"

namespace sollens {

std::string RankSet::add(const PageSession& rank, const std::string& file) {
  if (!rank.session().loaded()) return "no trace is loaded";
  ranks_.push_back(rank.session().rank_summary(file));
  return "";
}

std::string RankSet::build() {
  if (ranks_.empty()) return page_error_json("no rank trace was read");
  RanksResult report = Session::ranks(std::move(ranks_));
  ranks_ = std::move(report.ranks);  // numbered and in rank order
  const std::string sheets = tables_.replace(TableSet::kRanks, std::move(report.sheets));
  return page_ranks_json(ranks_, report.simplified_mode, report.metadata_mismatches, sheets);
}

std::string RankSet::sheet_csv(int32_t handle) const {
  const Table* t = tables_.table(handle);
  return t ? to_csv(*t) : "";
}

}  // namespace sollens
