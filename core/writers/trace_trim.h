#pragma once
// A Kineto trace cut to a time range, for Perfetto UI: every top-level key but the
// events kept byte for byte (deviceProperties, distributedInfo, baseTimeNanoseconds, ...),
// and of traceEvents the metadata events (ph M) and the events that overlap the range:
// a complete event (X) overlapping [start, end], an instant, counter, begin or end event
// inside it, a flow event (s, t, f) only when every event of its flow id lies inside the
// range (its ends are then kept), an event without a ts always. Each kept event's text
// is the original's.
#include <cstddef>
#include <ostream>
#include <string_view>

namespace sollens {

struct TrimCounts {
  size_t events = 0;  // elements of traceEvents read
  size_t kept = 0;
};

// start_us / end_us: the trace's own clock (absolute µs, as its ts). False, and nothing
// written, when the text has no traceEvents array (or is not a JSON array of events).
bool write_trimmed_trace(std::string_view trace_json, double start_us, double end_us, std::ostream& out,
                         TrimCounts* counts = nullptr);

}  // namespace sollens
