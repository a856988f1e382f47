// The report as one JSON document: metadata object plus {sheet name: rows}.
#include <catch2/catch.hpp>

#include <sstream>

#include "writers/json_writer.h"
#include "writers/report_json.h"

using namespace sollens;

TEST_CASE("report json: metadata and sheets in order") {
  Table a("gpu_timeline", TableKind::kTimeline);
  Column& type = a.add_column("type", ColumnType::kString);
  Column& ms = a.add_column("time ms", ColumnType::kFloat);
  type.push_string("busy_time");
  ms.push_float(1.5);
  Table b("empty_sheet", TableKind::kSummary);
  b.add_column("x", ColumnType::kInt);
  std::ostringstream out;
  write_report_json({{"generator", json_string("sollens test")}}, {&a, &b}, out);
  CHECK(out.str() ==
        "{\"metadata\": {\"generator\": \"sollens test\"},\n\"sheets\": {\n"
        "\"gpu_timeline\": [\n{\"type\":\"busy_time\",\"time ms\":1.5}\n]\n,\n"
        "\"empty_sheet\": []\n}}\n");
}
