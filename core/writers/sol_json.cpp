#include "writers/sol_json.h"

#include <cmath>
#include <cstdint>
#include <utility>

#include "writers/device_json.h"
#include "writers/json_writer.h"

namespace sollens {

namespace {

// Counts print without a decimal point; no estimate (null, NaN, infinity) as null.
void write_metric_value(JsonBuilder& json, const Column& values, size_t row) {
  if (values.is_null(row)) {
    json.null();
    return;
  }
  const double v = values.float_at(row);
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15)
    json.integer(static_cast<int64_t>(v));
  else
    json.number(v);
}

void write_metrics(JsonBuilder& json, const Table& metrics) {
  json.begin_object();
  for (size_t row = 0; row < metrics.num_rows(); ++row) {
    json.key(metrics.column(0).string_at(row));
    write_metric_value(json, metrics.column(1), row);
  }
  json.end_object();
}

// sol.json has always written its notes without spaces, in a spaced document.
std::string compact_notes(const std::vector<std::string>& notes) {
  JsonBuilder json(JsonBuilder::Spacing::kCompact);
  json.begin_array();
  for (const std::string& note : notes) json.string(note);
  return json.end_array().take();
}

}  // namespace

void write_sol_members(JsonBuilder& json, const SolReport& report, const DeviceIdentification& device) {
  if (report.device.empty())
    json.member_null("device");
  else
    json.member("device", report.device);
  json.member_raw("device_identification", device_identification_json(device));
  json.member("efficiency_factor", report.efficiency_factor);
  json.member("module_frames", report.ops.module_frames);
  json.member_raw("notes", compact_notes(report.ops.notes));
  write_metrics(json.key("metrics"), report.metrics);
}

std::string sol_json(const SolReport& report, const DeviceIdentification& device) {
  const std::pair<const char*, const Table*> tables[] = {
      {"by_layer_type", &report.by_layer_type},     {"by_layer_instance", &report.by_layer_instance},
      {"by_module", &report.by_module},             {"by_function", &report.by_function},
      {"by_phase", &report.by_phase},               {"by_phase_prefix", &report.by_phase_prefix},
      {"by_step", &report.by_step},                 {"top_operations", &report.top_operations},
      {"unmodeled", &report.unmodeled}};
  JsonBuilder json;
  json.begin_object();
  write_sol_members(json, report, device);
  for (const auto& [key, table] : tables) json.member_raw(key, to_json(*table));
  return json.end_object().take();
}

}  // namespace sollens
