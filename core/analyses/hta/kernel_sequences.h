#pragma once
// HTA's frequent CUDA kernel sequences (cuda_kernel_analysis.py
// get_frequent_cuda_kernel_sequences): the kernels launched under each occurrence of an
// operator, counted by sequence.
#include <cstdint>
#include <vector>

#include "analyses/hta/aten_op_kernels.h"
#include "analyses/hta/hta_options.h"
#include "analyses/hta/hta_trace.h"
#include "table/table.h"

namespace sollens::hta {

// HTA's call-stack depth: host_nesting's, with the backward thread's top-level events
// hung under the main thread's "## backward ##" annotation around them (else its
// ProfilerStep#N), as HTA's CallGraph links the two threads when the trace has exactly
// one thread with a ProfilerStep#N (main) and one other with autograd:: events (bwd).
std::vector<int32_t> call_graph_depth(const HtaTrace& trace, const HostNesting& nesting);

// frequent_cuda_kernel_sequences: pattern, count, GPU kernel duration (us), CPU op
// duration (us). Roots: the host events whose name contains options.sequences_operator,
// at the smallest depth any of them has, that launch at least options.min_pattern_len GPU
// events in their subtree; a root's pattern is its name and its GPU events' names by start,
// joined by "|". One row per pattern: its roots, their GPU events' total duration and the
// roots' total duration; most frequent first, then by pattern; the first options.top_k.
// No rows when the operator is empty or not found.
Table frequent_cuda_kernel_sequences_table(const HtaTrace& trace, const HtaOptions& options);

}  // namespace sollens::hta
