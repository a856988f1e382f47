// The page's answers: compact JSON, camelCase keys, tables as their descriptions' text.
#include <catch2/catch.hpp>

#include "writers/page_json.h"

using namespace sollens;

TEST_CASE("page json: an error, a list of words, the load's warnings") {
  CHECK(page_error_json(Status(Code::not_a_trace, "no \"trace\"")) ==
        R"({"error":{"code":"not_a_trace","message":"no \"trace\""}})");
  CHECK(string_array_json({"B200", "H100"}) == R"(["B200","H100"])");
  CHECK(string_array_json({}) == "[]");
  CHECK(ingest_warnings_json({{Code::truncated, "cut\nshort"}, {Code::invalid_utf8, "bad"}}) ==
        R"([{"code":"truncated","message":"cut\nshort"},{"code":"invalid_utf8","message":"bad"}])");
}

TEST_CASE("page json: a report's device, ceilings, timings and sheets") {
  ReportTimings timings;
  timings.timeline_ms = 1.25;
  timings.ops_ms = 2.0;
  timings.perf_ms = 0.1;
  timings.collectives_ms = 0;
  timings.sol_ms = 9;  // not sent: the page shows the TraceLens stages
  CHECK(report_timings_json(timings) == R"({"timeline":1.25,"ops":2.0,"perf":0.1,"collectives":0.0})");
  CHECK(page_report_json(DeviceIdentification{}, timings, "[{\"id\":1}]") ==
        R"({"device":{"status": "no_devices"},"rooflineCeilings":{},)"
        R"("timingsMs":{"timeline":1.25,"ops":2.0,"perf":0.1,"collectives":0.0},"sheets":[{"id":1}]})");
}

TEST_CASE("page json: cycles with a preamble per sheet") {
  std::vector<CycleSheet> sheets;
  sheets.push_back({Table("positions", TableKind::kCycles), "# Cycle Statistics\n"});
  sheets.push_back({Table("cycles", TableKind::kCycles), ""});
  CHECK(page_cycles_json("2 cycles", 40, sheets, "[]") ==
        R"({"summary":"2 cycles","kernels":40,"preambles":["# Cycle Statistics\n",""],"sheets":[]})");
}

TEST_CASE("page json: a comparison and the ranks") {
  CHECK(page_comparison_json("base", "new", "[]") == R"({"names":["base","new"],"sheets":[]})");
  std::vector<ranks::RankSummary> ranks(2);
  ranks[0].rank = 0;
  ranks[0].file = "rank0.json";
  ranks[0].rank_from = "file name";
  ranks[1].rank = 1;
  ranks[1].file = "b.json";
  ranks[1].rank_from = "position";
  CHECK(page_ranks_json(ranks, true, 3, "[]") ==
        R"({"ranks":[{"rank":0,"file":"rank0.json","rankFrom":"file name"},)"
        R"({"rank":1,"file":"b.json","rankFrom":"position"}],"simplifiedMode":true,"metadataMismatches":3,"sheets":[]})");
}
