#include "api/hta_traces.h"

#include "analyses/hta/counter_series.h"
#include "analyses/hta/hta_trace.h"
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

}  // namespace sollens
