#pragma once
// simdjson's stage 1 done 64 bytes at a time with byte_vector.h: where every JSON
// token starts. simdjson has no vector kernel for WebAssembly, so its wasm build
// scans one byte at a time (its 'fallback' implementation), which took 44% of the
// page's parse. The output is what simdjson's On-Demand parser reads: the offset of
// every operator ({}[]:,), opening quote and scalar start, in order, then the length
// twice and a 0.
#include <simdjson.h>

#include <cstddef>
#include <cstdint>

namespace sollens {

struct StructuralScan {
  uint32_t count = 0;  // offsets written before the three closing entries
  // simdjson's codes, in the order its vector kernels report them: UNCLOSED_STRING,
  // UNESCAPED_CHARS (a byte below 0x20 inside a string), EMPTY (no token),
  // UTF8_ERROR (anywhere in the text).
  simdjson::error_code error = simdjson::SUCCESS;
};

// Entries `out` must have room for when scanning `len` bytes.
size_t structural_room(size_t len);

// Scans text[0, len) (len < 4 GiB) into `out`; reads no byte at or past len.
StructuralScan scan_structurals(const uint8_t* text, size_t len, uint32_t* out);

}  // namespace sollens
