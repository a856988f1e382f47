#pragma once
// Where the traceEvents array stands in a trace's text, and what the reader of a whole
// text and the reader fed in chunks (trace_stream.h) both do around it: the errors
// report (as Status), and the metadata members and warnings of a finished store.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "base/status.h"
#include "ingest/event_decoder.h"
#include "store/event_store.h"

namespace sollens {

std::string at_byte(size_t offset);

// Kineto events take 200 to 550 bytes of JSON. Where the whole text or its final size
// is known, the columns are reserved at once for the densest of them: natively, room
// never written is address space, not memory, while columns that outgrow a reservation
// copy every row (at 1 GB of JSON that copy was a tenth of the parse).
inline constexpr size_t kBytesPerEventAtLeast = 192;

struct EventsArray {
  size_t object_open;  // the top-level '{' (or the array's '[' in the legacy form)
  size_t array_open;
};

// Finds the events array in `text`: nullopt for an Execution Trace (the store says
// so); the error (not_json, not_a_trace, ...) where there is none.
Result<std::optional<EventsArray>> locate_events(EventStore& store, std::string_view text);

// The members around the events (from store.input, where the array spans
// [array_open, array_close]; array_close npos when unclosed), then the warnings.
void finish_store(EventStore& store, const EventsArray& events, size_t array_close,
                  const IngestCounters& counters);

void add_warnings(EventStore& store, const IngestCounters& c, size_t array_close, bool array_form);

}  // namespace sollens
