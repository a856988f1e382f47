#pragma once
// HTA's kernel launch statistics (cuda_kernel_analysis.py cuda_kernel_launch_stats): for
// every GPU event launched by a runtime call, the call's duration on the CPU, the GPU
// event's duration and the launch delay (GPU start − end of the call, negative as 0),
// with the outliers HTA plots from them.
#include <cstdint>
#include <vector>

#include "analyses/hta/hta_options.h"
#include "analyses/hta/hta_trace.h"
#include "table/table.h"

namespace sollens::hta {

struct LaunchRow {
  uint32_t runtime = 0;  // the launching call (store row)
  uint32_t gpu = 0;      // the GPU event (store row)
  int64_t correlation = 0;
  double cpu_duration = 0;  // µs, HTA's rounded times
  double gpu_duration = 0;
  double launch_delay = 0;
};

// HTA's rows: every host event whose correlation id is on a cudaLaunchKernel,
// cudaLaunchKernelExC, cudaMemcpyAsync or cudaMemsetAsync call, joined with every GPU-side
// event (numeric stream) of that id; host events in file order, then GPU events in file
// order. Only the events HTA keeps (HtaTrace::loaded: the last profiler step is dropped where
// a trace names two or more).
std::vector<LaunchRow> hta_launch_rows(const HtaTrace& trace);

// The launches HTA leaves out: runtime and driver calls under other names that have a
// kernel, memcpy or memset with their correlation id (cuLaunchKernel(Ex) of Triton and
// CUDA graphs' kernels, hipLaunchKernel, hipExtModuleLaunchKernel, hipMemcpyWithStream,
// cudaGraphLaunch, ...), and whose id is not already in HTA's rows. Calls in file order,
// before the last step's cut whatever their stream arg (ROCm's calls carry one), with
// every GPU event of their id (ROCm's run on stream 0, which HTA's loader drops).
std::vector<LaunchRow> other_api_launch_rows(const HtaTrace& trace);

// cuda_kernel_launch_stats: rank, correlation, cpu_duration, gpu_duration, launch_delay.
Table cuda_kernel_launch_stats_table(const HtaTrace& trace, const std::vector<LaunchRow>& rows);
// cuda_kernel_launch_stats_other_apis: the same columns and launch_api (the call's name).
Table other_api_launch_stats_table(const HtaTrace& trace, const std::vector<LaunchRow>& rows);

// HTA's three outlier plots as sheets (same columns as cuda_kernel_launch_stats), over
// `rows` (HTA's and the other APIs' launches together):
//   cuda_kernel_launch_short_kernels: cpu_duration ≤ runtime_cutoff_us and
//     gpu_duration < cpu_duration ("short GPU kernels");
//   cuda_kernel_launch_runtime_outliers: cpu_duration > runtime_cutoff_us;
//   cuda_kernel_launch_delay_outliers: launch_delay > launch_delay_cutoff_us.
std::vector<Table> launch_outlier_tables(const HtaTrace& trace, const std::vector<LaunchRow>& rows,
                                         const HtaOptions& options);

// All of the above in report order.
std::vector<Table> launch_stats_tables(const HtaTrace& trace, const HtaOptions& options);

}  // namespace sollens::hta
