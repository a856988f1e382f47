// A Kineto trace through the windowed, two-thread parser and through the streaming
// reader fed in chunks of random sizes. The input's last 8 bytes choose the window,
// compaction and chunking; the rest is the trace. With compact_input both must give
// the same store (ingest/trace_stream.h), so the two results are compared.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include <fuzzer/FuzzedDataProvider.h>

#include "ingest/trace_reader.h"
#include "ingest/trace_stream.h"

namespace {

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
  if (compact.ok() != streamed.ok()) std::abort();
  if (compact.ok() && compact.value()->size() != streamed.value()->size()) std::abort();
  return 0;
}
