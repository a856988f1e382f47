#pragma once
// The one small columnar table type every analysis returns and every writer and
// binding reads: named, typed columns with a validity mask (null = empty cell).
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace sollens {

enum class ColumnType : uint8_t { kString, kInt, kFloat, kBool };

class Column {
 public:
  Column(std::string name, ColumnType type) : name_(std::move(name)), type_(type) {}

  const std::string& name() const { return name_; }
  ColumnType type() const { return type_; }
  size_t size() const { return valid_.size(); }
  bool is_null(size_t row) const { return !valid_[row]; }

  void push_string(std::string_view v) { strings_.emplace_back(v); valid_.push_back(1); }
  void push_int(int64_t v) { ints_.push_back(v); valid_.push_back(1); }
  void push_float(double v) { floats_.push_back(v); valid_.push_back(1); }
  void push_bool(bool v) { ints_.push_back(v ? 1 : 0); valid_.push_back(1); }
  void push_null();

  const std::string& string_at(size_t row) const { return strings_[row]; }
  int64_t int_at(size_t row) const { return ints_[row]; }
  double float_at(size_t row) const { return floats_[row]; }
  bool bool_at(size_t row) const { return ints_[row] != 0; }

  const std::vector<double>& floats() const { return floats_; }
  const std::vector<int64_t>& ints() const { return ints_; }
  const std::vector<std::string>& strings() const { return strings_; }
  const std::vector<uint8_t>& validity() const { return valid_; }

 private:
  std::string name_;
  ColumnType type_;
  std::vector<std::string> strings_;
  std::vector<int64_t> ints_;  // kInt and kBool
  std::vector<double> floats_;
  std::vector<uint8_t> valid_;
};

class Table {
 public:
  explicit Table(std::string name) : name_(std::move(name)) {}

  const std::string& name() const { return name_; }
  Column& add_column(std::string name, ColumnType type);
  size_t num_columns() const { return columns_.size(); }
  size_t num_rows() const { return columns_.empty() ? 0 : columns_.front().size(); }
  const Column& column(size_t i) const { return columns_[i]; }
  Column& column(size_t i) { return columns_[i]; }
  // Null when absent.
  const Column* find(std::string_view name) const;

 private:
  std::string name_;
  std::deque<Column> columns_;  // deque: references from add_column stay valid
};

}  // namespace sollens
