#include "writers/info_json.h"

#include "writers/json_builder.h"
#include "writers/trace_metadata_json.h"

namespace sollens {

namespace {

// A trace value that may be absent (kNoValue): the page reads null.
void member_or_null(JsonBuilder& json, std::string_view key, int64_t v) {
  if (v == kNoValue) json.member_null(key);
  else json.member(key, v);
}

void string_array(JsonBuilder& json, std::string_view key, const std::vector<std::string>& v) {
  json.key(key).begin_array();
  for (const std::string& s : v) json.string(s);
  json.end_array();
}

// [["name", count], ...]
void count_pairs(JsonBuilder& json, std::string_view key, const std::vector<std::pair<std::string, size_t>>& v) {
  json.key(key).begin_array();
  for (const auto& [name, count] : v) json.begin_array().string(name).unsigned_integer(count).end_array();
  json.end_array();
}

void distributed(JsonBuilder& json, const std::optional<DistributedInfo>& distributed) {
  if (!distributed) {
    json.member_null("distributed");
    return;
  }
  const DistributedInfo& di = *distributed;
  json.key("distributed").begin_object().member("backend", di.backend);
  member_or_null(json, "rank", di.rank);
  member_or_null(json, "worldSize", di.world_size);
  member_or_null(json, "pgCount", di.pg_count);
  json.member("ncclVersion", di.nccl_version).end_object();
}

}  // namespace

std::string trace_info_json(const TraceInfo& info, const EventStore& store) {
  JsonBuilder json(JsonBuilder::Spacing::kCompact);
  json.begin_object()
      .member("format", info.format)
      .member("traceName", store.metadata.trace_name)
      .member("jsonBytes", store.input_bytes)
      .member("events", info.events)
      .member("gpuEvents", info.gpu_events)
      .member("linkedGpuEvents", info.linked_gpu_events)
      // link_mode_name comes with TraceInfo's LinkMode (model/link_mode.h through trace_info.h).
      .member("linkedBy", link_mode_name(info.linked_by))
      .member("gpuTimeUs", info.gpu_time_us)
      .member("unlinkedGpuTimeUs", info.unlinked_gpu_time_us)
      .member("firstTsUs", info.first_ts_us)
      .member("lastEndUs", info.last_end_us)
      .member("spanMs", (info.last_end_us - info.first_ts_us) / 1e3);
  string_array(json, "versionHints", info.version_hints);
  string_array(json, "gpuPids", info.gpu_devices);
  count_pairs(json, "eventsByCategory", info.events_by_category);
  count_pairs(json, "eventsByPhase", info.events_by_phase);
  write_device_properties(json, "devices", store.metadata.devices, AbsentField::kNull);
  distributed(json, store.metadata.distributed);
  json.key("warnings").begin_array();  // their messages, as before codes were kept
  for (const Diagnostic& w : info.warnings) json.string(w.message);
  json.end_array();
  return json.end_object().take();
}

}  // namespace sollens
