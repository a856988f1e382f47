#pragma once
// A simdjson implementation whose stage 1 (finding where tokens start) is
// scan_structurals, 64 bytes at a time, and which lends everything else (the DOM's
// tape, string unescaping, document streams, minify) to simdjson's scalar
// 'fallback'. It exists for the WebAssembly build, where simdjson has only that
// fallback; On-Demand parsers, the ingest's, get it through simdjson's active
// implementation.
#include <simdjson.h>

namespace sollens {

const simdjson::implementation& vector_scan_implementation();

// Makes it simdjson's active implementation where the best simdjson has for this
// machine is its scalar fallback (WebAssembly); elsewhere simdjson's kernels stay.
// Returns whether it did. Parsers take the active implementation when they first
// allocate.
bool prefer_vector_scan();

}  // namespace sollens
