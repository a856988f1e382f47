#pragma once
// The web page's answers as JSON (what PageSession returns): compact, keys in the
// page's camelCase. A result's tables travel as descriptions (table_description.h),
// given here as their JSON text; the page reads their cells column by column.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "analyses/cycles/cycle_sheets.h"
#include "analyses/ranks/rank_summary.h"
#include "base/status.h"
#include "devices/device_identify.h"
#include "report/report.h"
#include "store/event_store.h"

namespace sollens {

// {"error": {"code", "message"}}: what every build_* answers instead of its result, the
// code the catalogue's id (base/diagnostics.def).
std::string page_error_json(const Status& error);
// The answer's JSON text, or its error as page_error_json.
std::string page_answer(Result<std::string> answer);

// ["a","b"]
std::string string_array_json(const std::vector<std::string>& items);

// [{"code","message"}]: the load's warnings.
std::string ingest_warnings_json(const std::vector<Diagnostic>& warnings);

// {"timeline","ops","perf","collectives"} in ms.
std::string report_timings_json(const ReportTimings& timings);

// {"device","rooflineCeilings","timingsMs","sheets"}
std::string page_report_json(const DeviceIdentification& device, const ReportTimings& timings,
                             std::string_view sheets);

// {"summary","kernels","preambles","sheets"}: a preamble per cycle sheet.
std::string page_cycles_json(std::string_view summary, size_t kernels, const std::vector<CycleSheet>& cycle_sheets,
                             std::string_view sheets);

// {"names":[baseline, variant],"sheets"}
std::string page_comparison_json(std::string_view baseline, std::string_view variant, std::string_view sheets);

// {"ranks":[{"rank","file","rankFrom"}],"simplifiedMode","metadataMismatches","sheets"}
std::string page_ranks_json(const std::vector<ranks::RankSummary>& ranks, bool simplified_mode,
                            size_t metadata_mismatches, std::string_view sheets);

}  // namespace sollens
