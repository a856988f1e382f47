#include "writers/report_json.h"

#include "writers/json_writer.h"

namespace sollens {

void write_report_json(const JsonMembers& metadata, const std::vector<const Table*>& sheets,
                       std::ostream& out) {
  out << "{\"metadata\": " << json_object(metadata) << ",\n\"sheets\": {";
  for (size_t i = 0; i < sheets.size(); ++i) {
    out << (i ? ",\n" : "\n") << json_string(sheets[i]->name()) << ": ";
    write_json(*sheets[i], out);
  }
  out << "}}\n";
}

}  // namespace sollens
