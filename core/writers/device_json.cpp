#include "writers/device_json.h"

#include "analyses/roofline/roofline.h"
#include "base/json_text.h"
#include "base/number_format.h"

namespace sollens {

std::string device_identification_json(const DeviceIdentification& r) {
  std::string out = "{\"status\": " + json_string(device_status_name(r.status));
  if (r.spec) {
    out += ", \"id\": " + json_string(r.spec->id) + ", \"name\": " + json_string(r.spec->name);
  }
  if (r.device_index >= 0)
    out += ", \"trace_device_index\": " + std::to_string(r.device_index) +
           ", \"trace_device_name\": " + json_string(r.trace_name) +
           ", \"from_gpu_events\": " + (r.from_gpu_events ? "true" : "false");
  if (!r.how.empty()) out += ", \"how\": " + json_string(r.how);
  if (!r.notice.empty()) out += ", \"notice\": " + json_string(r.notice);
  if (const DeviceSpec* s = r.roofline_spec()) {
    out += ", \"devices_per_package\": " + std::to_string(s->devices_per_package);
    out += ", \"dense_tflops_per_device\": {";
    bool first = true;
    for (size_t k = 0; k < kPeakKeyCount; ++k)
      if (auto v = s->device_dense_tflops(static_cast<PeakKey>(k))) {
        out += (first ? "" : ", ") + json_string(peak_key_name(static_cast<PeakKey>(k))) + ": " +
               format_python_float(*v);
        first = false;
      }
    out += "}";
    if (auto bw = s->device_mem_bw_tbps()) out += ", \"mem_bw_TBps_per_device\": " + format_python_float(*bw);
    out += ", \"confidence\": " + json_string(s->confidence);
  }
  return out + "}";
}

std::string roofline_ceilings_json(const DeviceIdentification& r) {
  std::string out = "{";
  if (const DeviceSpec* spec = r.roofline_spec())
    for (const SpecCeiling& c : dense_spec_ceilings(*spec))
      out += (out.size() > 1 ? ", " : "") + json_string(c.spec) + ": {\"peak\": " +
             json_string(peak_key_name(c.peak)) + ", \"tflops\": " + format_python_float(c.tflops) + "}";
  return out + "}";
}

}  // namespace sollens
