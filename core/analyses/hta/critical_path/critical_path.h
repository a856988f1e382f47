#pragma once
// The critical path of one rank's trace, as Holistic Trace Analysis computes it
// (critical_path_analysis: a graph of CPU operator and GPU kernel start / end points,
// the longest path through it), or with the GPU → CPU waits HTA cannot see inferred
// from the blocking runtime calls. The sheets and the overlaid trace both read this.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analyses/hta/hta_options.h"
#include "analyses/hta/hta_trace.h"

namespace sollens::hta {

// HTA's CPEdgeType.
enum class CpEdgeType : uint8_t {
  kOperatorKernel,     // a span inside one operator or kernel
  kDependency,         // one top-level operator to the next on a thread (weight 0)
  kKernelLaunchDelay,  // runtime call start → its kernel's start
  kKernelKernelDelay,  // one kernel's end → the next kernel's start on a stream
  kSyncDependency,     // a GPU event's end → the end of the CPU call that waited for it (weight 0)
};
std::string_view edge_type_name(CpEdgeType type);  // HTA's value: "critical_path_operator", ...

// HTA's bound_by classes; kNone is its empty class (dependency and sync edges).
enum class BoundBy : uint8_t {
  kNone,
  kCpu,
  kGpuCompute,
  kGpuCommunication,
  kKernelKernelOverhead,
  kKernelLaunchOverhead,
};
std::string_view bound_by_name(BoundBy b);  // "", "cpu_bound", "gpu_compute_bound", ...

inline constexpr int64_t kNoEvent = -1;

// One edge of the path, in path order.
struct CriticalPathStep {
  uint32_t from_event = 0;  // store rows of the edge's two points
  uint32_t to_event = 0;
  bool from_start = false;  // whether each point is its event's start (else its end)
  bool to_start = false;
  double from_ts = 0;  // µs, HTA's times
  double to_ts = 0;
  CpEdgeType type = CpEdgeType::kOperatorKernel;
  double duration = 0;       // µs, HTA's edge weight (−1 where rounding made a child outlast its parent)
  int64_t event = kNoEvent;  // the store row the edge is attributed to (operator, kernel, kernel-kernel gap)
  int64_t stream = -1;       // that event's stream as HTA reads it (−1: a CPU event)
  BoundBy bound_by = BoundBy::kNone;
  bool inferred = false;  // a GPU → CPU wait sollens inferred (not in HTA's graph)
};

struct CriticalPath {
  bool inferred_sync = false;  // computed with the inferred GPU → CPU waits
  std::string annotation;      // the annotation the path is limited to; "" = the whole trace
  int64_t instance = -1;       // index into the annotation's occurrences; −1 = the whole trace
  uint32_t annotation_event = 0;  // store row of that occurrence (when instance >= 0)
  double window_start = 0;     // µs, HTA's times
  double window_end = 0;
  std::string note;            // why the window is what it is, or why there is no path
  size_t graph_nodes = 0;
  size_t graph_edges = 0;
  size_t inferred_waits = 0;   // GPU → CPU edges sollens added
  std::vector<CriticalPathStep> steps;
};

// The path of `options.critical_path_annotation`'s instance `options.critical_path_instance`
// (see HtaOptions); infer_gpu_waits adds an edge from the GPU event each blocking runtime
// call waited for (cudaDeviceSynchronize, cudaStreamSynchronize, cudaEventSynchronize,
// blocking copies, their HIP twins) to the call's end, and counts GPU events on stream 0
// (ROCm's default stream) as GPU work, which HTA leaves out.
CriticalPath critical_path(const HtaTrace& trace, const HtaOptions& options, bool infer_gpu_waits);

}  // namespace sollens::hta
