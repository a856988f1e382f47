#include "writers/device_json.h"

#include "analyses/roofline/roofline.h"
#include "writers/json_builder.h"

namespace sollens {

namespace {

// The peaks a roofline is drawn against, per device as the trace sees it.
void roofline_peaks(JsonBuilder& json, const DeviceSpec& spec) {
  json.member("devices_per_package", spec.devices_per_package);
  json.key("dense_tflops_per_device").begin_object();
  for (size_t k = 0; k < kPeakKeyCount; ++k)
    if (auto tflops = spec.device_dense_tflops(static_cast<PeakKey>(k)))
      json.member(peak_key_name(static_cast<PeakKey>(k)), *tflops);
  json.end_object();
  if (auto bw = spec.device_mem_bw_tbps()) json.member("mem_bw_TBps_per_device", *bw);
  json.member("confidence", spec.confidence);
}

}  // namespace

std::string device_identification_json(const DeviceIdentification& r) {
  JsonBuilder json;
  json.begin_object().member("status", device_status_name(r.status));
  if (r.spec) json.member("id", r.spec->id).member("name", r.spec->name);
  if (r.device_index >= 0)
    json.member("trace_device_index", r.device_index)
        .member("trace_device_name", r.trace_name)
        .member("from_gpu_events", r.from_gpu_events);
  if (!r.how.empty()) json.member("how", r.how);
  if (!r.notice.empty()) json.member("notice", r.notice);
  if (const DeviceSpec* spec = r.roofline_spec()) roofline_peaks(json, *spec);
  return json.end_object().take();
}

std::string roofline_ceilings_json(const DeviceIdentification& r) {
  JsonBuilder json;
  json.begin_object();
  if (const DeviceSpec* spec = r.roofline_spec())
    for (const SpecCeiling& c : dense_spec_ceilings(*spec))
      json.key(c.spec).begin_object().member("peak", peak_key_name(c.peak)).member("tflops", c.tflops).end_object();
  return json.end_object().take();
}

}  // namespace sollens
