#pragma once
// What the HTA sheets are computed with; every default is HTA's own.
#include <cstdint>
#include <string>

namespace sollens::hta {

struct HtaOptions {
  bool enabled = true;
  // idle_time_breakdown: a gap under this many µs between consecutive kernels is kernel_wait.
  double consecutive_kernel_delay_us = 30;
  // gpu_kernel_breakdown: per kernel type, the top kernels covering this share of its time,
  // at most `num_kernels`, the rest as "others".
  double kernel_duration_ratio = 0.8;
  int64_t num_kernels = 10;
  bool include_memory_kernels = true;
  // gpu_user_annotation_breakdown.
  double annotation_duration_ratio = 0.8;
  int64_t num_annotations = 1000;
  // gpu_kernels_with_user_annotations: one row per GPU event, so off unless asked for.
  bool kernels_with_user_annotations = false;
  // cuda_kernel_launch_stats outliers: runtime calls longer than runtime_cutoff_us whose
  // kernels are shorter, and launch delays longer than launch_delay_cutoff_us.
  double runtime_cutoff_us = 50;
  double launch_delay_cutoff_us = 100;
  // Time blocked on a full launch queue (CUDA_MAX_LAUNCH_QUEUE_PER_STREAM).
  int64_t max_queue_length = 1024;
  // The per-event time series of queue length and memory bandwidth (large: off by default).
  bool time_series = false;
  // Frequent kernel sequences under this operator; empty: no sheet.
  std::string sequences_operator;
  int64_t min_pattern_len = 3;
  int64_t top_k = 5;
  // The critical path: of `annotation`'s instance `instance` (index into its occurrences;
  // negative: 1 where the annotation occurs twice or more, else 0); annotation "": the
  // whole trace. critical_path false: no critical-path sheets.
  bool critical_path = true;
  std::string critical_path_annotation = "ProfilerStep";
  int64_t critical_path_instance = -1;
};

}  // namespace sollens::hta
