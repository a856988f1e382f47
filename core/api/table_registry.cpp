#include "api/table_registry.h"

#include "writers/table_description.h"

namespace sollens {

std::string TableRegistry::replace(TableSet set, std::vector<Table> tables) {
  drop(set);
  return add(set, std::move(tables));
}

std::string TableRegistry::add(TableSet set, std::vector<Table> tables) {
  std::vector<int32_t>& handles = handles_[static_cast<int>(set)];
  std::string descriptions = table_descriptions_json(next_handle_, tables);
  for (Table& table : tables) {
    const int32_t handle = next_handle_++;
    handles.push_back(handle);
    tables_.emplace(handle, std::move(table));
  }
  return descriptions;
}

void TableRegistry::clear() {
  drop(TableSet::kReport);
  drop(TableSet::kCycles);
  drop(TableSet::kSol);
  drop(TableSet::kComparison);
  drop(TableSet::kRanks);
  drop(TableSet::kTimeAxis);
  drop(TableSet::kTimeAxisRange);
}

const Table* TableRegistry::table(int32_t handle) const {
  auto it = tables_.find(handle);
  return it == tables_.end() ? nullptr : &it->second;
}

const Column* TableRegistry::column(int32_t handle, int column) const {
  const Table* t = table(handle);
  if (!t || column < 0 || static_cast<size_t>(column) >= t->num_columns()) return nullptr;
  return &t->column(static_cast<size_t>(column));
}

const EncodedColumn* TableRegistry::encoded(int32_t handle, int column) {
  const Column* col = this->column(handle, column);
  if (!col) return nullptr;
  auto [it, fresh] = encoded_.try_emplace(key(handle, column));
  if (fresh) it->second = encode_column(*col);
  return &it->second;
}

void TableRegistry::drop(TableSet set) {
  std::vector<int32_t>& handles = handles_[static_cast<int>(set)];
  for (int32_t handle : handles) {
    const Table& t = tables_.at(handle);
    for (size_t c = 0; c < t.num_columns(); ++c) encoded_.erase(key(handle, static_cast<int>(c)));
    tables_.erase(handle);
  }
  handles.clear();
}

uint64_t TableRegistry::key(int32_t handle, int column) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(handle)) << 32) | static_cast<uint32_t>(column);
}

}  // namespace sollens
