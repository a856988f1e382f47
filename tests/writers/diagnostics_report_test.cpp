// report.json's "diagnostics" member and the summary's counts line.
#include <catch2/catch.hpp>

#include <sstream>
#include <vector>

#include "writers/diagnostics_report.h"
#include "writers/report_json.h"

using namespace sollens;

namespace {

// The text of `"key": value` inside the JSON, value up to the next ',' or '}'.
std::string member_text(const std::string& json, const std::string& key) {
  const size_t at = json.find("\"" + key + "\": ");
  if (at == std::string::npos) return "(missing)";
  const size_t from = at + key.size() + 4;
  return json.substr(from, json.find_first_of(",}", from) - from);
}

}  // namespace

TEST_CASE("diagnostics report: each emitted one, and counts by code and severity", "[writers][diagnostics]") {
  const std::vector<Diagnostic> emitted{{Code::truncated, "cut at byte 120"},
                                        {Code::bad_numbers, "2 events"},
                                        {Code::truncated, "again"},
                                        {Code::internal_error, "odd"}};
  const std::string json = emitted_diagnostics_json(emitted);
  CHECK(json.starts_with(R"({"emitted": [{"code": "truncated", "severity": "warning", "message": "cut at byte 120"}, )"
                         R"({"code": "bad_numbers", "severity": "warning", "message": "2 events"}, )"));
  CHECK(member_text(json, "truncated") == "2");
  CHECK(member_text(json, "bad_numbers") == "1");
  CHECK(member_text(json, "internal_error") == "1");
  // Codes not emitted are counted as 0, so a script needs no test for the key.
  CHECK(member_text(json, "gzip_truncated") == "0");
  CHECK(json.ends_with(R"("severity_counts": {"error": 1, "warning": 3, "note": 0}})"));
}

TEST_CASE("diagnostics report: none emitted", "[writers][diagnostics]") {
  const std::string json = emitted_diagnostics_json({});
  CHECK(json.starts_with(R"({"emitted": [], "counts": {)"));
  CHECK(member_text(json, "truncated") == "0");
  CHECK(diagnostics_counts_line({}).empty());
}

TEST_CASE("diagnostics report: the counts line", "[writers][diagnostics]") {
  const std::vector<Diagnostic> emitted{
      {Code::truncated, ""}, {Code::truncated, ""}, {Code::bad_numbers, ""}, {Code::internal_error, ""}};
  CHECK(diagnostics_counts_line(emitted) ==
        "4 diagnostics: 1 error (internal_error), 3 warnings (truncated x2, bad_numbers)");
  const std::vector<Diagnostic> one{{Code::gzip_truncated, ""}};
  CHECK(diagnostics_counts_line(one) == "1 diagnostic: 1 warning (gzip_truncated)");
}

TEST_CASE("report json: the diagnostics member between metadata and sheets", "[writers][diagnostics]") {
  std::ostringstream out;
  write_report_json(R"({"generator": "t"})", R"({"emitted": []})", {}, out);
  CHECK(out.str() == "{\"metadata\": {\"generator\": \"t\"},\n\"diagnostics\": {\"emitted\": []},\n\"sheets\": {}}\n");
}
