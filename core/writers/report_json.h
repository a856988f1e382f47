#pragma once
// The whole report as one JSON document:
//   {"metadata": {<key>: <JSON value>, ...}, "sheets": {<sheet name>: [row objects], ...}}
//   (with `diagnostics`: {"metadata": ..., "diagnostics": ..., "sheets": ...})
// Sheets in the order given, each written as write_json writes a Table.
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "devices/device_identify.h"
#include "store/event_store.h"
#include "table/table.h"

namespace sollens {

// `metadata` is a JSON object's text (report_metadata_json, or a JsonBuilder's).
void write_report_json(std::string_view metadata, const std::vector<const Table*>& sheets, std::ostream& out);
// `diagnostics`: emitted_diagnostics_json's text (writers/diagnostics_report.h); "" leaves it out.
void write_report_json(std::string_view metadata, std::string_view diagnostics,
                       const std::vector<const Table*>& sheets, std::ostream& out);

// report.json's metadata: generator ("sollens <version>"), the trace file as given, the
// GPU the report is computed for (device_identification_json) and the trace's own keys
// (trace_metadata_json).
std::string report_metadata_json(std::string_view generator, std::string_view trace_file,
                                 const DeviceIdentification& device, const TraceMetadata& trace);

}  // namespace sollens
