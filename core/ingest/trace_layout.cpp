#include "ingest/trace_layout.h"

#include <utility>

#include "ingest/cut_short.h"
#include "ingest/file_magic.h"
#include "ingest/json_layout.h"
#include "ingest/metadata_reader.h"

namespace sollens {

namespace jl = json_layout;

std::string at_byte(size_t offset) { return " (byte " + std::to_string(offset) + ")"; }

void add_warnings(EventStore& store, const IngestCounters& c, size_t array_close, bool array_form) {
  auto warn = [&](Code code, std::string message) { store.warnings.push_back({code, std::move(message)}); };
  if (c.truncated_at != jl::npos)
    warn(Code::truncated, "the trace ends inside an event" + at_byte(c.truncated_at) +
                          ": it is truncated; the " + std::to_string(store.size()) +
                          " events before that point were read");
  else if (c.missing_close_bracket || (array_close == jl::npos && !store.metadata.top_level_array))
    warn(Code::unclosed_array,
         "traceEvents has no closing ']': the file may be cut short; every complete event was "
         "read");
  else if (array_close == jl::npos && array_form)
    warn(Code::unclosed_array, "the events array has no closing ']'; every complete event was read");
  if (c.non_object)
    warn(Code::non_object_events, std::to_string(c.non_object) +
                                  " elements of traceEvents are not objects and were skipped");
  if (c.empty_objects)
    warn(Code::empty_events, std::to_string(c.empty_objects) + " empty {} events were skipped");
  if (c.empty_elements)
    warn(Code::empty_elements, std::to_string(c.empty_elements) + " empty array elements (,,)");
  if (c.bad_numbers)
    warn(Code::bad_numbers,
         std::to_string(c.bad_numbers) + " ts/dur values are not numbers; they were read as 0");
  if (c.utf8_repairs)
    warn(Code::invalid_utf8,
         std::to_string(c.utf8_repairs) + " bytes of invalid UTF-8 were replaced by '?' in names");
  if (c.control_repairs)
    warn(Code::control_characters,
         std::to_string(c.control_repairs) +
             " raw control characters inside strings were replaced by spaces");
  if (c.huge_durations)
    warn(Code::huge_durations, std::to_string(c.huge_durations) +
                               " events last longer than 7 days (CUPTI timestamp overflow?); "
                               "kept as written");
  if (c.negative_durations)
    warn(Code::negative_durations,
         std::to_string(c.negative_durations) + " events have a negative dur; kept as written");
}

Result<std::optional<EventsArray>> locate_events(EventStore& store, std::string_view text) {
  size_t p = 0;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") p = 3;  // UTF-8 byte order mark
  p = jl::skip_ws(text, p);
  if (p >= text.size()) return Status(Code::file_empty, "the file holds only whitespace");
  if (text[p] == '[') {
    store.metadata.top_level_array = true;
    return std::optional(EventsArray{p, p});
  }
  if (text[p] != '{')
    return Status(Code::not_json, "not JSON: " + not_json_reason(text, p, store.compressed_bytes > 0) +
                                      "; expected a Kineto trace (.json or .json.gz)");
  auto member = jl::find_member(text, p, "traceEvents");
  if (!member && jl::find_member(text, p, "nodes") && jl::find_member(text, p, "schema")) {
    // A PyTorch Execution Trace: an operator graph without timings. It is a
    // trace users have, so it loads, empty, with a word on what to open instead.
    store.metadata.execution_trace = true;
    store.warnings.push_back(
        {Code::execution_trace,
         "this is a PyTorch Execution Trace (operator graph, no timings): it has no "
         "profiler events; open the Kineto trace recorded with it for timing analysis, or "
         "run `sollens solar` on it for its graph speed of light"});
    return std::optional<EventsArray>();
  }
  if (!member)
    return Status(Code::not_a_trace,
                  "no \"traceEvents\" array in the top-level object: this JSON is not a Chrome/Kineto "
                  "trace (or it is cut short before its events)");
  if (member->value_begin >= text.size() || text[member->value_begin] != '[')
    return Status(Code::events_not_an_array, "\"traceEvents\" is not an array" + at_byte(member->value_begin));
  store.metadata.has_trace_events_key = true;
  return std::optional(EventsArray{p, member->value_begin});
}

void finish_store(EventStore& store, const EventsArray& events, size_t array_close,
                  const IngestCounters& counters) {
  if (!store.metadata.top_level_array)
    read_metadata(store, events.object_open, events.array_open, array_close);
  add_warnings(store, counters, array_close, store.metadata.top_level_array);
  add_cut_short_loss(store);
}

}  // namespace sollens
