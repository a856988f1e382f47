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
  write_report_json(R"({"generator": "sollens test"})", {&a, &b}, out);
  CHECK(out.str() ==
        "{\"metadata\": {\"generator\": \"sollens test\"},\n\"sheets\": {\n"
        "\"gpu_timeline\": [\n{\"type\":\"busy_time\",\"time ms\":1.5}\n]\n,\n"
        "\"empty_sheet\": []\n}}\n");
}

TEST_CASE("report json: metadata of a report on an unnamed GPU") {
  DeviceIdentification device;
  device.status = DeviceStatus::kUnknown;
  device.device_index = 0;
  device.trace_name = "GPU X";
  device.notice = "unknown GPU";
  TraceMetadata trace;
  trace.schema_version = 1;
  CHECK(report_metadata_json("sollens 9", "runs/a \"b\".json", device, trace) ==
        "{\"generator\": \"sollens 9\", \"trace_file\": \"runs/a \\\"b\\\".json\", "
        "\"device\": {\"status\": \"unknown\", \"trace_device_index\": 0, \"trace_device_name\": \"GPU X\", "
        "\"from_gpu_events\": false, \"notice\": \"unknown GPU\"}, \"trace\": {\"schemaVersion\": 1}}");
}
