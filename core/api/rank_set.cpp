#include "api/rank_set.h"

#include "api/api_guard.h"
#include "api/ranks.h"
#include "writers/csv_writer.h"
#include "writers/page_json.h"

namespace sollens {

Status RankSet::add(const PageSession& rank, const std::string& file) {
  if (!rank.session().loaded()) return Status(Code::no_trace_loaded, "no trace is loaded");
  return guarded("summarising the rank", [&]() -> Status {
    ranks_.push_back(rank.session().rank_summary(file));
    return {};
  });
}

std::string RankSet::build() {
  return page_answer(guarded("comparing the ranks", [&]() -> Result<std::string> {
    if (ranks_.empty()) return Status(Code::no_trace_loaded, "no rank trace was read");
    RanksResult report = Session::ranks(std::move(ranks_));
    ranks_ = std::move(report.ranks);  // numbered and in rank order
    const std::string sheets = tables_.replace(TableSet::kRanks, std::move(report.sheets));
    return page_ranks_json(ranks_, report.simplified_mode, report.metadata_mismatches, sheets);
  }));
}

std::string RankSet::sheet_csv(int32_t handle) const {
  const Table* t = tables_.table(handle);
  return t ? to_csv(*t) : "";
}

}  // namespace sollens
