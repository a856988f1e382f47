#pragma once
// Which GPU a trace ran on, from its deviceProperties (name, numSms, computeMajor/
// Minor, totalGlobalMem, warpSize), matched against the device database. Never
// guesses: an ambiguous or unknown device gives no spec (and so no roofline) and a
// notice that says why. Rules and examples: deviceDB/README.md, "Identification".
#include <string>
#include <string_view>

#include "devices/device_db.h"
#include "store/event_store.h"

namespace sollens {

enum class DeviceStatus : uint8_t {
  kIdentified,   // a database entry with peaks: roofline available
  kUserChosen,   // --device NAME (always has peaks)
  kNoPeaks,      // recognised (e.g. MI250, V100) but no sourced peaks: no roofline
  kUnknown,      // not in the database, or ambiguous
  kNoDevices,    // the trace lists no deviceProperties
};
std::string_view device_status_name(DeviceStatus s);  // "identified", "user", ...

struct DeviceIdentification {
  DeviceStatus status = DeviceStatus::kNoDevices;
  const DeviceSpec* spec = nullptr;  // set for kIdentified, kUserChosen and kNoPeaks
  // The deviceProperties entry used (index into metadata.devices), -1 when none.
  int64_t device_index = -1;
  bool from_gpu_events = false;  // chosen as the device most GPU events ran on
  std::string trace_name;        // its name as the trace wrote it
  std::string how;               // one line: what matched ("name 'NVIDIA B200', cc 10.0, 148 SMs")
  std::string notice;            // empty when a roofline is available

  // The spec to compute rooflines with, or null (never a guess).
  const DeviceSpec* roofline_spec() const {
    return (status == DeviceStatus::kIdentified || status == DeviceStatus::kUserChosen) ? spec
                                                                                       : nullptr;
  }
};

// One deviceProperties entry on its own.
DeviceIdentification identify_device(const DeviceProperties& device);

// The trace's GPU: of several deviceProperties entries, the one whose id most GPU
// events (kernel, memcpy, memset; args.device, else the pid) ran on; the first
// when the events name no listed device. user_device (case-insensitive id or alias,
// see find_device) overrides identification; when it is not a known name the result
// is kUnknown with a notice listing the known names (the CLI turns that into a
// usage error before it gets here: check find_device first).
DeviceIdentification identify_trace_device(const EventStore& store,
                                           std::string_view user_device = {});

}  // namespace sollens
