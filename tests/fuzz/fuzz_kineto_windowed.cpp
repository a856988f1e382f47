// A Kineto trace through the windowed, two-thread parser, through the streaming
// reader fed in chunks of random sizes, and read in two parts split at a ',' the seed
// picks (the page's two workers). The input's last 8 bytes choose the window,
// compaction, chunking and split; the rest is the trace. With compact_input the stream
// must give the same store (ingest/trace_stream.h), and a split read that succeeds the
// same rows as well (a cut that is not between two events must fail, never give a
// different store), so the results are compared. The stream's verdict (read or refused)
// and a split read's success may differ from the one-pass read's only for text that is
// not JSON once repaired, or where one-pass reads with other windows differ
// (window_dependent).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include <fuzzer/FuzzedDataProvider.h>

#include <simdjson.h>

#include "ingest/text_repair.h"
#include "ingest/trace_reader.h"
#include "ingest/trace_stream.h"

namespace {

void feed_all(sollens::TraceStreamReader& reader, std::string_view text) {
  char* room = reader.prepare(text.size());
  if (room == nullptr) return;
  std::memcpy(room, text.data(), text.size());
  (void)reader.commit(text.size());
}

sollens::Result<std::unique_ptr<sollens::EventStore>> stream_in_chunks(std::string_view text, const sollens::IngestOptions& options,
                                     uint32_t chunk_seed) {
  sollens::TraceStreamReader reader(options, chunk_seed & 1 ? text.size() : 0);
  size_t at = 0;
  while (at < text.size()) {
    chunk_seed = chunk_seed * 1103515245u + 12345u;  // chunk sizes 1..64
    const size_t n = std::min<size_t>(1 + (chunk_seed >> 16) % 64, text.size() - at);
    char* room = reader.prepare(n);
    if (room == nullptr) break;
    std::memcpy(room, text.data() + at, n);
    at += n;
    if (!reader.commit(n)) break;
  }
  return reader.finish();
}

// The text read in two parts split at the ',' at `at` (TraceStreamReader, StreamSplit).
sollens::Result<std::unique_ptr<sollens::EventStore>> read_in_two_parts(std::string_view text, const sollens::IngestOptions& options,
                                                                        size_t at) {
  using sollens::StreamSplit;
  sollens::TraceStreamReader second(options, text.size(), StreamSplit{StreamSplit::Part::kSecond, at});
  feed_all(second, text.substr(at));
  sollens::Result<std::string> encoded = second.finish_part();
  sollens::TraceStreamReader first(options, text.size(), StreamSplit{StreamSplit::Part::kFirst, at});
  feed_all(first, text.substr(0, at + 1));
  if (!encoded.ok()) return encoded.status();
  first.set_second_part(*encoded);
  return first.finish();
}

// Whether the verdict on this text (read or refused) may depend on where windows are
// cut. On-Demand checks only what it reads: a value it skips is passed over by counting
// brackets, so a broken event whose brackets still balance against the next cut
// (`"a":"x":1,"b":[1]}}`) is read in one placement of the windows and refused in another.
// The stream's windows and a split read are more placements, so their verdict may differ
// from one load's only for text that is not JSON once repaired as the reader repairs it,
// or where one-pass loads with other windows differ among themselves.
bool window_dependent(std::string_view text, sollens::IngestOptions options) {
  std::string repaired(text);  // as the reader repairs it (ingest/text_repair.h)
  sollens::repair_invalid_utf8(repaired.data(), repaired.size());
  sollens::repair_control_characters(repaired.data(), repaired.size());
  simdjson::dom::parser strict;
  if (strict.parse(repaired.data(), repaired.size()).error()) return true;
  bool read = false, refused = false;
  for (const size_t window : {size_t(1), size_t(64), size_t(300), options.window_bytes, text.size() + 1}) {
    options.window_bytes = window;
    (sollens::load_trace(sollens::PaddedBuffer::copy_of(text), options).ok() ? read : refused) = true;
  }
  return read && refused;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider input(data, size);
  sollens::IngestOptions options;
  options.window_bytes = input.ConsumeIntegralInRange<size_t>(1, 512);
  options.compact_input = input.ConsumeBool();
  const uint32_t chunk_seed = input.ConsumeIntegral<uint32_t>();
  const std::string text = input.ConsumeRemainingBytesAsString();
  options.threads = 2;
  options.parallel_min_bytes = 1;

  (void)sollens::load_trace(sollens::PaddedBuffer::copy_of(text), options);
  options.threads = 1;
  options.compact_input = true;
  sollens::Result<std::unique_ptr<sollens::EventStore>> streamed = stream_in_chunks(text, options, chunk_seed);

  // The stream's promise holds against a one-thread compact load of the same text.
  sollens::Result<std::unique_ptr<sollens::EventStore>> compact = sollens::load_trace(sollens::PaddedBuffer::copy_of(text), options);
  if (compact.ok() != streamed.ok() && !window_dependent(text, options)) std::abort();
  if (compact.ok() && compact.value()->size() != streamed.value()->size()) std::abort();

  // A split at the first ',' at or after a byte the seed picks.
  const size_t at = text.empty() ? std::string_view::npos : text.find(',', (chunk_seed >> 8) % text.size());
  if (at == std::string_view::npos) return 0;
  sollens::Result<std::unique_ptr<sollens::EventStore>> split = read_in_two_parts(text, options, at);
  if (split.ok() && !compact.ok() && !window_dependent(text, options)) std::abort();
  if (split.ok() && compact.ok()) {
    const sollens::EventStore& a = *split.value();
    const sollens::EventStore& b = *compact.value();
    if (a.size() != b.size() || a.ts != b.ts || a.dur != b.dur || a.phase != b.phase) std::abort();
    for (size_t i = 0; i < a.size(); ++i)
      if (a.name_of(i) != b.name_of(i) || a.args_json(i) != b.args_json(i)) std::abort();
  }
  return 0;
}
