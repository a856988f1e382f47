#pragma once
// The verdict sheet's columns and how a finding is added (verdict.h).
#include <string>
#include <string_view>

#include "table/table.h"

namespace sollens::verdict {

class VerdictRows {
 public:
  VerdictRows();
  // value NaN: written as null.
  void add(std::string_view finding, double value, std::string_view unit, std::string_view words,
           std::string_view view = "", std::string_view target = "", std::string_view target_group = "");
  Table release() { return std::move(table_); }

 private:
  Table table_;
};

}  // namespace sollens::verdict
