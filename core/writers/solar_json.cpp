#include "writers/solar_json.h"

#include "writers/document_writer.h"
#include "writers/json_builder.h"

namespace sollens {

std::string page_solar_json(const Document& document, const std::vector<std::string>& summary, bool measured,
                            std::string_view sheets) {
  JsonBuilder json(JsonBuilder::Spacing::kCompact);
  json.begin_object();
  json.member_raw("solar", document_json(document));
  json.key("summary").begin_array();
  for (const std::string& line : summary) json.string(line);
  json.end_array();
  json.member("measured", measured);
  json.member_raw("sheets", sheets);
  return json.end_object().take();
}

}  // namespace sollens
