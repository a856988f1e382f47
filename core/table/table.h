#pragma once
// The one small columnar table type every analysis returns and every writer and
// binding reads: named, typed columns with a validity mask (null = empty cell). A
// table says what kind of sheet it is and each column the unit of its values, so
// that readers (the page) never guess them from names.
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace sollens {

enum class ColumnType : uint8_t { kString, kInt, kFloat, kBool };

// A string column's values, each distinct string held once: a table of a million
// rows naming a few hundred kernels holds a few hundred strings and a code per row.
class StringDictionary {
 public:
  // The code of `v`, added when new.
  uint32_t code_of(std::string_view v);
  const std::string& at(uint32_t code) const { return strings_[code]; }
  size_t size() const { return strings_.size(); }

 private:
  void rehash(size_t slots);

  std::vector<std::string> strings_;  // by code, in first-seen order
  std::vector<uint32_t> slots_;       // open addressing: code + 1, 0 for empty
};

// The unit of a column's values as the sheets hold them (never converted). Names for
// people and the page: writers/table_labels.h.
enum class Unit : uint8_t {
  kNone,             // counts, ids, text, or a ratio without unit
  kMicroseconds,
  kMilliseconds,
  kPercent,
  kGflop,            // work (TraceLens's "GFLOPS" column is an amount, not a rate)
  kMegabytes,        // 2^20 bytes, labelled MB as TraceLens does
  kTflopsPerSecond,
  kTerabytesPerSecond,
  kGigabytesPerSecond,
  kFlopsPerByte,
  kTimestamp,        // an instant on the trace's clock, µs as Kineto's ts (not a duration)
};

// What a sheet is, for readers that treat sheets by kind (the page's views).
enum class TableKind : uint8_t {
  kTimeline,     // gpu_timeline: GPU time by type
  kSummary,      // ops and kernel summaries (ops_summary*, ops_unique_args, kernel_summary, short_kernels_summary)
  kHistogram,    // short_kernel_histogram
  kPerfModel,    // one sheet per perf-model family (GEMM, SDPA_fwd, ...)
  kUnifiedPerf,  // unified_perf_summary: every op, modeled or not
  kCollectives,  // coll_analysis
  kCycles,       // repeating-kernel cycles (sollens cycles)
  kSpeedOfLight, // speed-of-light accounting (sollens sol)
  kComparison,   // two runs compared (sollens diff)
  kRanks,        // many ranks side by side (the multi-rank report)
  kHta,          // Holistic Trace Analysis's questions (temporal breakdown, launch stats, critical path, ...)
};

class Column {
 public:
  Column(std::string name, ColumnType type, Unit unit = Unit::kNone)
      : name_(std::move(name)), type_(type), unit_(unit) {}

  const std::string& name() const { return name_; }
  ColumnType type() const { return type_; }
  Unit unit() const { return unit_; }
  size_t size() const { return valid_.size(); }
  bool is_null(size_t row) const { return !valid_[row]; }

  void push_string(std::string_view v) { codes_.push_back(dictionary_.code_of(v)); valid_.push_back(1); }
  void push_int(int64_t v) { ints_.push_back(v); valid_.push_back(1); }
  void push_float(double v) { floats_.push_back(v); valid_.push_back(1); }
  void push_bool(bool v) { ints_.push_back(v ? 1 : 0); valid_.push_back(1); }
  void push_null();

  const std::string& string_at(size_t row) const { return dictionary_.at(codes_[row]); }
  // kString: the row's code in dictionary() (a null row's is the empty string's).
  uint32_t string_code(size_t row) const { return codes_[row]; }
  const StringDictionary& dictionary() const { return dictionary_; }
  int64_t int_at(size_t row) const { return ints_[row]; }
  double float_at(size_t row) const { return floats_[row]; }
  bool bool_at(size_t row) const { return ints_[row] != 0; }

  const std::vector<double>& floats() const { return floats_; }
  const std::vector<int64_t>& ints() const { return ints_; }
  const std::vector<uint8_t>& validity() const { return valid_; }

 private:
  std::string name_;
  ColumnType type_;
  Unit unit_;
  StringDictionary dictionary_;  // kString: the distinct strings
  std::vector<uint32_t> codes_;  // kString: each row's string in dictionary_
  std::vector<int64_t> ints_;  // kInt and kBool
  std::vector<double> floats_;
  std::vector<uint8_t> valid_;
};

class Table {
 public:
  Table(std::string name, TableKind kind) : name_(std::move(name)), kind_(kind) {}

  const std::string& name() const { return name_; }
  TableKind kind() const { return kind_; }
  Column& add_column(std::string name, ColumnType type, Unit unit = Unit::kNone);
  size_t num_columns() const { return columns_.size(); }
  size_t num_rows() const { return columns_.empty() ? 0 : columns_.front().size(); }
  const Column& column(size_t i) const { return columns_[i]; }
  Column& column(size_t i) { return columns_[i]; }
  // Null when absent.
  const Column* find(std::string_view name) const;

 private:
  std::string name_;
  TableKind kind_;
  std::deque<Column> columns_;  // deque: references from add_column stay valid
};

// The first sheet named `name`; null when there is none.
const Table* find_sheet(const std::vector<Table>& sheets, std::string_view name);

}  // namespace sollens
