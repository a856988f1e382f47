#include "analyses/ops/stats.h"

#include <algorithm>
#include <cmath>

namespace sollens::stats {

double pandas_sum(std::span<const double> v) {
  double sum = 0, compensation = 0;
  for (double x : v) {
    const double y = x - compensation;
    const double t = sum + y;
    compensation = t - sum - y;
    sum = t;
  }
  return sum;
}

double pandas_mean(std::span<const double> v) {
  return v.empty() ? std::nan("") : pandas_sum(v) / static_cast<double>(v.size());
}

std::optional<double> pandas_std(std::span<const double> v) {
  if (v.size() < 2) return std::nullopt;
  double mean = 0, m2 = 0, n = 0;
  for (double x : v) {
    n += 1;
    const double old = mean;
    mean += (x - old) / n;
    m2 += (x - old) * (x - mean);
  }
  return std::sqrt(m2 / (n - 1));
}

double median(std::span<const double> v) {
  if (v.empty()) return std::nan("");
  std::vector<double> s(v.begin(), v.end());
  std::sort(s.begin(), s.end());
  const size_t n = s.size();
  if (n % 2) return s[n / 2];
  return (s[n / 2 - 1] + s[n / 2]) / 2;
}

namespace {

// numpy/core/src/umath/loops_utils.h: pairwise_sum for float64.
double pairwise(const double* a, size_t n) {
  if (n < 8) {
    double res = 0.;
    for (size_t i = 0; i < n; ++i) res += a[i];
    return res;
  }
  if (n <= 128) {
    double r[8];
    for (int j = 0; j < 8; ++j) r[j] = a[j];
    size_t i = 8;
    for (; i < n - (n % 8); i += 8)
      for (int j = 0; j < 8; ++j) r[j] += a[i + j];
    double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += a[i];
    return res;
  }
  size_t n2 = n / 2;
  n2 -= n2 % 8;
  return pairwise(a, n2) + pairwise(a + n2, n - n2);
}

}  // namespace

double numpy_sum(std::span<const double> v) { return 0.0 + pairwise(v.data(), v.size()); }

double numpy_mean(std::span<const double> v) {
  return numpy_sum(v) / static_cast<double>(v.size());
}

double numpy_std(std::span<const double> v) {
  const double mean = numpy_mean(v);
  std::vector<double> sq(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    const double d = v[i] - mean;
    sq[i] = d * d;
  }
  return std::sqrt(numpy_sum(sq) / static_cast<double>(v.size()));
}

}  // namespace sollens::stats
