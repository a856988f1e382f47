// The trace's top-level keys as report.json's metadata.trace.
#include <catch2/catch.hpp>

#include "writers/trace_metadata_json.h"

using namespace sollens;

TEST_CASE("trace metadata json: devices, distributed info, other keys") {
  TraceMetadata m;
  m.schema_version = 1;
  DeviceProperties d;
  d.id = 0;
  d.name = "NVIDIA \"H100\"";
  d.num_sms = 132;
  m.devices.push_back(d);
  m.distributed = DistributedInfo{"nccl", 3, 8, kNoValue, ""};
  m.other = {{"with_stack", "true"}};
  CHECK(trace_metadata_json(m) ==
        "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA \\\"H100\\\"\", "
        "\"numSms\": 132}], \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 3, "
        "\"world_size\": 8}, \"with_stack\": \"true\"}");
  CHECK(trace_metadata_json(TraceMetadata{}) == "{}");
}
