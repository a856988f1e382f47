#include "model/row_map.h"

#include <algorithm>

namespace sollens {

RowMap RowMap::from_pairs(size_t rows, std::vector<std::pair<uint32_t, int32_t>> pairs) {
  // By row, the later of a row's pairs last; then one value a row, the last.
  std::stable_sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  RowMap m;
  m.rows_ = rows;
  m.present_.assign((rows + 63) / 64, 0);
  m.before_.assign(m.present_.size(), 0);
  m.values_.reserve(pairs.size());
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (i + 1 < pairs.size() && pairs[i + 1].first == pairs[i].first) continue;
    const uint32_t row = pairs[i].first;
    m.present_[row >> 6] |= uint64_t(1) << (row & 63);
    m.values_.push_back(pairs[i].second);
  }
  uint32_t count = 0;
  for (size_t w = 0; w < m.present_.size(); ++w) {
    m.before_[w] = count;
    count += static_cast<uint32_t>(std::popcount(m.present_[w]));
  }
  return m;
}

}  // namespace sollens
