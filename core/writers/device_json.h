#pragma once
// The GPU a report is computed for, as JSON: report.json, sol.json and the page read it.
#include <string>

#include "devices/device_identify.h"

namespace sollens {

// The identification as a JSON object: status, id and name of the spec, the trace's
// device name and index, how it was matched, the notice, and (when a roofline is
// available) the per-device dense peaks and bandwidth used.
std::string device_identification_json(const DeviceIdentification& r);

// The roofline ceilings of the identified device by Compute Spec (dense_spec_ceilings)
// as a JSON object, {"matrix_bf16": {"peak": "bf16", "tflops": 989.5}, ...}: what a
// roofline chart draws, from the core's own spec -> peak mapping. "{}" when there is
// no roofline (unknown GPU).
std::string roofline_ceilings_json(const DeviceIdentification& r);

}  // namespace sollens
