#pragma once
// pandas' and NumPy's arithmetic as HTA's results carry it: rounding to n decimals,
// linear quantiles, describe(), and NaN written as an empty cell.
#include <array>
#include <cstdint>
#include <vector>

#include "table/table.h"

namespace sollens::hta {

// pandas' round: x · 10ⁿ rounded half to even, ÷ 10ⁿ.
double round_like_pandas(double value, int decimals);

// NumPy's linear-interpolation quantile (pandas quantile / describe) of sorted values.
double quantile_like_numpy(const std::vector<double>& sorted, double q);

// pandas' describe(): count, mean (NumPy's pairwise sum), sample std (NaN for one value),
// min, quartiles, max.
struct Describe {
  int64_t count = 0;
  double mean = 0, std = 0, min = 0, q25 = 0, q50 = 0, q75 = 0, max = 0;
};
Describe describe(std::vector<double> values);

// A statistic into its column: an undefined one (NaN) is empty, as pandas writes NaN.
void push_statistic(Column& column, double value);

// describe()'s columns as HTA's summaries write them: count, mean, std, min, 25%, 50%,
// 75%, max, the statistics in `unit`.
class DescribeColumns {
 public:
  DescribeColumns(Table& table, Unit unit);
  void push(const Describe& d);

 private:
  Column* count_;
  std::array<Column*, 7> statistics_;
};

}  // namespace sollens::hta
