#pragma once
// Many ranks as the web page reads them: one rank trace after another is loaded into a
// PageSession, summarised here and dropped, so that only the summaries (a few KB a rank)
// stay; then the cross-rank sheets (api/ranks.h) are kept under handles, read as the
// report's tables are.
#include <string>
#include <vector>

#include "analyses/ranks/rank_summary.h"
#include "api/page_session.h"
#include "api/table_registry.h"

namespace sollens {

class RankSet {
 public:
  // Keeps the summary of `rank`'s loaded trace; `file` names it (its rank may come from
  // the name). no_trace_loaded when `rank` holds no trace.
  Status add(const PageSession& rank, const std::string& file);
  size_t size() const { return ranks_.size(); }

  // The ranks numbered (ranks::settle_ranks) and the cross-rank sheets:
  // {"ranks": [{"rank", "file", "rankFrom"}] in rank order, "simplifiedMode",
  //  "metadataMismatches", "sheets": [table descriptions]}, or {"error"}.
  std::string build();

  TableRegistry& tables() { return tables_; }
  std::string sheet_csv(int32_t handle) const;

 private:
  std::vector<ranks::RankSummary> ranks_;
  TableRegistry tables_;
};

}  // namespace sollens
