#include "writers/report_json.h"

#include "base/json_text.h"
#include "writers/device_json.h"
#include "writers/json_builder.h"
#include "writers/json_writer.h"
#include "writers/trace_metadata_json.h"

namespace sollens {

// Streamed sheet by sheet: the sheets of a large trace are tens of MB of text.
void write_report_json(std::string_view metadata, const std::vector<const Table*>& sheets, std::ostream& out) {
  write_report_json(metadata, "", sheets, out);
}

void write_report_json(std::string_view metadata, std::string_view diagnostics,
                       const std::vector<const Table*>& sheets, std::ostream& out) {
  out << "{\"metadata\": " << metadata;
  if (!diagnostics.empty()) out << ",\n\"diagnostics\": " << diagnostics;
  out << ",\n\"sheets\": {";
  for (size_t i = 0; i < sheets.size(); ++i) {
    out << (i ? ",\n" : "\n") << json_string(sheets[i]->name()) << ": ";
    write_json(*sheets[i], out);
  }
  out << "}}\n";
}

std::string report_metadata_json(std::string_view generator, std::string_view trace_file,
                                 const DeviceIdentification& device, const TraceMetadata& trace) {
  JsonBuilder json;
  return json.begin_object()
      .member("generator", generator)
      .member("trace_file", trace_file)
      .member_raw("device", device_identification_json(device))
      .member_raw("trace", trace_metadata_json(trace))
      .end_object()
      .take();
}

}  // namespace sollens
