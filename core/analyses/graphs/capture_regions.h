#pragma once
// Where a trace captured CUDA / HIP graphs: the launches recorded between each
// cuda/hipStreamBeginCapture and the next EndCapture of the same thread that never ran
// (a launch under capture records a graph node; it has no GPU event).
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "analyses/graphs/launch_alignment.h"
#include "model/trace_tree.h"
#include "store/event_store.h"

namespace sollens {

struct CaptureRegion {
  std::vector<LaunchItem> launches;  // by ts
  int64_t batch = -1;  // from the capture_<N>_… annotation around it, -1 when unknown
};

// With no capture marks at all and `whole_trace_when_unmarked`, one region of every
// launch that never ran.
std::vector<CaptureRegion> capture_regions(const EventStore& store, const TraceTree& tree,
                                           bool whole_trace_when_unmarked);

// The batch size a serving framework writes into its step and capture annotations:
// `execute_32_context_…` around a replay (vLLM, SGLang), `capture_32_FULL` /
// `capture_32_DECODE` around a capture. -1 when the name is not `<prefix><N>` or
// `<prefix><N>_…`.
int64_t batch_in_name(std::string_view name, std::string_view prefix);

// The user annotations of one prefix that carry a batch size.
class BatchMarks {
 public:
  BatchMarks(const EventStore& store, std::string_view prefix);
  // The innermost mark on the event's thread holding its start; -1 when none.
  int64_t around(uint32_t event) const;

 private:
  const EventStore& s_;
  std::vector<std::pair<uint32_t, int64_t>> marks_;  // (annotation, batch)
};

}  // namespace sollens
