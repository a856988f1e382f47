#include "writers/page_json.h"

#include "base/diagnostics.h"
#include "writers/device_json.h"
#include "writers/json_builder.h"

namespace sollens {

namespace {

JsonBuilder page_builder() { return JsonBuilder(JsonBuilder::Spacing::kCompact); }

}  // namespace

std::string page_error_json(const Status& error) {
  JsonBuilder json = page_builder();
  json.begin_object().key("error").begin_object();
  json.member("code", code_id(error.code())).member("message", error.message());
  return json.end_object().end_object().take();
}

std::string page_answer(Result<std::string> answer) {
  return answer.ok() ? std::move(*answer) : page_error_json(answer.status());
}

std::string string_array_json(const std::vector<std::string>& items) {
  JsonBuilder json = page_builder();
  json.begin_array();
  for (const std::string& item : items) json.string(item);
  return json.end_array().take();
}

std::string ingest_warnings_json(const std::vector<Diagnostic>& warnings) {
  JsonBuilder json = page_builder();
  json.begin_array();
  for (const Diagnostic& w : warnings)
    json.begin_object().member("code", code_id(w.code)).member("message", w.message).end_object();
  return json.end_array().take();
}

std::string report_timings_json(const ReportTimings& t) {
  return page_builder()
      .begin_object()
      .member("timeline", t.timeline_ms)
      .member("ops", t.ops_ms)
      .member("perf", t.perf_ms)
      .member("collectives", t.collectives_ms)
      .end_object()
      .take();
}

std::string page_report_json(const DeviceIdentification& device, const ReportTimings& timings,
                             std::string_view sheets) {
  return page_builder()
      .begin_object()
      .member_raw("device", device_identification_json(device))
      .member_raw("rooflineCeilings", roofline_ceilings_json(device))
      .member_raw("timingsMs", report_timings_json(timings))
      .member_raw("sheets", sheets)
      .end_object()
      .take();
}

std::string page_cycles_json(std::string_view summary, size_t kernels, const std::vector<CycleSheet>& cycle_sheets,
                             std::string_view sheets) {
  JsonBuilder json = page_builder();
  json.begin_object().member("summary", summary).member("kernels", kernels).key("preambles").begin_array();
  for (const CycleSheet& sheet : cycle_sheets) json.string(sheet.preamble);
  return json.end_array().member_raw("sheets", sheets).end_object().take();
}

std::string page_comparison_json(std::string_view baseline, std::string_view variant, std::string_view sheets) {
  return page_builder()
      .begin_object()
      .key("names")
      .begin_array()
      .string(baseline)
      .string(variant)
      .end_array()
      .member_raw("sheets", sheets)
      .end_object()
      .take();
}

std::string page_ranks_json(const std::vector<ranks::RankSummary>& ranks, bool simplified_mode,
                            size_t metadata_mismatches, std::string_view sheets) {
  JsonBuilder json = page_builder();
  json.begin_object().key("ranks").begin_array();
  for (const ranks::RankSummary& r : ranks)
    json.begin_object().member("rank", r.rank).member("file", r.file).member("rankFrom", r.rank_from).end_object();
  return json.end_array()
      .member("simplifiedMode", simplified_mode)
      .member("metadataMismatches", metadata_mismatches)
      .member_raw("sheets", sheets)
      .end_object()
      .take();
}

}  // namespace sollens
