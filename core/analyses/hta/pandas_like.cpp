#include "analyses/hta/pandas_like.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/stats.h"

namespace sollens::hta {

double round_like_pandas(double value, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::nearbyint(value * scale) / scale;
}

double quantile_like_numpy(const std::vector<double>& sorted, double q) {
  const double index = q * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(index));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double t = index - static_cast<double>(lo);
  const double a = sorted[lo], b = sorted[hi], diff = b - a;
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;  // NumPy's lerp: exact at either end
}

Describe describe(std::vector<double> values) {
  Describe d;
  d.count = static_cast<int64_t>(values.size());
  if (values.empty()) return d;
  d.mean = stats::numpy_mean(values);
  d.std = std::numeric_limits<double>::quiet_NaN();
  if (values.size() > 1) {
    std::vector<double> squares(values.size());
    for (size_t i = 0; i < values.size(); ++i) squares[i] = (values[i] - d.mean) * (values[i] - d.mean);
    d.std = std::sqrt(stats::numpy_sum(squares) / static_cast<double>(values.size() - 1));
  }
  std::sort(values.begin(), values.end());
  d.min = values.front();
  d.max = values.back();
  d.q25 = quantile_like_numpy(values, 0.25);
  d.q50 = quantile_like_numpy(values, 0.5);
  d.q75 = quantile_like_numpy(values, 0.75);
  return d;
}

void push_statistic(Column& column, double value) {
  if (std::isnan(value)) column.push_null();
  else column.push_float(value);
}

DescribeColumns::DescribeColumns(Table& t, Unit unit) : count_(&t.add_column("count", ColumnType::kInt)) {
  const std::array<const char*, 7> names = {"mean", "std", "min", "25%", "50%", "75%", "max"};
  for (size_t k = 0; k < names.size(); ++k) statistics_[k] = &t.add_column(names[k], ColumnType::kFloat, unit);
}

void DescribeColumns::push(const Describe& d) {
  count_->push_int(d.count);
  const std::array<double, 7> values = {d.mean, d.std, d.min, d.q25, d.q50, d.q75, d.max};
  for (size_t k = 0; k < values.size(); ++k) push_statistic(*statistics_[k], values[k]);
}

}  // namespace sollens::hta
