#pragma once
// The page's Solar answer as JSON: solar.json's document (document_writer), the summary
// lines, whether it was measured, and its tables' descriptions.
#include <string>
#include <string_view>
#include <vector>

#include "table/document.h"

namespace sollens {

// {"solar": the document, "summary": [lines], "measured": bool, "sheets"}, compact.
std::string page_solar_json(const Document& document, const std::vector<std::string>& summary, bool measured,
                            std::string_view sheets);

}  // namespace sollens
