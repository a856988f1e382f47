#pragma once
// One window of traceEvents — the elements between a '[' or ',' and a later ',' or
// ']' — parsed in place with a reused simdjson parser into store rows. Shared by the
// reader of a whole text (trace_reader.cpp) and the reader fed in chunks
// (trace_stream.h).
#include <simdjson.h>

#include <cstddef>
#include <string_view>

#include "ingest/event_decoder.h"
#include "store/event_store.h"
#include "store/padded_buffer.h"

namespace sollens {

// The args JSON the store keeps, moved out of an input that is not kept whole
// (IngestOptions::compact_input). Grown with realloc: a large block moves by remapping,
// not by copying.
class ArgsArena {
 public:
  ArgsArena() = default;
  ArgsArena(const ArgsArena&) = delete;
  ArgsArena& operator=(const ArgsArena&) = delete;
  ~ArgsArena();

  // Moves the args of rows [from, store.size()) here; their offsets become offsets here.
  void take(EventStore& store, size_t from, const char* input);
  // Appends `other`, whose args belong to the rows `other_rows` (the second half of a
  // parse in two halves), shifting those rows' offsets to where their bytes land here.
  void absorb(const ArgsArena& other, EventStore& other_rows);
  // Appends bytes whose rows' offsets the caller shifts by size() taken before the call
  // (the second part of a parallel read, decoded from its encoding).
  void append(std::string_view bytes);
  std::string_view bytes() const { return {data_, size_}; }
  // The arena as the store's input, padded as simdjson reads it.
  PaddedBuffer finish();
  size_t size() const { return size_; }
  // Room for `bytes` in all, at once: where realloc copies (WebAssembly), growing in
  // steps would hold the old block and the new one together at every step.
  void reserve(size_t bytes);

 private:
  void grow_to(size_t need);  // by half again at least

  char* data_ = nullptr;
  size_t size_ = 0, capacity_ = 0;
};

class WindowParser {
 public:
  // Rows go to `store` from `input`. `repairs_allowed`: invalid UTF-8 and raw control
  // characters may be fixed in the input (they change it for good). With an `arena`,
  // each window's args move there once it is read.
  WindowParser(EventStore& store, PaddedBuffer& input, IngestCounters& counters, bool repairs_allowed,
               ArgsArena* arena);

  struct Result {
    bool ok = false;
    simdjson::error_code error = simdjson::SUCCESS;
  };

  // Parses [sep, cut] as an array: '[' is written at sep and ']' at cut (or the
  // window runs to the end of the input when cut is npos; `close_at_end` then writes
  // the ']' in the padding), and both are restored. A failed window leaves the store
  // and the counters as they were, except for repairs made.
  Result parse(size_t sep, size_t cut, bool close_at_end = false);

 private:
  Result decode(size_t begin, size_t end);

  EventStore& store_;
  PaddedBuffer& input_;
  IngestCounters& counters_;
  const bool repairs_allowed_;
  ArgsArena* const arena_;
  size_t compacted_rows_;  // rows whose args are in the arena
  EventDecoder decoder_;
  simdjson::ondemand::parser parser_;
};

}  // namespace sollens
