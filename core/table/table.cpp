#include "table/table.h"

#include <algorithm>
#include <functional>

namespace sollens {

uint32_t StringDictionary::code_of(std::string_view v) {
  if ((strings_.size() + 1) * 2 > slots_.size()) rehash(std::max<size_t>(16, slots_.size() * 2));
  const size_t mask = slots_.size() - 1;
  for (size_t i = std::hash<std::string_view>{}(v) & mask;; i = (i + 1) & mask) {
    if (slots_[i] == 0) {
      strings_.emplace_back(v);
      slots_[i] = static_cast<uint32_t>(strings_.size());
      return slots_[i] - 1;
    }
    if (strings_[slots_[i] - 1] == v) return slots_[i] - 1;
  }
}

void StringDictionary::rehash(size_t slots) {
  slots_.assign(slots, 0);
  const size_t mask = slots - 1;
  for (uint32_t code = 0; code < strings_.size(); ++code) {
    size_t i = std::hash<std::string_view>{}(strings_[code]) & mask;
    while (slots_[i] != 0) i = (i + 1) & mask;
    slots_[i] = code + 1;
  }
}

void Column::push_null() {
  switch (type_) {
    case ColumnType::kString: codes_.push_back(dictionary_.code_of({})); break;
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
