#pragma once
// Speed of light (analyses/sol) as JSON: sol.json, and the same members in the page's
// SOL result, spelled once.
#include <string>

#include "analyses/sol/sol.h"
#include "devices/device_identify.h"
#include "writers/json_builder.h"

namespace sollens {

// Into an open object: device (the SOL device's name, null when none), device_identification,
// efficiency_factor, module_frames, notes, metrics ({name: value}).
void write_sol_members(JsonBuilder& json, const SolReport& report, const DeviceIdentification& device);

// sol.json: those members, then each table's rows under its name less "sol_"
// (by_layer_type, ..., unmodeled). Spaced, one line, no newline.
std::string sol_json(const SolReport& report, const DeviceIdentification& device);

}  // namespace sollens
