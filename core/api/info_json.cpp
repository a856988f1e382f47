#include "api/info_json.h"

#include "base/json_text.h"
#include "base/number_format.h"
#include "model/link_mode.h"

namespace sollens {

namespace {

std::string number_or_null(int64_t v) { return v == kNoValue ? std::string("null") : std::to_string(v); }

std::string string_array(const std::vector<std::string>& v) {
  std::string out = "[";
  for (const auto& s : v) out += (out.size() > 1 ? "," : "") + json_string(s);
  return out + "]";
}

// [["name", count], ...]
std::string count_pairs(const std::vector<std::pair<std::string, size_t>>& v) {
  std::string out = "[";
  for (const auto& [k, n] : v)
    out += (out.size() > 1 ? "," : "") + std::string("[") + json_string(k) + "," + std::to_string(n) + "]";
  return out + "]";
}

std::string devices_json(const std::vector<DeviceProperties>& devices) {
  std::string out = "[";
  for (size_t i = 0; i < devices.size(); ++i) {
    const auto& d = devices[i];
    out += std::string(i ? "," : "") + "{\"id\":" + number_or_null(d.id) + ",\"name\":" + json_string(d.name) +
           ",\"totalGlobalMem\":" + number_or_null(d.total_global_mem) +
           ",\"computeMajor\":" + number_or_null(d.compute_major) +
           ",\"computeMinor\":" + number_or_null(d.compute_minor) + ",\"numSms\":" + number_or_null(d.num_sms) +
           ",\"warpSize\":" + number_or_null(d.warp_size) + "}";
  }
  return out + "]";
}

std::string distributed_json(const std::optional<DistributedInfo>& distributed) {
  if (!distributed) return "null";
  const auto& di = *distributed;
  return "{\"backend\":" + json_string(di.backend) + ",\"rank\":" + number_or_null(di.rank) +
         ",\"worldSize\":" + number_or_null(di.world_size) + ",\"pgCount\":" + number_or_null(di.pg_count) +
         ",\"ncclVersion\":" + json_string(di.nccl_version) + "}";
}

}  // namespace

std::string trace_info_json(const TraceInfo& info, const EventStore& store) {
  std::string out = "{\"format\":" + json_string(info.format);
  out += ",\"traceName\":" + json_string(store.metadata.trace_name);
  out += ",\"jsonBytes\":" + std::to_string(store.input_bytes);
  out += ",\"events\":" + std::to_string(info.events);
  out += ",\"gpuEvents\":" + std::to_string(info.gpu_events);
  out += ",\"linkedGpuEvents\":" + std::to_string(info.linked_gpu_events);
  out += ",\"linkedBy\":" + json_string(link_mode_name(info.linked_by));
  out += ",\"gpuTimeUs\":" + format_python_float(info.gpu_time_us);
  out += ",\"unlinkedGpuTimeUs\":" + format_python_float(info.unlinked_gpu_time_us);
  out += ",\"firstTsUs\":" + format_python_float(info.first_ts_us);
  out += ",\"lastEndUs\":" + format_python_float(info.last_end_us);
  out += ",\"spanMs\":" + format_python_float((info.last_end_us - info.first_ts_us) / 1e3);
  out += ",\"versionHints\":" + string_array(info.version_hints);
  out += ",\"gpuPids\":" + string_array(info.gpu_devices);
  out += ",\"eventsByCategory\":" + count_pairs(info.events_by_category);
  out += ",\"eventsByPhase\":" + count_pairs(info.events_by_phase);
  out += ",\"devices\":" + devices_json(store.metadata.devices);
  out += ",\"distributed\":" + distributed_json(store.metadata.distributed);
  out += ",\"warnings\":" + string_array(info.warnings);
  return out + "}";
}

}  // namespace sollens
