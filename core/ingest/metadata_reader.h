#pragma once
// The top-level members around traceEvents (deviceProperties, distributedInfo,
// baseTimeNanoseconds, ...), parsed as one small document with the events array
// replaced by null.
#include <cstddef>

#include "store/event_store.h"

namespace sollens {

// object_open: index of the top-level '{'; array_open/array_close: the events
// array's brackets (array_close = npos when the file ends inside it).
void read_metadata(EventStore& store, size_t object_open, size_t array_open, size_t array_close);

}  // namespace sollens
