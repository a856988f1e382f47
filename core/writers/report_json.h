#pragma once
// The whole report as one JSON document:
//   {"metadata": {<key>: <JSON value>, ...}, "sheets": {<sheet name>: [row objects], ...}}
// Sheets in the order given, each written as write_json writes a Table. Metadata
// members are given as (key, JSON text) pairs (report/trace_metadata_json makes the trace's).
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "base/json_text.h"
#include "table/table.h"

namespace sollens {

void write_report_json(const JsonMembers& metadata, const std::vector<const Table*>& sheets,
                       std::ostream& out);

}  // namespace sollens
