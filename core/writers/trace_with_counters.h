#pragma once
// The trace written again with HTA's counter tracks (generate_trace_with_counters), for
// Perfetto UI: every original byte kept, and "ph": "C" events appended on the GPU's
// pid: "Queue Length" per stream (args {"Queue Length": n}, id = the stream) and the
// summed bandwidth per kind of memory operation (named "Memcpy DtoH", "Memset", ...,
// args {"Memcpy BW": GB/s}). Times are HTA's (whole µs where the trace has fractions).
#include <ostream>
#include <string>
#include <vector>

#include "analyses/hta/counter_series.h"
#include "store/event_store.h"

namespace sollens {

// The counter events as JSON object texts, queue length first, each series in order.
std::vector<std::string> counter_events_json(const EventStore& store, const hta::CounterSeries& series);

// `store.input` with counter_events_json appended to its events. False (nothing
// written) where the text has no events array.
bool write_trace_with_counters(const EventStore& store, const hta::CounterSeries& series, std::ostream& out);

}  // namespace sollens
