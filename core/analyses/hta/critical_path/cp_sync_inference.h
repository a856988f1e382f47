#pragma once
// GPU → CPU waits HTA cannot see where the trace has no CUDA sync events: a blocking
// runtime call (device / stream / event synchronize, a synchronous copy, an async copy to
// or from pageable host memory; CUDA and HIP) returns when the last GPU event it waits for
// ends. A stream runs its work in launch order, so on each stream the call can wait for
// it waits for the stream's last launch before the call; the edge comes from the one of
// those that ends last inside the call (within 1 µs). Where none ends inside it the call
// did not wait and keeps its CPU time.
//   device sync: every stream the process launched to;
//   stream / event sync: the stream the thread launched to last (the trace names neither
//     the stream nor the event), else every stream;
//   copies: the copy itself and its stream.
#include <vector>

#include "analyses/hta/critical_path/cp_graph.h"
#include "analyses/hta/critical_path/cp_view.h"

namespace sollens::hta::cp {

// (gpu row, call row) per blocking call that waited, calls in file order. Calls that
// already have a CUDA sync event are left to HTA's edges.
std::vector<GpuWait> infer_gpu_waits(const CpView& view);

}  // namespace sollens::hta::cp
