// sol.json's members, written once for sollens sol and the page: spellings, metric
// values (counts as integers, no estimate as null), notes, and the tables by name.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "writers/sol_json.h"

using namespace sollens;

namespace {

SolReport hand_made_report() {
  SolReport report;
  report.device = "H100_SXM5_80GB";
  report.efficiency_factor = 0.8;
  report.ops.module_frames = true;
  report.ops.notes = {"first \"note\"", "second"};
  Table& m = report.metrics;
  m.add_column("metric", ColumnType::kString);
  m.add_column("value", ColumnType::kFloat);
  const std::pair<const char*, double> rows[] = {{"sol/total_ops", 1602},
                                                 {"sol/wall_time_ms", 0.5},
                                                 {"sol/kernel_efficiency_pct", std::nan("")},
                                                 {"sol/ratio", std::numeric_limits<double>::infinity()},
                                                 {"sol/big", 1e15}};
  for (const auto& [name, value] : rows) {
    m.column(0).push_string(name);
    m.column(1).push_float(value);
  }
  m.column(0).push_string("sol/empty");
  m.column(1).push_null();
  return report;
}

}  // namespace

TEST_CASE("sol.json: the members in order, spelled once, for the file and the page") {
  const SolReport report = hand_made_report();
  const DeviceIdentification none;  // status no_devices
  const std::string metrics =
      R"("metrics": {"sol/total_ops": 1602, "sol/wall_time_ms": 0.5, "sol/kernel_efficiency_pct": null, )"
      R"("sol/ratio": null, "sol/big": 1000000000000000.0, "sol/empty": null})";
  const std::string file = sol_json(report, none);
  INFO(file);
  CHECK(file.rfind(R"({"device": "H100_SXM5_80GB", "device_identification": {"status": "no_devices"}, )", 0) == 0);
  CHECK(file.find(R"(}, "efficiency_factor": 0.8, "module_frames": true, "notes": ["first \"note\"","second"], )" +
                  metrics +
                  // Each table as writers/json_writer writes it: its rows, then a newline.
                  ", \"by_layer_type\": []\n, \"by_layer_instance\": []\n, \"by_module\": []\n, "
                  "\"by_function\": []\n, \"by_phase\": []\n, \"by_phase_prefix\": []\n, \"by_step\": []\n, "
                  "\"top_operations\": []\n, \"unmodeled\": []\n}") != std::string::npos);

  JsonBuilder page(JsonBuilder::Spacing::kCompact);
  page.begin_object();
  write_sol_members(page, report, none);
  const std::string compact = page.end_object().take();
  INFO(compact);
  CHECK(compact.rfind(R"({"device":"H100_SXM5_80GB","device_identification":{"status": "no_devices"},)", 0) == 0);
  CHECK(compact.find(R"(},"efficiency_factor":0.8,"module_frames":true,"notes":["first \"note\"","second"],)"
                     R"("metrics":{"sol/total_ops":1602,"sol/wall_time_ms":0.5,"sol/kernel_efficiency_pct":null,)"
                     R"("sol/ratio":null,"sol/big":1000000000000000.0,"sol/empty":null}})") != std::string::npos);
}

TEST_CASE("sol.json: no GPU with peaks, the device is null") {
  SolReport report;
  report.metrics.add_column("metric", ColumnType::kString);
  report.metrics.add_column("value", ColumnType::kFloat);
  const std::string file = sol_json(report, DeviceIdentification{});
  CHECK(file.rfind(R"({"device": null, "device_identification": {)", 0) == 0);
  CHECK(file.find(R"("efficiency_factor": 1.0, "module_frames": false, "notes": [], "metrics": {}, )") !=
        std::string::npos);
}
