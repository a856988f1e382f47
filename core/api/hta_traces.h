#pragma once
// The traces HTA writes for Perfetto UI, written again from a loaded session: every byte
// of the trace kept and events appended to its events array. No file I/O: the caller
// opens the stream (`sollens report --counters-trace FILE`, `--critical-path-trace FILE`).
#include <ostream>
#include <string>

#include "api/session.h"
#include "base/status.h"

namespace sollens {

// With HTA's counter tracks (generate_trace_with_counters): each stream's launch queue
// length and each kind of memory copy's bandwidth. ok when written, else why not
// (not_a_trace: the trace's text has no events array; nothing is written then).
Status write_counters_trace(const Session& session, std::ostream& out);

// With HTA's critical path overlaid (overlay_critical_path_analysis): flow arrows along
// the path and a copy of each of its events on a "Critical path" process. The path is
// HTA's (no inferred GPU waits) over the stretch request.critical_path names. ok when
// written, else why not (conflicting_options with --critical-path none, not_a_trace;
// nothing is written then).
Status write_critical_path_trace(const Session& session, const ReportRequest& request, std::ostream& out);

}  // namespace sollens
