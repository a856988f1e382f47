#pragma once
// HTA's ATen op launch statistics (cuda_kernel_analysis.py get_aten_op_kernels_and_delay):
// which kernels each ATen op launches, how often each sequence occurs, how long after the
// op starts its first kernel is launched and how long that launch takes to start on the GPU.
#include <cstdint>
#include <string_view>
#include <vector>

#include "analyses/hta/hta_trace.h"
#include "table/table.h"

namespace sollens::hta {

// Host events (no numeric stream, and every runtime or driver call; not the GPU's
// gpu_user_annotation tracks) nested per (pid, tid)
// as HTA's call stacks nest them: by HTA's rounded times, an event starting where another
// ends follows it unless one of the two lasts 0 µs. Rows HTA does not keep stay outside.
struct HostNesting {
  std::vector<int32_t> parent;  // per store row: the enclosing host event, else −1
  std::vector<int32_t> depth;   // per store row: 0 for a thread's top level, −1 outside
};
HostNesting host_nesting(const HtaTrace& trace, const std::vector<uint8_t>& kept);

// A runtime or driver call that launches a kernel: its name has "LaunchKernel" in it
// (cudaLaunchKernel, cudaLaunchKernelExC, cuLaunchKernel, cuLaunchKernelEx,
// hipLaunchKernel, hipExtModuleLaunchKernel, hipModuleLaunchKernel, ...).
bool is_kernel_launch_call(std::string_view name);

// aten_op_kernels_and_delay: rank, aten_op_name, kernel_sequence, occurrence_count,
// avg_aten_op_launch_delay, avg_runtime_delay. Each kernel launch belongs to the innermost
// `aten::` op enclosing it on its thread; an op instance's kernels, in launch order joined
// by " -> ", are its sequence; its delays are its first launch's: launch start − op start
// and kernel start − launch start (µs). Rows: one per (op name, sequence), most frequent
// first, then by op name and sequence; averages over the instances, rounded to 3 decimals.
Table aten_op_kernels_and_delay_table(const HtaTrace& trace);

}  // namespace sollens::hta
