#include "base/interval_math.h"

#include <algorithm>
#include <cmath>

namespace sollens {

IntervalList merge_intervals(IntervalList v) {
  std::sort(v.begin(), v.end(), [](const Interval& a, const Interval& b) {
    return a.start < b.start || (a.start == b.start && a.end < b.end);
  });
  IntervalList out;
  out.reserve(v.size());
  for (const Interval& i : v) {
    if (!out.empty() && i.start <= out.back().end) {
      out.back().end = std::max(out.back().end, i.end);
    } else {
      out.push_back(i);
    }
  }
  return out;
}

IntervalList subtract_intervals(const IntervalList& a, const IntervalList& b) {
  IntervalList out;
  size_t j = 0;
  for (const Interval& x : a) {
    double start = x.start;
    while (j < b.size() && b[j].end <= start) ++j;  // b intervals entirely before
    size_t k = j;
    while (k < b.size() && b[k].start < x.end) {
      if (b[k].start > start) out.push_back({start, b[k].start});
      start = std::max(start, b[k].end);
      if (start >= x.end) break;
      ++k;
    }
    if (start < x.end) out.push_back({start, x.end});
  }
  return out;
}

double total_length(const IntervalList& merged) {
  // Neumaier summation: Python ≥ 3.12 sums floats this way.
  double sum = 0, compensation = 0;
  for (const Interval& i : merged) {
    const double x = i.end - i.start;
    const double t = sum + x;
    if (std::fabs(sum) >= std::fabs(x)) compensation += (sum - t) + x;
    else compensation += (x - t) + sum;
    sum = t;
  }
  return sum + compensation;
}

}  // namespace sollens
