#pragma once
// The trace's top-level keys as the JSON text of report.json's metadata.trace (and the
// page's trace metadata).
#include <string>

#include "store/event_store.h"

namespace sollens {

// schemaVersion, baseTimeNanoseconds, displayTimeUnit, traceName, deviceProperties (the
// fields we read), distributedInfo and the other scalar keys (as strings). Absent
// values are left out.
std::string trace_metadata_json(const TraceMetadata& m);

}  // namespace sollens
