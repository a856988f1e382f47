#pragma once
// The traces HTA writes for Perfetto UI, written again from a loaded session: every byte
// of the trace kept and events appended to its events array. No file I/O: the caller
// opens the stream (`sollens report --counters-trace FILE`, `--critical-path-trace FILE`).
#include <ostream>
#include <string>

#include "api/session.h"

namespace sollens {

// With HTA's counter tracks (generate_trace_with_counters): each stream's launch queue
// length and each kind of memory copy's bandwidth. "" when written, else why not (the
// trace's text has no events array; nothing is written then).
std::string write_counters_trace(const Session& session, std::ostream& out);

}  // namespace sollens
