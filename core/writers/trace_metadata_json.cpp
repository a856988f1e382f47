#include "writers/trace_metadata_json.h"

#include "writers/json_builder.h"

namespace sollens {

namespace {

// Absent values (kNoValue, "") are left out, as the trace left them out.
void add_int(JsonBuilder& json, std::string_view key, int64_t v) {
  if (v != kNoValue) json.member(key, v);
}
void add_str(JsonBuilder& json, std::string_view key, const std::string& v) {
  if (!v.empty()) json.member(key, v);
}

void device_properties(JsonBuilder& json, const std::vector<DeviceProperties>& devices) {
  json.key("deviceProperties").begin_array();
  for (const DeviceProperties& d : devices) {
    json.begin_object();
    add_int(json, "id", d.id);
    json.member("name", d.name);
    add_int(json, "totalGlobalMem", d.total_global_mem);
    add_int(json, "computeMajor", d.compute_major);
    add_int(json, "computeMinor", d.compute_minor);
    add_int(json, "numSms", d.num_sms);
    add_int(json, "warpSize", d.warp_size);
    json.end_object();
  }
  json.end_array();
}

void distributed_info(JsonBuilder& json, const DistributedInfo& di) {
  json.key("distributedInfo").begin_object();
  add_str(json, "backend", di.backend);
  add_int(json, "rank", di.rank);
  add_int(json, "world_size", di.world_size);
  add_int(json, "pg_count", di.pg_count);
  add_str(json, "nccl_version", di.nccl_version);
  json.end_object();
}

}  // namespace

std::string trace_metadata_json(const TraceMetadata& md) {
  JsonBuilder json;
  json.begin_object();
  add_int(json, "schemaVersion", md.schema_version);
  add_int(json, "baseTimeNanoseconds", md.base_time_ns);
  add_str(json, "displayTimeUnit", md.display_time_unit);
  add_str(json, "traceName", md.trace_name);
  if (!md.devices.empty()) device_properties(json, md.devices);
  if (md.distributed) distributed_info(json, *md.distributed);
  for (const auto& [key, value] : md.other) json.member(key, value);
  return json.end_object().take();
}

}  // namespace sollens
