#pragma once
// A Kineto trace written again with events added to its traceEvents array, every byte
// of the original kept: the base of the traces sollens writes for Perfetto UI (counter
// tracks, the critical path overlaid).
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace sollens {

// Writes `trace_json` with each of `extra_events` (a JSON object's text) appended to its
// events: the top-level "traceEvents" array, or the whole document where it is an array
// (the 2021 form). False, and nothing written, when the text has no such array.
bool write_trace_with_extra_events(std::string_view trace_json, const std::vector<std::string>& extra_events,
                                   std::ostream& out);

}  // namespace sollens
