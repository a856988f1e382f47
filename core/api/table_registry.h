#pragma once
// Tables kept under integer handles for a front end that reads them later, column by
// column (the web page): each set of tables (report, cycles, SOL, comparison, Solar) is replaced as a
// whole, and a column is encoded for JavaScript once, on first request.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "table/table.h"
#include "writers/column_encoding.h"

namespace sollens {

enum class TableSet : uint8_t { kReport, kCycles, kSol, kComparison, kRanks, kSolar, kTimeAxis, kTimeAxisRange, kCount_ };

class TableRegistry {
 public:
  // Drops the set's previous tables, keeps these under fresh handles and returns
  // their descriptions (writers/table_description.h) as a JSON array.
  std::string replace(TableSet set, std::vector<Table> tables);
  // Keeps these beside the set's tables (dropped with them), under fresh handles, and
  // returns their descriptions: sheets of a set computed after the rest of it.
  std::string add(TableSet set, std::vector<Table> tables);
  void clear();

  const Table* table(int32_t handle) const;
  // The set's handles, in the order its tables were given.
  const std::vector<int32_t>& handles(TableSet set) const { return handles_[static_cast<int>(set)]; }
  const Column* column(int32_t handle, int column) const;
  // null for an unknown handle or column.
  const EncodedColumn* encoded(int32_t handle, int column);

 private:
  void drop(TableSet set);
  static uint64_t key(int32_t handle, int column);

  std::unordered_map<int32_t, Table> tables_;
  std::vector<int32_t> handles_[static_cast<int>(TableSet::kCount_)];  // per TableSet
  int32_t next_handle_ = 1;
  std::unordered_map<uint64_t, EncodedColumn> encoded_;
};

}  // namespace sollens
