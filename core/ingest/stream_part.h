#pragma once
// The second part of a trace read in two parts at once (the page's two workers, each
// with its own WebAssembly instance and memory): its rows, strings, kept args, counters
// and the text after the events array, as one flat byte string that the first part's
// reader appends to its store. Both ends are the same build, so numbers are written in
// the machine's own layout; the decoder still checks every length and id, and says
// split_missed for an encoding it cannot read (the page then reads the file in one pass).
#include <cstddef>
#include <string>
#include <string_view>

#include "base/status.h"
#include "ingest/event_decoder.h"
#include "ingest/window_parser.h"
#include "store/event_store.h"

namespace sollens {

struct StreamPartEnd {
  bool closed = false;    // the events array's ']' was read
  std::string_view tail;  // the text after that ']' (the members after the array)
  size_t bytes_read = 0;  // bytes of text the part was fed
};

// `rows`' args are in `arena` (compact input), its strings owned by its pool.
std::string encode_stream_part(const EventStore& rows, const ArgsArena& arena, const IngestCounters& counters,
                               const StreamPartEnd& end);

// Appends the encoded part's rows to `store` (string ids re-interned, M-event records
// shifted) and its args to `arena` (offsets shifted), adds its counters to `counters`,
// and returns where it ended (tail: a view into `encoded`). Nothing is appended when the
// encoding cannot be read.
Result<StreamPartEnd> append_stream_part(std::string_view encoded, EventStore& store, ArgsArena& arena,
                                         IngestCounters& counters);

}  // namespace sollens
