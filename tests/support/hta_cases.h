#pragma once
// The HTA golden cases of tests/golden/hta_cases.tsv, one a line: a bundled trace, the
// hta-reference folder it is compared with, the report's flags, the sheets, the
// tolerance, the rank whose reference rows the trace is compared with, and the sheets
// still pending (HTA's CSV has no sollens sheet yet); and the report of each case, made
// by Session as `sollens report` makes it.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

#include "api/session.h"
#include "ingest/gzip.h"
#include "support/golden_cases.h"
#include "support/reference_csv.h"

namespace sollens::test {

inline const fs::path kHtaCases = fs::path(SOLLENS_FIXTURES_DIR).parent_path() / "golden" / "hta_cases.tsv";

// The golden case's columns (its reference an hta-reference folder), then two more.
struct HtaCase : GoldenCase {
  int rank = -1;                  // >= 0: only the reference rows of this rank
  std::set<std::string> pending;  // reference CSVs without a sollens sheet yet
};

inline HtaCase parse_hta_case(const std::string& line) {
  const std::vector<std::string> fields = split_on(line, '\t');
  REQUIRE(fields.size() == 7);
  HtaCase c;
  parse_golden_fields(fields, c);
  if (fields[5] != "-") c.rank = std::stoi(fields[5]);
  if (fields[6] != "-")
    for (const std::string& sheet : split_on(fields[6], ',')) c.pending.insert(sheet);
  return c;
}

inline std::vector<HtaCase> read_hta_cases() { return read_manifest(kHtaCases, parse_hta_case); }

// A reference CSV's text: <sheet>.csv, or <sheet>.csv.gz (the large ones) inflated by
// the reader the traces are inflated with. "" when neither exists.
inline std::string read_reference_csv(const fs::path& folder, const std::string& sheet) {
  if (fs::is_regular_file(folder / (sheet + ".csv"))) return read_text(folder / (sheet + ".csv"));
  const fs::path gz = folder / (sheet + ".csv.gz");
  if (!fs::is_regular_file(gz)) return "";
  const std::string bytes = read_text(gz);
  Result<Gunzipped> inflated = gunzip(bytes);
  REQUIRE(inflated.ok());
  return std::string(inflated->data.view());
}

// The sheet names of a reference folder's CSVs (plain or gzipped).
inline std::set<std::string> hta_reference_sheets(const fs::path& folder) {
  std::set<std::string> sheets;
  for (const auto& e : fs::directory_iterator(folder)) {
    const std::string n = e.path().filename().string();
    if (n.ends_with(".csv")) sheets.insert(n.substr(0, n.size() - 4));
    else if (n.ends_with(".csv.gz")) sheets.insert(n.substr(0, n.size() - 7));
  }
  return sheets;
}

struct HtaCaseReport {
  bool loaded = false;
  Report report;
  const Table* sheet(const std::string& name) const { return report.find(name); }
};

// The case's report as `sollens report` computes it with the case's flags.
inline HtaCaseReport hta_report_of_case(const HtaCase& c) {
  HtaCaseReport out;
  Session session;
  if (!session.load(PaddedBuffer::copy_of(read_text(kTraces / c.trace))).ok()) return out;
  ReportRequest request;
  const Status problem = read_report_words(c.flags, request);
  INFO(c.name);
  REQUIRE(problem.ok());
  out.report = session.report(request);
  out.loaded = true;
  return out;
}

}  // namespace sollens::test
