#pragma once
// The diagnostics a run emitted, as report.json's "diagnostics" member:
//   {"emitted": [{"code", "severity", "message"}, ...],
//    "counts": {<every catalogue id>: n, ...},
//    "severity_counts": {"error": n, "warning": n, "note": n}}
// Every id and severity is counted, 0 included, so that a script can test
// diagnostics.counts.truncated without first asking whether the key is there.
#include <span>
#include <string>

#include "base/status.h"
#include "writers/json_builder.h"

namespace sollens {

std::string emitted_diagnostics_json(std::span<const Diagnostic> diagnostics,
                                     JsonBuilder::Spacing spacing = JsonBuilder::Spacing::kSpaced);

// "2 diagnostics: 1 warning (truncated), 1 note (...)": the counts in one line, or "" for none.
std::string diagnostics_counts_line(std::span<const Diagnostic> diagnostics);

}  // namespace sollens
