#include "api/hta_traces.h"

#include "analyses/hta/counter_series.h"
#include "analyses/hta/critical_path/critical_path.h"
#include "analyses/hta/hta_trace.h"
#include "api/api_guard.h"
#include "api/hta_request.h"
#include "writers/critical_path_trace.h"
#include "writers/trace_with_counters.h"

namespace sollens {

namespace {
Status no_events_array() {
  return Status(Code::not_a_trace, "the trace has no traceEvents array to add events to");
}
}  // namespace

Status write_counters_trace(const Session& session, std::ostream& out) {
  return guarded("writing the counters trace", [&]() -> Status {
    const hta::HtaTrace trace(session.store());
    if (!write_trace_with_counters(session.store(), hta::counter_series(trace), out)) return no_events_array();
    return {};
  });
}

Status write_critical_path_trace(const Session& session, const ReportRequest& request, std::ostream& out) {
  const hta::HtaOptions options = hta_options(request);
  if (!options.critical_path)
    return Status(Code::conflicting_options, "--critical-path none leaves no path to overlay");
  return guarded("writing the critical-path trace", [&]() -> Status {
    const hta::HtaTrace trace(session.store());
    const hta::CriticalPath path = hta::critical_path(trace, options, /*infer_gpu_waits=*/false);
    if (!write_critical_path_trace(session.store().input.view(), session.store(), path, out)) return no_events_array();
    return {};
  });
}

}  // namespace sollens
