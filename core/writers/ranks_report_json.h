#pragma once
// The cross-rank report.json's metadata (sollens report with several traces writes the
// cross-rank sheets beside it with write_report_json): {"generator", "ranks": count}.
#include <cstddef>
#include <string>
#include <string_view>

namespace sollens {

std::string ranks_report_metadata_json(std::string_view generator, size_t rank_count);

}  // namespace sollens
