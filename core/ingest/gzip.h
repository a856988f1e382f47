#pragma once
// gzip input (.json.gz). Native builds decompress with ISA-L's igzip (zlib where
// ISA-L is not installed); the WebAssembly build has neither (the browser's
// DecompressionStream does it before the bytes arrive).
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "base/status.h"
#include "store/padded_buffer.h"

namespace sollens {

bool looks_like_gzip(std::string_view bytes);

struct Gunzipped {
  PaddedBuffer data;
  bool truncated = false;  // the stream ended early: data holds what came before
};

// Decompresses every gzip member in `bytes` (multi-member files are valid gzip); the
// error is gzip_corrupt, or gzip_unsupported in a build without a decompressor.
Result<Gunzipped> gunzip(std::string_view bytes);

// The same, piece by piece: each call writes what fits into the room it is given,
// so that a reader can start on the first bytes while the rest is inflated.
class Inflater {
 public:
  explicit Inflater(std::string_view gzip_bytes);
  ~Inflater();
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;

  // Writes up to `room` bytes at `out` and returns how many it wrote.
  size_t inflate(char* out, size_t room);
  // True once the last member ended, the input ran out (truncated()) or an error
  // was met (status()); inflate() then writes nothing more.
  bool finished() const { return finished_; }
  bool truncated() const { return truncated_; }
  const Status& status() const { return status_; }
  // The uncompressed size the last trailer states (mod 2^32), trusted only within
  // deflate's maximum ratio; 0 when it cannot be known.
  static size_t size_hint(std::string_view gzip_bytes);

 private:
  struct State;
  std::unique_ptr<State> state_;
  bool finished_ = false;
  bool truncated_ = false;
  Status status_;
};

}  // namespace sollens
