// A PyTorch Execution Trace (JSON or gzip JSON) read into its graph.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ingest/execution_trace_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)sollens::load_execution_trace(sollens::PaddedBuffer::copy_of({reinterpret_cast<const char*>(data), size}));
  return 0;
}
