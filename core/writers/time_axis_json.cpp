#include "writers/time_axis_json.h"

#include <algorithm>

#include "writers/json_builder.h"

namespace sollens {
namespace {

// The trace's own args object where the store kept it (it holds the ids too), else the
// ids the store read.
void write_args(JsonBuilder& json, const EventDetail& d) {
  json.key("args");
  if (!d.args_json.empty()) {
    json.raw(d.args_json);
    return;
  }
  json.begin_object();
  for (const auto& [key, value] : d.ids) json.member(key, value);
  json.end_object();
}

void write_perf(JsonBuilder& json, const SolOp* op) {
  json.key("perf");
  if (!op || !(op->flops > 0 || op->bytes > 0)) {
    json.null();
    return;
  }
  json.begin_object()
      .member("function", op->function)
      .member("category", op->category)
      .member("computeSpec", op->compute_spec)
      .member("gflop", op->flops / 1e9)
      .member("dataMovedMb", op->bytes / (1024.0 * 1024.0))
      .end_object();
}

void write_sol(JsonBuilder& json, const SolOp* op) {
  json.key("sol");
  if (!op) {
    json.null();
    return;
  }
  json.begin_object().member("function", op->function).member("measuredUs", op->measured_us);
  if (op->estimated) {
    json.member("estimatedUs", op->roofline.estimate_us)
        .member("efficiency", op->measured_us > 0 ? std::min(1.0, op->roofline.estimate_us / op->measured_us) : 0.0)
        .member("bound", sol_bound_name(op->roofline.bound));
  } else {
    json.member_null("estimatedUs").member_null("efficiency").member("bound", "");
  }
  json.member("layerType", op->layer_type)
      .member("layerInstance", op->layer_instance)
      .member("phase", op->phase)
      .member("note", op->note)
      .member("noEstimate", op->no_estimate)
      .member("fasterThanEstimate", op->faster_than_estimate())
      .end_object();
}

}  // namespace

std::string page_time_axis_json(double trace_start_us, double build_ms, double inputs_ms, std::string_view sheets_json) {
  JsonBuilder json(JsonBuilder::Spacing::kCompact);
  json.begin_object()
      .member("traceStartUs", trace_start_us)
      .member("buildMs", build_ms)
      .member("inputsMs", inputs_ms)
      .member_raw("sheets", sheets_json)
      .end_object();
  return json.take();
}

std::string page_range_summary_json(std::string_view sheets_json) {
  JsonBuilder json(JsonBuilder::Spacing::kCompact);
  json.begin_object().member_raw("sheets", sheets_json).end_object();
  return json.take();
}

std::string event_detail_json(uint32_t row, const EventDetail& d) {
  JsonBuilder json(JsonBuilder::Spacing::kCompact);
  json.begin_object().member("row", static_cast<int64_t>(row)).key("detail").begin_object();
  json.member("name", d.name).member("kind", d.category).member("startUs", d.start_us).member("durUs", d.dur_us);
  write_args(json, d);
  json.key("op").begin_array();
  for (std::string_view op : d.op_chain) json.string(op);
  json.end_array();
  write_perf(json, d.sol_op);
  write_sol(json, d.sol_op);
  json.end_object().end_object();
  return json.take();
}

}  // namespace sollens
