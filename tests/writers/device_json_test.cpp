// The GPU a report is computed for, as report.json and the page read it.
#include <catch2/catch.hpp>

#include "writers/device_json.h"

using namespace sollens;

TEST_CASE("device json: no GPU in the trace") {
  DeviceIdentification none;
  none.notice = "the trace lists no GPU";
  CHECK(device_identification_json(none) == R"({"status": "no_devices", "notice": "the trace lists no GPU"})");
  CHECK(roofline_ceilings_json(none) == "{}");
}

TEST_CASE("device json: an identified GPU with its per-device peaks") {
  DeviceSpec spec;
  spec.id = "X2";
  spec.name = "Vendor \"X\" 2";
  spec.devices_per_package = 2;
  spec.dense_tflops[static_cast<size_t>(PeakKey::kFp32Vector)] = 100.0;
  spec.dense_tflops[static_cast<size_t>(PeakKey::kBf16)] = 1000.2;
  spec.mem_bw_tbps = 5.0;
  spec.confidence = "high";
  DeviceIdentification id;
  id.status = DeviceStatus::kIdentified;
  id.spec = &spec;
  id.device_index = 1;
  id.from_gpu_events = true;
  id.trace_name = "X2 rev b";
  id.how = "name 'X2'";
  // Per device: the package's figures halved (two devices a package).
  CHECK(device_identification_json(id) ==
        R"({"status": "identified", "id": "X2", "name": "Vendor \"X\" 2", "trace_device_index": 1, )"
        R"("trace_device_name": "X2 rev b", "from_gpu_events": true, "how": "name 'X2'", )"
        R"("devices_per_package": 2, "dense_tflops_per_device": {"fp32_vector": 50.0, "bf16": 500.1}, )"
        R"("mem_bw_TBps_per_device": 2.5, "confidence": "high"})");
}

TEST_CASE("device json: a recognised GPU without peaks has no roofline members") {
  DeviceSpec spec;
  spec.id = "OLD";
  spec.name = "Old GPU";
  DeviceIdentification id;
  id.status = DeviceStatus::kNoPeaks;
  id.spec = &spec;
  CHECK(device_identification_json(id) == R"({"status": "no_peaks", "id": "OLD", "name": "Old GPU"})");
}
