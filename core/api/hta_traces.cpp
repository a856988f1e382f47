#include "api/hta_traces.h"

#include "analyses/hta/counter_series.h"
#include "analyses/hta/critical_path/critical_path.h"
#include "analyses/hta/hta_trace.h"
#include "api/hta_request.h"
#include "writers/critical_path_trace.h"
#include "writers/trace_with_counters.h"

namespace sollens {

namespace {
constexpr const char* kNoEventsArray = "the trace has no traceEvents array to add events to";
}  // namespace

std::string write_counters_trace(const Session& session, std::ostream& out) {
  const hta::HtaTrace trace(session.store());
  if (!write_trace_with_counters(session.store(), hta::counter_series(trace), out)) return kNoEventsArray;
  return "";
}

std::string write_critical_path_trace(const Session& session, const ReportRequest& request, std::ostream& out) {
  const hta::HtaOptions options = hta_options(request);
  if (!options.critical_path) return "--critical-path none leaves no path to overlay";
  const hta::HtaTrace trace(session.store());
  const hta::CriticalPath path = hta::critical_path(trace, options, /*infer_gpu_waits=*/false);
  if (!write_critical_path_trace(session.store().input.view(), session.store(), path, out)) return kNoEventsArray;
  return "";
}

}  // namespace sollens
