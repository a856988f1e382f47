#include "base/stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

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

namespace sollens::stats {

namespace {

// NumPy's npy::double_tag::less: NaNs sort last.
bool np_less(double a, double b) { return a < b || (b != b && a == a); }

// numpy/_core/src/npysort/heapsort.cpp: aheapsort_ over tosort[0, n).
void np_aheapsort(const double* v, size_t* tosort, ptrdiff_t n) {
  size_t* a = tosort - 1;  // 1-based
  ptrdiff_t i, j, l;
  size_t tmp;
  for (l = n >> 1; l > 0; --l) {
    tmp = a[l];
    for (i = l, j = l << 1; j <= n;) {
      if (j < n && np_less(v[a[j]], v[a[j + 1]])) j += 1;
      if (np_less(v[tmp], v[a[j]])) {
        a[i] = a[j];
        i = j;
        j += j;
      } else {
        break;
      }
    }
    a[i] = tmp;
  }
  for (; n > 1;) {
    tmp = a[n];
    a[n] = a[1];
    n -= 1;
    for (i = 1, j = 2; j <= n;) {
      if (j < n && np_less(v[a[j]], v[a[j + 1]])) j++;
      if (np_less(v[tmp], v[a[j]])) {
        a[i] = a[j];
        i = j;
        j += j;
      } else {
        break;
      }
    }
    a[i] = tmp;
  }
}

// numpy/_core/src/npysort/quicksort.cpp: aquicksort_ (the scalar path).
void np_aquicksort(const double* v, size_t* tosort, ptrdiff_t num) {
  constexpr ptrdiff_t kSmall = 16;
  size_t* pl = tosort;
  size_t* pr = tosort + num - 1;
  std::vector<size_t*> stack;
  std::vector<int> depth;
  int cdepth = 0;
  for (ptrdiff_t u = num; u >>= 1;) ++cdepth;
  cdepth *= 2;
  for (;;) {
    if (cdepth < 0) {
      np_aheapsort(v, pl, pr - pl + 1);
    } else {
      while ((pr - pl) > kSmall) {
        size_t* pm = pl + ((pr - pl) >> 1);
        if (np_less(v[*pm], v[*pl])) std::swap(*pm, *pl);
        if (np_less(v[*pr], v[*pm])) std::swap(*pr, *pm);
        if (np_less(v[*pm], v[*pl])) std::swap(*pm, *pl);
        const double vp = v[*pm];
        size_t* pi = pl;
        size_t* pj = pr - 1;
        std::swap(*pm, *pj);
        for (;;) {
          do ++pi; while (np_less(v[*pi], vp));
          do --pj; while (np_less(vp, v[*pj]));
          if (pi >= pj) break;
          std::swap(*pi, *pj);
        }
        size_t* pk = pr - 1;
        std::swap(*pi, *pk);
        if (pi - pl < pr - pi) {
          stack.push_back(pi + 1);
          stack.push_back(pr);
          pr = pi - 1;
        } else {
          stack.push_back(pl);
          stack.push_back(pi - 1);
          pl = pi + 1;
        }
        depth.push_back(--cdepth);
      }
      for (size_t* pi = pl + 1; pi <= pr; ++pi) {
        const size_t vi = *pi;
        const double vp = v[vi];
        size_t* pj = pi;
        size_t* pk = pi - 1;
        while (pj > pl && np_less(vp, v[*pk])) *pj-- = *pk--;
        *pj = vi;
      }
    }
    if (stack.empty()) break;
    pr = stack.back();
    stack.pop_back();
    pl = stack.back();
    stack.pop_back();
    cdepth = depth.back();
    depth.pop_back();
  }
}

}  // namespace

std::vector<size_t> pandas_argsort_desc(std::span<const double> values) {
  const size_t n = values.size();
  std::vector<size_t> nan_rows, rows;  // original indices of NaN / non-NaN values
  for (size_t i = 0; i < n; ++i) (std::isnan(values[i]) ? nan_rows : rows).push_back(i);
  // non_nans[::-1], argsort, map back through the reversed index, reverse.
  std::vector<double> reversed;
  std::vector<size_t> reversed_index;
  for (size_t k = rows.size(); k-- > 0;) {
    reversed.push_back(values[rows[k]]);
    reversed_index.push_back(rows[k]);
  }
  std::vector<size_t> order(reversed.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (order.size() > 1)
    np_aquicksort(reversed.data(), order.data(), static_cast<ptrdiff_t>(order.size()));
  std::vector<size_t> out;
  out.reserve(n);
  for (size_t k = order.size(); k-- > 0;) out.push_back(reversed_index[order[k]]);
  out.insert(out.end(), nan_rows.begin(), nan_rows.end());  // na_position="last"
  return out;
}

std::vector<size_t> argsort_sum_desc_ex_uid_asc(std::span<const double> sums,
                                                std::span<const uint32_t> ex_uids) {
  std::vector<size_t> order(sums.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (sums[a] != sums[b]) return sums[a] > sums[b];
    return ex_uids[a] < ex_uids[b];
  });
  return order;
}

}  // namespace sollens::stats
