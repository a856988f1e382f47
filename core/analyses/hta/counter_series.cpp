#include "analyses/hta/counter_series.h"

#include "analyses/hta/cupti_counters.h"
#include "analyses/hta/memory_bandwidth.h"
#include "analyses/hta/queue_length.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <unordered_set>
#include <utility>

namespace sollens::hta {

namespace {

constexpr ptrdiff_t kSmallQuicksort = 15;  // numpy sorts ranges this short by insertion

using Index = std::vector<uint32_t>::iterator;

// numpy's aheapsort on [first, first + n): the heap is indexed from 1.
void heapsort_order(const std::vector<double>& v, Index first, ptrdiff_t n) {
  auto at = [&](ptrdiff_t k) -> uint32_t& { return first[k - 1]; };
  auto sift = [&](ptrdiff_t i, ptrdiff_t size, uint32_t moving) {
    for (ptrdiff_t j = i * 2; j <= size;) {
      if (j < size && v[at(j)] < v[at(j + 1)]) ++j;
      if (!(v[moving] < v[at(j)])) break;
      at(i) = at(j);
      i = j;
      j += j;
    }
    at(i) = moving;
  };
  for (ptrdiff_t l = n >> 1; l > 0; --l) sift(l, n, at(l));
  for (ptrdiff_t size = n; size > 1;) {
    const uint32_t moving = at(size);
    at(size) = at(1);
    --size;
    sift(1, size, moving);
  }
}

void insertion_order(const std::vector<double>& v, Index pl, Index pr) {
  for (Index pi = pl + 1; pi <= pr; ++pi) {
    const uint32_t moving = *pi;
    Index pj = pi;
    for (; pj > pl && v[moving] < v[*(pj - 1)]; --pj) *pj = *(pj - 1);
    *pj = moving;
  }
}

// One partition step around the median of three; returns the pivot's final place.
Index partition_order(const std::vector<double>& v, Index pl, Index pr) {
  const Index pm = pl + ((pr - pl) >> 1);
  if (v[*pm] < v[*pl]) std::iter_swap(pm, pl);
  if (v[*pr] < v[*pm]) std::iter_swap(pr, pm);
  if (v[*pm] < v[*pl]) std::iter_swap(pm, pl);
  const double pivot = v[*pm];
  Index pi = pl;
  Index pj = pr - 1;
  std::iter_swap(pm, pj);
  for (;;) {
    do ++pi; while (v[*pi] < pivot);
    do --pj; while (pivot < v[*pj]);
    if (pi >= pj) break;
    std::iter_swap(pi, pj);
  }
  std::iter_swap(pi, pr - 1);
  return pi;
}

struct Range {
  Index pl, pr;
  int depth;
};

}  // namespace

std::vector<uint32_t> numpy_quicksort_order(const std::vector<double>& keys) {
  std::vector<uint32_t> order(keys.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  if (order.size() < 2) return order;
  std::vector<Range> stack;
  Range cur{order.begin(), order.end() - 1, static_cast<int>(2 * (std::bit_width(keys.size()) - 1))};
  for (;;) {
    if (cur.depth < 0) {
      heapsort_order(keys, cur.pl, cur.pr - cur.pl + 1);
    } else {
      while (cur.pr - cur.pl > kSmallQuicksort) {
        const Index pi = partition_order(keys, cur.pl, cur.pr);
        --cur.depth;
        // The larger side waits on the stack, as numpy does.
        if (pi - cur.pl < cur.pr - pi) {
          stack.push_back({pi + 1, cur.pr, cur.depth});
          cur.pr = pi - 1;
        } else {
          stack.push_back({cur.pl, pi - 1, cur.depth});
          cur.pl = pi + 1;
        }
      }
      insertion_order(keys, cur.pl, cur.pr);
    }
    if (stack.empty()) break;
    cur = stack.back();
    stack.pop_back();
  }
  return order;
}

CounterSeries counter_series(const HtaTrace& trace) {
  return {trace.rank(), queue_length_series(trace), memory_bw_series(trace)};
}

std::vector<Table> counter_tables(const HtaTrace& trace, const TraceTree& tree, const HtaOptions& options) {
  const CounterSeries series = counter_series(trace);
  std::vector<Table> tables;
  tables.push_back(queue_length_summary_table(trace, series.queue_length));
  if (options.time_series) tables.push_back(queue_length_time_series_table(trace, series.queue_length));
  tables.push_back(time_blocked_on_full_queue_table(trace, series.queue_length, options));
  tables.push_back(memory_bw_summary_table(trace, series.memory_bw));
  if (options.time_series) tables.push_back(memory_bw_time_series_table(trace, series.memory_bw));
  tables.push_back(cupti_counters_table(trace, tree));
  return tables;
}

}  // namespace sollens::hta
