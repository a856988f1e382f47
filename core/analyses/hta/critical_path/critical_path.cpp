#include "analyses/hta/critical_path/critical_path.h"

#include "analyses/hta/critical_path/cp_graph.h"
#include "analyses/hta/critical_path/cp_longest_path.h"
#include "analyses/hta/critical_path/cp_names.h"
#include "analyses/hta/critical_path/cp_sync_inference.h"
#include "analyses/hta/critical_path/cp_view.h"

namespace sollens::hta {

std::string_view edge_type_name(CpEdgeType type) {
  switch (type) {
    case CpEdgeType::kOperatorKernel: return "critical_path_operator";
    case CpEdgeType::kDependency: return "critical_path_dependency";
    case CpEdgeType::kKernelLaunchDelay: return "critical_path_kernel_launch_delay";
    case CpEdgeType::kKernelKernelDelay: return "critical_path_kernel_kernel_delay";
    case CpEdgeType::kSyncDependency: break;
  }
  return "critical_path_sync_dependency";
}

std::string_view bound_by_name(BoundBy b) {
  switch (b) {
    case BoundBy::kCpu: return "cpu_bound";
    case BoundBy::kGpuCompute: return "gpu_compute_bound";
    case BoundBy::kGpuCommunication: return "gpu_communication_bound";
    case BoundBy::kKernelKernelOverhead: return "gpu_kernel_kernel_overhead";
    case BoundBy::kKernelLaunchOverhead: return "gpu_kernel_launch_overhead";
    case BoundBy::kNone: break;
  }
  return "";
}

namespace {

// HTA's bound_by(): by edge type, else by the attributed event: a CPU event (stream < 0)
// is cpu_bound, an NCCL kernel communication, any other GPU event compute.
BoundBy bound_by_of(const cp::CpView& view, CpEdgeType type, int64_t event) {
  switch (type) {
    case CpEdgeType::kKernelKernelDelay: return BoundBy::kKernelKernelOverhead;
    case CpEdgeType::kKernelLaunchDelay: return BoundBy::kKernelLaunchOverhead;
    case CpEdgeType::kDependency:
    case CpEdgeType::kSyncDependency: return BoundBy::kNone;
    case CpEdgeType::kOperatorKernel: break;
  }
  if (event < 0 || view.stream(static_cast<uint32_t>(event)) < 0) return BoundBy::kCpu;
  // HTA looks in the shortened name, which only drops text: look there only when the full
  // name has it at all (shortening long kernel names is costly).
  const std::string_view name = view.store().name_of(static_cast<size_t>(event));
  if (name.find("ncclKernel") != std::string_view::npos &&
      cp::shorten_name(name).find("ncclKernel") != std::string::npos)
    return BoundBy::kGpuCommunication;
  return BoundBy::kGpuCompute;
}

CriticalPathStep step_of(const cp::CpView& view, const cp::CpGraph& graph, const cp::CpEdge& e) {
  const cp::CpNode& from = graph.nodes()[e.from];
  const cp::CpNode& to = graph.nodes()[e.to];
  CriticalPathStep step;
  step.from_event = from.event;
  step.to_event = to.event;
  step.from_start = from.is_start;
  step.to_start = to.is_start;
  step.from_ts = from.ts;
  step.to_ts = to.ts;
  step.type = e.type;
  step.duration = e.weight;
  step.event = e.has_attribution ? e.attributed : kNoEvent;
  if (step.event >= 0) step.stream = view.stream(static_cast<uint32_t>(step.event));
  step.bound_by = bound_by_of(view, e.type, step.event);
  step.inferred = e.inferred;
  return step;
}

}  // namespace

CriticalPath critical_path(const HtaTrace& trace, const HtaOptions& options, bool infer_gpu_waits) {
  return cp::critical_path(cp::CpView(trace, options, infer_gpu_waits), infer_gpu_waits);
}

CriticalPath cp::critical_path(const cp::CpView& view, bool infer_gpu_waits, cp::CpGraphCache* cache) {
  CriticalPath path;
  path.inferred_sync = infer_gpu_waits;
  path.annotation = view.annotation;
  path.instance = view.instance;
  path.annotation_event = view.annotation_event;
  path.window_start = view.window_start;
  path.window_end = view.window_end;
  path.note = view.note;

  const std::vector<cp::GpuWait> waits = infer_gpu_waits ? cp::infer_gpu_waits(view) : std::vector<cp::GpuWait>{};
  const cp::CpGraph graph(view, infer_gpu_waits, waits, cache);
  path.graph_nodes = graph.node_order().size();
  path.graph_edges = graph.edges().size();
  path.inferred_waits = waits.size();
  const cp::LongestPath longest = cp::longest_path(graph);
  if (!longest.acyclic) {
    path.note += (path.note.empty() ? "" : "; ") + std::string("the graph has a cycle: no path");
    return path;
  }
  path.steps.reserve(longest.edges.size());
  for (const uint32_t e : longest.edges) path.steps.push_back(step_of(view, graph, graph.edges()[e]));
  return path;
}

}  // namespace sollens::hta
