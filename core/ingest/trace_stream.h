#pragma once
// A Kineto trace fed in chunks, as the page reads a file piece by piece (decompressed by
// the browser): each window of events is parsed as soon as its bytes are in, and only
// what the store needs is kept (IngestOptions::compact_input: the args it reads and
// copies of the strings), so memory holds the store and about one window of text, not
// the file. The store is the one load_trace makes from the whole text with
// compact_input, byte for byte, wherever the chunks are cut.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "ingest/trace_reader.h"

namespace sollens {

// A trace read in two parts at once (the page's two workers, one WebAssembly instance
// each): the text is split at the ',' between two events that stands at byte `at`. The
// first part's reader is fed the text up to and with that ',', the second part's the
// text from it on. Where `at` is not such a ',' (it is inside an event, or outside the
// events array), finish() says split_missed and the file must be read in one pass.
struct StreamSplit {
  enum class Part { kFirst, kSecond };
  Part part;
  size_t at;
};

class TraceStreamReader {
 public:
  // `expected_bytes`: the text's size when known (0 if not), to size the store once.
  // options.progress is called after each window with (bytes read, events so far).
  explicit TraceStreamReader(IngestOptions options = {}, size_t expected_bytes = 0);
  // One part of a split read; expected_bytes is the whole text's size.
  TraceStreamReader(IngestOptions options, size_t expected_bytes, StreamSplit split);
  ~TraceStreamReader();
  TraceStreamReader(const TraceStreamReader&) = delete;
  TraceStreamReader& operator=(const TraceStreamReader&) = delete;

  // Room for `n` more bytes: write them at the address returned, then commit(n). The
  // address is good until the next call. Null when no memory is left (commit(0) then
  // records the failure).
  char* prepare(size_t n);
  // Parses every window that the bytes written complete. False once the load has
  // failed or was cancelled: stop feeding, finish() says why.
  bool commit(size_t n);
  size_t bytes_read() const;
  // The compressed file the bytes come from ended early (a gzip stream with no end, as
  // the page's decompression reports it): finish() keeps every complete event before
  // the cut and warns as load_trace does for the same file.
  void input_cut_short();
  size_t events() const;
  // The input has ended: the rest is parsed and the store returned, or the error
  // load_trace gives (cancelled, out_of_memory, trace_too_large where a 32-bit build
  // cannot count the bytes).
  Result<std::unique_ptr<EventStore>> finish();

  // The second part of a split read, instead of finish(): the rest parsed, and the
  // part encoded for the first part's reader (stream_part.h).
  Result<std::string> finish_part();
  // The first part of a split read, before finish(): the second part's encoding
  // (finish_part's), appended by finish(). It must stay valid until then.
  void set_second_part(std::string_view encoded);

 private:
  class State;
  std::unique_ptr<State> state_;
};

}  // namespace sollens
