#pragma once
// A graph-capture trace held beside a Session's trace: the trace recorded while the
// CUDA / HIP graphs that the session's trace replays were captured. SOL maps each
// replayed kernel to the op captured here (analyses/sol/sol_graph_ops.h).
#include <memory>

#include "analyses/perf/modeled_ops.h"
#include "analyses/sol/sol_graph_ops.h"
#include "base/status.h"
#include "model/trace_tree.h"
#include "store/event_store.h"
#include "store/padded_buffer.h"

namespace sollens {

struct LoadOptions;
struct LoadStats;

class LoadedCapture {
 public:
  // Parses the capture trace and models its ops; its tree has python frames, whose
  // nn.Module frames name the captured ops' layers. The tree options are the replay
  // trace's (SGLang's per-call-site op names stripped alike). Allocation failures throw
  // (Session::load_capture, the API's edge, turns them into out_of_memory).
  Result<LoadStats> load(PaddedBuffer bytes, const LoadOptions& options);
  const CaptureTrace& trace() const { return trace_; }

 private:
  std::unique_ptr<EventStore> store_;
  std::unique_ptr<TraceTree> tree_;
  std::unique_ptr<ModeledOps> modeled_;
  CaptureTrace trace_;
};

}  // namespace sollens
