#include "writers/trace_splice.h"

#include <cstddef>
#include <optional>

#include "writers/trace_text.h"

namespace sollens {

using trace_text::EventsArray;
using trace_text::find_events_array;
using trace_text::skip_space;

bool write_trace_with_extra_events(std::string_view trace_json, const std::vector<std::string>& extra_events,
                                   std::ostream& out) {
  const std::optional<EventsArray> events = find_events_array(trace_json);
  if (!events) return false;
  bool any = skip_space(trace_json, events->open + 1) < events->close;
  out << trace_json.substr(0, events->close);
  for (const std::string& event : extra_events) {
    out << (any ? ",\n" : "\n") << event;
    any = true;
  }
  out << trace_json.substr(events->close);
  return true;
}

}  // namespace sollens
