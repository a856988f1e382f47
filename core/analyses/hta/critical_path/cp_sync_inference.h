#pragma once
// GPU → CPU waits HTA cannot see where the trace has no CUDA sync events: a blocking
// runtime call (device / stream / event synchronize, a synchronous copy, an async copy to
// or from pageable host memory; CUDA and HIP) returns when the last GPU event it waits for
// ends. That event is the one, among those it can wait for, that ends last inside the
// call; where none ends inside it the call did not wait and keeps its CPU time.
//   device sync: any GPU event of the process launched before the call;
//   stream / event sync: those on the stream the thread launched to last (the event's
//     stream is not in the trace), else as device sync;
//   copies: the copy itself and what was launched before it on its stream.
#include <vector>

#include "analyses/hta/critical_path/cp_graph.h"
#include "analyses/hta/critical_path/cp_view.h"

namespace sollens::hta::cp {

// (gpu row, call row) per blocking call that waited, calls in file order. Calls that
// already have a CUDA sync event are left to HTA's edges.
std::vector<GpuWait> infer_gpu_waits(const CpView& view);

}  // namespace sollens::hta::cp
