#include "analyses/verdict/verdict_rows.h"

#include <cmath>

namespace sollens::verdict {

VerdictRows::VerdictRows() : table_("verdict", TableKind::kSummary) {
  table_.add_column("finding", ColumnType::kString);
  table_.add_column("value", ColumnType::kFloat);
  table_.add_column("unit", ColumnType::kString);
  table_.add_column("words", ColumnType::kString);
  table_.add_column("view", ColumnType::kString);
  table_.add_column("target", ColumnType::kString);
  table_.add_column("target_group", ColumnType::kString);
}

void VerdictRows::add(std::string_view finding, double value, std::string_view unit, std::string_view words,
                      std::string_view view, std::string_view target, std::string_view target_group) {
  table_.column(0).push_string(finding);
  if (std::isfinite(value)) table_.column(1).push_float(value);
  else table_.column(1).push_null();
  table_.column(2).push_string(unit);
  table_.column(3).push_string(words);
  table_.column(4).push_string(view);
  table_.column(5).push_string(target);
  table_.column(6).push_string(target_group);
}

}  // namespace sollens::verdict
