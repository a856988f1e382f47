#pragma once
// The trace's top-level keys as the JSON text of report.json's metadata.trace (and the
// page's trace metadata).
#include <string>
#include <string_view>
#include <vector>

#include "store/event_store.h"
#include "writers/json_builder.h"

namespace sollens {

// schemaVersion, baseTimeNanoseconds, displayTimeUnit, traceName, deviceProperties (the
// fields we read), distributedInfo and the other scalar keys (as strings). Absent
// values are left out.
std::string trace_metadata_json(const TraceMetadata& m);

// How a deviceProperties field the trace did not give is written.
enum class AbsentField : uint8_t { kLeftOut, kNull };

// The deviceProperties entries under `key`: id, name, totalGlobalMem, computeMajor,
// computeMinor, numSms, warpSize (report.json leaves absent ones out; the page reads null).
void write_device_properties(JsonBuilder& json, std::string_view key, const std::vector<DeviceProperties>& devices,
                             AbsentField absent);

}  // namespace sollens
