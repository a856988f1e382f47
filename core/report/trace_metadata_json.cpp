#include "report/trace_metadata_json.h"

#include "base/json_text.h"

namespace sollens {

namespace {

void add_int(JsonMembers& m, const char* key, int64_t v) {
  if (v != kNoValue) m.emplace_back(key, std::to_string(v));
}
void add_str(JsonMembers& m, const char* key, const std::string& v) {
  if (!v.empty()) m.emplace_back(key, json_string(v));
}

}  // namespace

std::string trace_metadata_json(const TraceMetadata& md) {
  JsonMembers m;
  add_int(m, "schemaVersion", md.schema_version);
  add_int(m, "baseTimeNanoseconds", md.base_time_ns);
  add_str(m, "displayTimeUnit", md.display_time_unit);
  add_str(m, "traceName", md.trace_name);
  if (!md.devices.empty()) {
    std::string arr = "[";
    for (size_t i = 0; i < md.devices.size(); ++i) {
      const DeviceProperties& d = md.devices[i];
      JsonMembers dm;
      add_int(dm, "id", d.id);
      dm.emplace_back("name", json_string(d.name));
      add_int(dm, "totalGlobalMem", d.total_global_mem);
      add_int(dm, "computeMajor", d.compute_major);
      add_int(dm, "computeMinor", d.compute_minor);
      add_int(dm, "numSms", d.num_sms);
      add_int(dm, "warpSize", d.warp_size);
      arr += (i ? ", " : "") + json_object(dm);
    }
    m.emplace_back("deviceProperties", arr + "]");
  }
  if (md.distributed) {
    const DistributedInfo& di = *md.distributed;
    JsonMembers dm;
    add_str(dm, "backend", di.backend);
    add_int(dm, "rank", di.rank);
    add_int(dm, "world_size", di.world_size);
    add_int(dm, "pg_count", di.pg_count);
    add_str(dm, "nccl_version", di.nccl_version);
    m.emplace_back("distributedInfo", json_object(dm));
  }
  for (const auto& [key, value] : md.other) m.emplace_back(key, json_string(value));
  return json_object(m);
}

}  // namespace sollens
