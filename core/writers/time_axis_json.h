#pragma once
// The time axis's page answers as JSON (PageSession): the sheets' descriptions with the
// trace's start, and one event's details.
#include <string>
#include <string_view>

#include "analyses/time_axis/event_detail.h"

namespace sollens {

// {"traceStartUs", "buildMs", "inputsMs", "sheets": [lanes, events, spans]}
std::string page_time_axis_json(double trace_start_us, double build_ms, double inputs_ms, std::string_view sheets_json);

// {"sheets": [the range's summary]}
std::string page_range_summary_json(std::string_view sheets_json);

// {"row", "detail": {"name", "kind" (the trace's cat), "startUs", "durUs", "args" (the
// event's args object, as the trace wrote it, with the ids the store read), "op" (the
// enclosing cpu_ops, outermost first), "perf" (the op's perf model: function, category,
// computeSpec, gflop, dataMovedMb; null without one), "sol" (its speed of light:
// estimatedUs, measuredUs, efficiency, bound, layerType, layerInstance, phase, note,
// noEstimate; null without one)}}
std::string event_detail_json(uint32_t row, const EventDetail& detail);

}  // namespace sollens
