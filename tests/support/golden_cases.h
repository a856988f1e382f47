#pragma once
// The golden report cases of tests/golden/cases.tsv, one a line: a bundled trace, the
// TraceLens report it is compared with, the report's flags, the sheets and the
// tolerance; and the report each case asks for.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "support/golden_fixtures.h"
#include "support/golden_report.h"

namespace sollens::test {

inline const fs::path kGoldenCases = fs::path(SOLLENS_FIXTURES_DIR).parent_path() / "golden" / "cases.tsv";

struct GoldenCase {
  fs::path trace;                   // relative to kTraces
  fs::path reference;               // a TraceLens report folder, relative to kTraces
  std::vector<std::string> flags;   // `sollens report` flags
  std::vector<std::string> sheets;  // empty: every CSV of the reference
  double tolerance = 0;             // relative, for numbers
  std::string name;                 // the trace and its flags, naming the case
};

inline std::vector<std::string> split_on(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, separator);) parts.push_back(part);
  return parts;
}

// The five columns every golden manifest starts with. "-" and "*" stand for none and
// all, so that no column of a line is ever empty.
inline void parse_golden_fields(const std::vector<std::string>& fields, GoldenCase& c) {
  c.trace = fields[0];
  c.reference = fields[1];
  if (fields[2] != "-") c.flags = split_on(fields[2], ' ');
  if (fields[3] != "*") c.sheets = split_on(fields[3], ',');
  size_t parsed = 0;
  c.tolerance = std::stod(fields[4], &parsed);
  REQUIRE(parsed == fields[4].size());
  c.name = fields[0] + (fields[2] == "-" ? "" : " " + fields[2]);
}

inline GoldenCase parse_golden_case(const std::string& line) {
  const std::vector<std::string> fields = split_on(line, '\t');
  REQUIRE(fields.size() == 5);
  GoldenCase c;
  parse_golden_fields(fields, c);
  return c;
}

// Every line of a manifest but blank ones and # comments, each read by `parse`.
template <class Parse>
auto read_manifest(const fs::path& manifest, Parse parse) {
  std::istringstream in(read_text(manifest));
  std::vector<decltype(parse(std::string()))> cases;
  size_t number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.empty() || line.starts_with("#")) continue;
    INFO(manifest.string() << " line " << number);
    cases.push_back(parse(line));
  }
  REQUIRE_FALSE(cases.empty());
  return cases;
}

inline std::vector<GoldenCase> read_golden_cases() { return read_manifest(kGoldenCases, parse_golden_case); }

// The sheet without the columns whose name contains `part` ("(corrected)": the columns
// sollens adds to TraceLens's perf-model sheets; "Roofline": those of an arch file).
inline Table without_columns_named(const Table& t, std::string_view part) {
  Table out(t.name(), t.kind());
  for (size_t c = 0; c < t.num_columns(); ++c)
    if (t.column(c).name().find(part) == std::string::npos) out.add_column("", ColumnType::kString) = t.column(c);
  return out;
}

// The case's report as `sollens report` computes it with the case's flags (without
// --no-roofline: for the GPU identified from the trace), with TraceLens's columns only:
// coll_analysis without the NCCL bus bandwidth columns sollens adds.
inline GoldenReport report_of_case(const GoldenCase& c) {
  ReportOptions options;
  options.collectives.bandwidth_columns = false;
  bool trace_device = true;
  for (const std::string& flag : c.flags) {
    if (flag == "--no-roofline")
      trace_device = false;
    else
      FAIL(c.name << ": the golden runner does not read the flag " << flag);
  }
  return report_of(kTraces / c.trace, options, trace_device);
}

}  // namespace sollens::test
