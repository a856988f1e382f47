#pragma once
// A map from event rows to int32 values, where most rows have none (-1): which perf
// model evaluation an op has, the forward op of a backward one. One bit a row marks the
// rows that have a value, a count every 64 rows finds a value in O(1), and only the
// values present are stored: about 0.2 bytes a row and 4 a value, where an int32 per
// row would be 4 bytes a row for a few percent of rows.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace sollens {

class RowMap {
 public:
  RowMap() = default;

  // From (row, value) pairs in any order, rows below `rows`; where a row is given twice,
  // the later pair wins.
  static RowMap from_pairs(size_t rows, std::vector<std::pair<uint32_t, int32_t>> pairs);

  size_t rows() const { return rows_; }
  size_t values() const { return values_.size(); }
  // The row's value, -1 where it has none (or is past the rows).
  int32_t operator[](size_t row) const {
    if (row >= rows_) return -1;
    const uint64_t word = present_[row >> 6];
    const uint64_t bit = uint64_t(1) << (row & 63);
    if (!(word & bit)) return -1;
    return values_[before_[row >> 6] + static_cast<uint32_t>(std::popcount(word & (bit - 1)))];
  }
  // fn(row, value) for each row with a value, by row.
  template <typename Fn>
  void for_each(Fn&& fn) const {
    size_t k = 0;
    for (size_t w = 0; w < present_.size(); ++w)
      for (uint64_t word = present_[w]; word; word &= word - 1)
        fn(static_cast<uint32_t>(w * 64 + static_cast<size_t>(std::countr_zero(word))), values_[k++]);
  }

 private:
  size_t rows_ = 0;
  std::vector<uint64_t> present_;  // bit r % 64 of word r / 64: row r has a value
  std::vector<uint32_t> before_;   // values in the words before this one
  std::vector<int32_t> values_;    // by row
};

}  // namespace sollens
