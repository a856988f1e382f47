#pragma once
// Kineto Chrome-trace JSON (or gzip of it) → EventStore. The traceEvents array is
// parsed in windows of a few MiB cut at event boundaries, so parser memory stays
// fixed whatever the size of the file.
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "base/status.h"
#include "store/event_store.h"

namespace sollens {

struct IngestOptions {
  // 256 KiB: the window and its structural index stay in cache (fastest measured).
  size_t window_bytes = size_t(256) << 10;
  // Threads for large inputs (the two halves of the events array at once). The
  // WebAssembly build has none: keep 1 there.
  unsigned threads = 1;
  size_t parallel_min_bytes = size_t(8) << 20;
  // Called after each window with (input bytes consumed, events so far); returning
  // false cancels the load.
  std::function<bool(size_t, size_t)> progress;
  // For many large traces at once: the store keeps only what it needs of the input
  // (the args of events that carry shapes, grids or collective fields, and copies of
  // the strings), moved into a buffer of its own as each window is read, in one pass
  // (no halves). `release_input`, when set, is told of each input range that will not
  // be read again, in order, so that the caller can drop those pages (the CLI's
  // mapping of the file); it returns how far it released (whole pages only), and the
  // next call starts there. A load that must read a released range again (a parse in
  // two halves that fails and starts over) reads the input again: pass it only for
  // bytes that then read the same (a file's mapping). Not used for gzip input.
  bool compact_input = false;
  std::function<const char*(const char* begin, const char* end)> release_input;
  // A streamed store's columns, reserved ahead from a projection, give back the room
  // not used only where it is at least this much: giving it back copies every row to
  // memory not touched before, worth it near the 4 GB WebAssembly can hold, not for
  // the tens of MB a 1 GB trace leaves.
  size_t shrink_spare_column_bytes = size_t(64) << 20;
};

// Takes the file's bytes (JSON or gzip JSON) and keeps them inside the store. The
// error's code says why there is none (file_empty, not_json, not_a_trace,
// events_not_an_array, invalid_json, gzip_corrupt, gzip_unsupported, gzip_empty,
// cancelled, out_of_memory); its message gives the byte offset where known. What was
// read with caveats says so in the store's warnings.
Result<std::unique_ptr<EventStore>> load_trace(PaddedBuffer bytes, const IngestOptions& options = {});

}  // namespace sollens
