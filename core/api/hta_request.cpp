#include "api/hta_request.h"

namespace sollens {

hta::HtaOptions hta_options(const ReportRequest& request) {
  hta::HtaOptions options;
  options.enabled = !request.no_hta;
  options.consecutive_kernel_delay_us = request.hta_kernel_gap_us;
  options.kernel_duration_ratio = request.hta_kernel_share;
  options.num_kernels = request.hta_top_kernels;
  options.kernels_with_user_annotations = request.hta_kernels_with_annotations;
  options.runtime_cutoff_us = request.hta_runtime_cutoff_us;
  options.launch_delay_cutoff_us = request.hta_launch_delay_cutoff_us;
  options.max_queue_length = request.hta_max_queue_length;
  options.time_series = request.hta_time_series;
  options.sequences_operator = request.hta_sequences;
  options.min_pattern_len = request.hta_sequence_min_length;
  options.top_k = request.hta_sequence_top_k;
  options.critical_path = request.critical_path.enabled;
  options.critical_path_annotation = request.critical_path.annotation;
  options.critical_path_instance = request.critical_path.instance;
  return options;
}

}  // namespace sollens
