#pragma once
// The whole report as one JSON document:
//   {"metadata": {<key>: <JSON value>, ...}, "sheets": {<sheet name>: [row objects], ...}}
// Sheets in the order given, each written as write_json writes a Table. Metadata
// members are given as (key, JSON text) pairs; trace_metadata_json makes the usual one.
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "store/event_store.h"
#include "table/table.h"

namespace sollens {

using JsonMembers = std::vector<std::pair<std::string, std::string>>;  // key, JSON text

void write_report_json(const JsonMembers& metadata, const std::vector<const Table*>& sheets,
                       std::ostream& out);

// The trace's top-level keys: schemaVersion, baseTimeNanoseconds, displayTimeUnit,
// traceName, deviceProperties (the fields we read), distributedInfo and the other
// scalar keys (as strings). Absent values are left out.
std::string trace_metadata_json(const TraceMetadata& m);

// An object from members ("{}" when empty).
std::string json_object(const JsonMembers& members);

}  // namespace sollens
