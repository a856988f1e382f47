#pragma once
// diff.json's metadata (sollens diff writes the compared sheets beside it with
// write_report_json): {"generator", "baseline", "variant", "names": [baseline, variant]}.
#include <string>
#include <string_view>

#include "analyses/diff/table_compare.h"

namespace sollens {

// `baseline` and `variant` are the inputs as given (traces, report folders or
// report.json files); `tags` the names that tag the compared columns.
std::string diff_metadata_json(std::string_view generator, std::string_view baseline, std::string_view variant,
                               const CompareTags& tags);

}  // namespace sollens
