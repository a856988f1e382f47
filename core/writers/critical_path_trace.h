#pragma once
// The trace again with its critical path overlaid, for Perfetto UI (HTA's
// overlay_critical_path_analysis). The original events are kept byte for byte, so the
// path is marked by events appended to traceEvents:
//   * flow arrows ("ph" "s" / "f", name and cat "critical_path", args weight, critical,
//     type) for the path's dependency, kernel-launch and sync edges, HTA's default set,
//     bound to the original events' slices (an end point 1 µs inside its event, as HTA
//     places GPU ends, at most half the event);
//   * a copy of every event on the path on a "Critical path" process of its own, one
//     thread per original track, with the µs of the path it carries and its bound_by,
//     which HTA instead writes into the original event's args ("critical": 1).
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "analyses/hta/critical_path/critical_path.h"
#include "store/event_store.h"

namespace sollens {

// The appended events' JSON texts, in order: the Critical path process and thread names,
// the copies in path order, then the flow pairs.
std::vector<std::string> critical_path_trace_events(const EventStore& store, const hta::CriticalPath& path);

// `trace_json` (the trace the store was read from) with those events appended; false, and
// nothing written, when the text has no traceEvents array.
bool write_critical_path_trace(std::string_view trace_json, const EventStore& store, const hta::CriticalPath& path,
                               std::ostream& out);

}  // namespace sollens
