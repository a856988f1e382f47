// A Kineto trace as the CLI loads it by default: one thread, then the event tree.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "api/session.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sollens::Session session;
  (void)session.load(sollens::PaddedBuffer::copy_of({reinterpret_cast<const char*>(data), size}));
  return 0;
}
