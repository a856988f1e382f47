#pragma once
// TraceLens's df_long of the multi-rank report: every collective kernel of every rank,
// its metadata typed as pandas types the column, and its collective_id (process group
// + order in that group, or order on the stream in simplified mode). The sheets of
// multi_rank_collectives and all_to_allv are built from it.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyses/collectives/group_key.h"
#include "analyses/ranks/rank_summary.h"
#include "table/table.h"

namespace sollens::ranks {

// One row of TraceLens's df_long.
struct LongRow {
  int64_t rank = 0;
  collectives::CollectiveEvent e;
  NameSource source = NameSource::kTrace;
  int64_t index_in_group = 0;
  std::string collective_id;
};

struct LongTable {
  std::vector<LongRow> rows;  // rank order, then file order
  std::array<collectives::ColumnDtype, collectives::kFieldCount> dtypes{};
  bool integer_ts = true, integer_dur = true;
  bool simplified = false;
};

// `ranks` sorted by rank (settle_ranks).
LongTable build_long(const std::vector<RankSummary>& ranks);

// The rows of each collective_id, in order of first appearance; members in rank order.
std::vector<std::vector<const LongRow*>> rows_by_collective(const LongTable& lt);

// Cells: a number as an int (whole-µs traces) or a float; an optional float, empty
// when absent or NaN; a metadata value as its column's dtype, empty when None.
void push_number(Column& c, double v, bool as_int);
void push_optional(Column& c, std::optional<double> v);
void push_value(Column& c, collectives::ColumnDtype dtype, const PyValue& v);

}  // namespace sollens::ranks
