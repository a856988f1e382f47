#include "analyses/hta/hta_sheets.h"

#include "analyses/hta/breakdowns.h"
#include "analyses/hta/counter_series.h"
#include "analyses/hta/critical_path/critical_path_sheets.h"
#include "analyses/hta/hta_trace.h"
#include "analyses/hta/aten_op_kernels.h"
#include "analyses/hta/kernel_sequences.h"
#include "analyses/hta/launch_stats.h"

namespace sollens::hta {

std::vector<Table> hta_tables(const EventStore& store, const TraceTree& tree, const HtaOptions& options) {
  std::vector<Table> sheets;
  if (!options.enabled) return sheets;
  sheets.reserve(32);  // a Table is copied, not moved, when the vector grows (its deque may throw)
  const HtaTrace trace(store);
  auto add = [&sheets](Table t) { sheets.push_back(std::move(t)); };
  // breakdowns: temporal, idle time, kernel types, kernels, user annotations
  add(temporal_breakdown_table(trace, tree, options));
  add(idle_time_breakdown_table(trace, tree, options));
  add(idle_time_interval_stats_table(trace, tree, options));
  add(comm_comp_overlap_table(trace, tree, options));
  add(gpu_kernel_type_breakdown_table(trace, tree, options));
  add(gpu_kernel_breakdown_table(trace, tree, options));
  add(gpu_user_annotation_breakdown_table(trace, tree, options));
  if (options.kernels_with_user_annotations) add(gpu_kernels_with_user_annotations_table(trace, tree, options));

  // kernel launches: launch stats and outliers, ATen op kernels, frequent sequences
  for (Table& t : launch_stats_tables(trace, options)) add(std::move(t));
  add(aten_op_kernels_and_delay_table(trace));
  if (!options.sequences_operator.empty()) add(frequent_cuda_kernel_sequences_table(trace, options));

  // counters: queue length, memory bandwidth, CUPTI counters
  for (Table& t : counter_tables(trace, tree, options)) add(std::move(t));

  // critical path
  for (Table& t : critical_path_tables(trace, options)) add(std::move(t));

  return sheets;
}

}  // namespace sollens::hta
