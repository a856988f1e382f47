#pragma once
// gzip input (.json.gz). Native builds decompress with zlib; the WebAssembly build
// has no zlib (the browser's DecompressionStream does it before the bytes arrive).
#include <string>
#include <string_view>

#include "store/padded_buffer.h"

namespace sollens {

bool looks_like_gzip(std::string_view bytes);

struct GunzipResult {
  PaddedBuffer data;
  std::string error;    // empty on success
  bool truncated = false;  // the stream ended early: data holds what came before
};

// Decompresses every gzip member in `bytes` (multi-member files are valid gzip).
GunzipResult gunzip(std::string_view bytes);

}  // namespace sollens
