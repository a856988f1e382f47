#include "writers/diff_json.h"

#include "writers/json_builder.h"

namespace sollens {

std::string diff_metadata_json(std::string_view generator, std::string_view baseline, std::string_view variant,
                               const CompareTags& tags) {
  JsonBuilder json;
  json.begin_object().member("generator", generator).member("baseline", baseline).member("variant", variant);
  json.key("names").begin_array().string(tags.baseline).string(tags.variant).end_array();
  return json.end_object().take();
}

}  // namespace sollens
