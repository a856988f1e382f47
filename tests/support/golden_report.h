#pragma once
// A bundled trace's whole report exactly as the CLI computes it (report/report.h), so
// the golden tests check the sheets the report really has, not a list of their own.
#include <filesystem>

#include "devices/device_identify.h"
#include "ingest/trace_reader.h"
#include "model/trace_tree.h"
#include "report/report.h"
#include "support/golden_fixtures.h"

namespace sollens::test {

struct GoldenReport {
  bool loaded = false;
  Report report;
  const DeviceSpec* device = nullptr;  // the roofline GPU the report was computed for
  const Table* sheet(const std::string& name) const { return report.find(name); }
};

// With `trace_device`, options.device is the GPU identified from the trace (as the
// CLI does without --device).
inline GoldenReport report_of(const fs::path& trace, ReportOptions options = {}, bool trace_device = false) {
  GoldenReport out;
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(read_text(trace)));
  if (!r.ok()) return out;
  if (trace_device) options.device = identify_trace_device(*r.value()).roofline_spec();
  out.loaded = true;
  out.device = options.device;
  out.report = build_report(*r.value(), TraceTree::build(*r.value()), options);
  return out;
}

}  // namespace sollens::test
