#pragma once
// The short-kernel study (tracelens-semantics.md §4.10): `kernel` events with
// dur < threshold. short_kernel_histogram is numpy.histogram(durations, bins);
// short_kernels_summary groups them by [Parent cpu_op, Input dims, Input strides,
// Concrete Inputs, Kernel name] (Kernel name only for GPU-only traces), dropping rows
// with a missing key as pandas' groupby does.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "analyses/ops/op_args.h"
#include "model/trace_tree.h"
#include "store/event_store.h"
#include "table/table.h"

namespace sollens {

struct ShortKernelOptions {
  double threshold_us = 10;  // --short_kernel_threshold_us
  int histogram_bins = 100;  // --short_kernel_histogram_bins
  // --topk_short_kernels: the summary's first N rows after sorting, as pandas' head(N)
  // (a negative N keeps all but the last -N); nullopt: every row.
  std::optional<int64_t> topk;
};

// numpy.histogram(values, bins): equal-width bins from min to max, the last bin closed.
// Returns bins + 1 edges and bins counts (empty when values is).
void numpy_histogram(std::span<const double> values, int bins, std::vector<double>& edges,
                     std::vector<int64_t>& counts);

Table short_kernel_histogram_table(const EventStore& store, const TraceTree& tree,
                                   const ShortKernelOptions& options = {});

// total_time_us: the gpu_timeline total. Always a table: with no short kernel it has
// no columns (TraceLens writes a 1-byte CSV); when short kernels exist but every one
// has a missing key, TraceLens writes its empty two-level header, reproduced as three
// columns "Kernel duration (µs)" and one row "sum, count, mean".
Table short_kernels_summary_table(const EventStore& store, const TraceTree& tree,
                                  double total_time_us, const ShortKernelOptions& options = {},
                                  const OpArgsSource& args = {});

}  // namespace sollens
