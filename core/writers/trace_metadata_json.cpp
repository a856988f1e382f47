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
  if (!md.devices.empty()) write_device_properties(json, "deviceProperties", md.devices, AbsentField::kLeftOut);
  if (md.distributed) distributed_info(json, *md.distributed);
  for (const auto& [key, value] : md.other) json.member(key, value);
  return json.end_object().take();
}

void write_device_properties(JsonBuilder& json, std::string_view key, const std::vector<DeviceProperties>& devices,
                             AbsentField absent) {
  const auto field = [&](std::string_view name, int64_t v) {
    if (v != kNoValue) json.member(name, v);
    else if (absent == AbsentField::kNull) json.member_null(name);
  };
  json.key(key).begin_array();
  for (const DeviceProperties& d : devices) {
    json.begin_object();
    field("id", d.id);
    json.member("name", d.name);
    field("totalGlobalMem", d.total_global_mem);
    field("computeMajor", d.compute_major);
    field("computeMinor", d.compute_minor);
    field("numSms", d.num_sms);
    field("warpSize", d.warp_size);
    json.end_object();
  }
  json.end_array();
}

}  // namespace sollens
