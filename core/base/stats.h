#pragma once
// The reductions behind TraceLens's sheets, in the summation order of the library
// that computes them there, so results agree to the last bit or two:
// pandas groupby sum/mean (Kahan), groupby std (Welford, ddof = 1), medians;
// NumPy sum/mean/std (pairwise summation) for Series totals and kernel_details stats.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace sollens::stats {

// pandas groupby: sum / mean with Kahan compensation.
double pandas_sum(std::span<const double> v);
double pandas_mean(std::span<const double> v);
// pandas groupby std, ddof = 1 (Welford); empty for fewer than two values.
std::optional<double> pandas_std(std::span<const double> v);
// Median: middle value, or the mean of the two middle values.
double median(std::span<const double> v);

// NumPy np.sum / np.mean / np.std (ddof = 0) of a 1-d float64 array.
double numpy_sum(std::span<const double> v);
double numpy_mean(std::span<const double> v);
double numpy_std(std::span<const double> v);

}  // namespace sollens::stats

namespace sollens::stats {

// The row order of pandas' DataFrame.sort_values(col, ascending=False) (single key,
// kind="quicksort"): nargsort reverses the values, argsorts them with NumPy's scalar
// introsort (not stable: it decides the order of ties, which cumulative percentage
// columns then depend on) and reverses the result. NaN rows go last.
std::vector<size_t> pandas_argsort_desc(std::span<const double> values);

// The row order of sort_values([sum, "ex_UID"], ascending=[False, True]), the two-key
// sort of ops_unique_args and unified_perf_summary: sums descending, ties by the smaller
// ex_UID. The keys are distinct, so the order is fully determined.
std::vector<size_t> argsort_sum_desc_ex_uid_asc(std::span<const double> sums,
                                                std::span<const uint32_t> ex_uids);

}  // namespace sollens::stats
