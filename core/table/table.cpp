#include "table/table.h"

namespace sollens {

void Column::push_null() {
  switch (type_) {
    case ColumnType::kString: strings_.emplace_back(); break;
    case ColumnType::kInt:
    case ColumnType::kBool: ints_.push_back(0); break;
    case ColumnType::kFloat: floats_.push_back(0); break;
  }
  valid_.push_back(0);
}

Column& Table::add_column(std::string name, ColumnType type, Unit unit) {
  columns_.emplace_back(std::move(name), type, unit);
  return columns_.back();
}

const Column* Table::find(std::string_view name) const {
  for (const auto& c : columns_)
    if (c.name() == name) return &c;
  return nullptr;
}

const Table* find_sheet(const std::vector<Table>& sheets, std::string_view name) {
  for (const Table& t : sheets)
    if (t.name() == name) return &t;
  return nullptr;
}

}  // namespace sollens
