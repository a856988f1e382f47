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

struct HtaCase {
  fs::path trace;                   // relative to kTraces
  fs::path reference;               // an hta-reference folder, relative to kTraces
  std::vector<std::string> flags;   // `sollens report` flags (report_flags.def's words)
  std::vector<std::string> sheets;  // empty: every CSV of the reference
  double tolerance = 0;             // relative, for numbers
  int rank = -1;                    // >= 0: only the reference rows of this rank
  std::set<std::string> pending;    // reference CSVs without a sollens sheet yet
  std::string name;                 // the trace and its flags, naming the case
};

// "-" and "*" stand for none and all, so that no column of a line is ever empty.
inline HtaCase parse_hta_case(const std::string& line) {
  const std::vector<std::string> fields = split_on(line, '\t');
  REQUIRE(fields.size() == 7);
  HtaCase c;
  c.trace = fields[0];
  c.reference = fields[1];
  if (fields[2] != "-") c.flags = split_on(fields[2], ' ');
  if (fields[3] != "*") c.sheets = split_on(fields[3], ',');
  size_t parsed = 0;
  c.tolerance = std::stod(fields[4], &parsed);
  REQUIRE(parsed == fields[4].size());
  if (fields[5] != "-") c.rank = std::stoi(fields[5]);
  if (fields[6] != "-")
    for (const std::string& sheet : split_on(fields[6], ',')) c.pending.insert(sheet);
  c.name = fields[0] + (fields[2] == "-" ? "" : " " + fields[2]);
  return c;
}

inline std::vector<HtaCase> read_hta_cases() {
  std::istringstream in(read_text(kHtaCases));
  std::vector<HtaCase> cases;
  size_t number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.empty() || line.starts_with("#")) continue;
    INFO(kHtaCases.string() << " line " << number);
    cases.push_back(parse_hta_case(line));
  }
  REQUIRE_FALSE(cases.empty());
  return cases;
}

// A reference CSV's text: <sheet>.csv, or <sheet>.csv.gz (the large ones) inflated by
// the reader the traces are inflated with. "" when neither exists.
inline std::string read_reference_csv(const fs::path& folder, const std::string& sheet) {
  if (fs::is_regular_file(folder / (sheet + ".csv"))) return read_text(folder / (sheet + ".csv"));
  const fs::path gz = folder / (sheet + ".csv.gz");
  if (!fs::is_regular_file(gz)) return "";
  const std::string bytes = read_text(gz);
  GunzipResult inflated = gunzip(bytes);
  REQUIRE(inflated.error.empty());
  return std::string(inflated.data.view());
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
  if (!session.load(PaddedBuffer::copy_of(read_text(kTraces / c.trace))).ok) return out;
  ReportRequest request;
  const std::string problem = read_report_words(c.flags, request);
  INFO(c.name);
  REQUIRE(problem.empty());
  out.report = session.report(request);
  out.loaded = true;
  return out;
}

}  // namespace sollens::test
