#include "writers/ranks_report_json.h"

#include "writers/json_builder.h"

namespace sollens {

std::string ranks_report_metadata_json(std::string_view generator, size_t rank_count) {
  JsonBuilder json;
  return json.begin_object().member("generator", generator).member("ranks", rank_count).end_object().take();
}

}  // namespace sollens
