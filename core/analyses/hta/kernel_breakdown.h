#pragma once
// HTA's get_gpu_kernel_breakdown (duration_ratio, num_kernels, include_memory_kernels),
// over the kernels, memcpys and memsets of breakdown_events.h (not the syncs: HTA types
// them as none of the three):
//   `gpu_kernel_type_breakdown`: kernel_type, sum, percentage. Each type's events are
//     merged (HTA's merge); a sweep over the merged intervals of all types gives the
//     time each combination runs ("COMPUTATION overlapping COMMUNICATION": both at
//     once, names in the order COMPUTATION, COMMUNICATION, MEMORY). Rows by sum
//     descending (pandas' quicksort order for ties); percentage of the sum of all rows,
//     rounded to 1 decimal.
//   `gpu_kernel_breakdown`: name, sum (us), max (us), min (us), stddev, mean (us),
//     kernel_type, rank: per kernel name of each type, its durations' statistics. With
//     more than num_kernels names, the names beyond num_kernels by sum, or whose running
//     sum is above the duration_ratio quantile of the running sums, become one "others"
//     row, and then every row's statistics are over the names' sums (a named row has
//     max = min = mean = sum, stddev 0; as in HTA). A name whose total is negative (HTA's
//     rounding makes sub-µs events −1 µs long) keeps its own row, as HTA's references
//     show. Rows by kernel type, then name.
#include "analyses/hta/breakdown_events.h"
#include "analyses/hta/hta_options.h"
#include "model/trace_tree.h"
#include "table/table.h"

namespace sollens::hta {

Table gpu_kernel_type_breakdown_table(const HtaTrace& trace, const TraceTree& tree, const HtaOptions& options);
Table gpu_kernel_breakdown_table(const HtaTrace& trace, const TraceTree& tree, const HtaOptions& options);

// The per-name statistics HTA's _aggr_gpu_kernel_time gives (also the user annotations').
struct NamedDurations {
  std::string_view name;
  std::vector<double> durations;
};
struct NamedStats {
  std::string name;
  double sum = 0, max = 0, min = 0, stddev = 0, mean = 0;
};
// `groups` sorted by name; the result sorted by name too.
std::vector<NamedStats> aggregate_like_hta(const std::vector<NamedDurations>& groups, double duration_ratio,
                                           int64_t max_names);

// The leading columns of HTA's kernel and annotation breakdowns: name, sum (us), max (us),
// min (us), stddev, mean (us).
class NamedStatsColumns {
 public:
  explicit NamedStatsColumns(Table& table);
  void push(const NamedStats& stats);

 private:
  Column *name_, *sum_, *max_, *min_, *stddev_, *mean_;
};

}  // namespace sollens::hta
