#pragma once
// Reads a report.json written by `sollens report` (writers/report_json.h) back into
// its sheets, so a stored report can stand in for a trace (the baseline of a diff).
// Column order is the key order of a sheet's first row; a column's type is what its
// values are (text, true/false, integers, or numbers with a fraction or exponent: float;
// integers and floats mixed: float); null is an empty cell. report.json keeps neither
// sheet kinds nor units: sheets come back as TableKind::kSummary with no units.
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "table/table.h"

namespace sollens {

struct StoredReport {
  std::vector<Table> sheets;
  std::string generator;  // metadata.generator, e.g. "sollens 0.1.0"
};

// True when the text starts like a report.json: an object whose first member is
// "sheets", or "metadata" whose first member is "generator" (a Kineto trace may start
// with a "metadata" member of its own).
bool looks_like_report_json(std::string_view text);

// The report's sheets, or why it cannot be read (report_not_json, report_no_sheets,
// report_bad_sheet).
Result<StoredReport> read_report_json(std::string_view text);

}  // namespace sollens
