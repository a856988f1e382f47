#pragma once
// kernel_details_summary (tracelens-semantics.md §4.8): statistics per kernel
// position across a group's kernel lists, the first non-empty list being the
// template (lists of another length are skipped), and its truncated form
// trunc_kernel_details. Shared by ops_unique_args and the perf-model sheets.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "store/event_store.h"

namespace sollens {

struct KernelPositionStats {
  std::string_view name;  // the template's kernel at this position
  int64_t stream = kNoValue;  // kNoValue: None
  size_t count = 0;
  double total_us = 0;  // plain sum of dur (np.sum), not a union
  double mean_us = 0, median_us = 0, std_us = 0, min_us = 0, max_us = 0;  // std: ddof = 0
};

// `lists`: each row's direct GPU events, in the group's row order.
std::vector<KernelPositionStats> summarize_kernel_stats(
    const EventStore& store, std::span<const std::span<const uint32_t>> lists);

// [{'name': ..., 'stream': 7, 'count': 17, 'total_duration_us': ..., ...}], sorted by
// (total_duration_us, name).
std::string kernel_details_summary_repr(const std::vector<KernelPositionStats>& stats);
// [{'name': name[:64] + '...', 'stream': 7, 'mean_duration_us': round(mean, 2)}]
// (round of an np.float64, i.e. numpy_round);
// nullopt (None) for an empty list.
std::optional<std::string> trunc_kernel_details_repr(const std::vector<KernelPositionStats>& stats);

// NumPy's round(x, decimals) for decimals >= 0: rint(x * 10**decimals) / 10**decimals.
double numpy_round(double x, int decimals);

}  // namespace sollens
