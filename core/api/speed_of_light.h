#pragma once
// What Session::sol and Session::solar are asked and answer: speed of light from the
// Kineto trace (analyses/sol), and Solar's graph speed of light from an Execution Trace
// (analyses/solar), alone or measured against the Kineto trace. The CLI and the page
// ask these; writers/sol_json and writers/document_writer write what they answer.
#include <string>
#include <vector>

#include "analyses/sol/sol.h"
#include "analyses/solar/solar_report.h"
#include "devices/device_identify.h"
#include "table/table.h"

namespace sollens {

struct SolRequest {
  std::string device_name;  // a device database name, any case; "": identified from the trace
  double efficiency = 1.0;  // the share of each peak counted as reachable, in (0, 1]
};

struct SolResult {
  DeviceIdentification device;  // the GPU as identified or chosen (sol.json's device_identification)
  SolReport report;             // the tables and the SOL device, efficiency, notes, metrics
};

// The text sollens sol prints: the headline, the tables' top rows and the notes.
std::string sol_console_text(const SolResult& result);

struct SolarRequest {
  std::string device_name;  // "": the Kineto trace's GPU when one is loaded
  // The notice when neither names a GPU: each front end gives its own advice.
  std::string no_device_notice = "no device: an Execution Trace names no GPU";
};

struct SolarResult {
  solar::SolarReport report;  // solar.json's document, solar_nodes and the summary lines
  Table intermediates{"solar_intermediates", TableKind::kSpeedOfLight};
  bool measured = false;      // linked to the loaded Kineto trace
};

}  // namespace sollens
