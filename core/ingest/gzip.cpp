#include "ingest/gzip.h"

#include <cstdint>
#include <cstring>

#ifdef SOLLENS_HAVE_ZLIB
#include <zlib.h>
#endif

namespace sollens {

bool looks_like_gzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

#ifdef SOLLENS_HAVE_ZLIB
GunzipResult gunzip(std::string_view bytes) {
  GunzipResult out;
  // The trailer holds the uncompressed size mod 2^32: a good first guess.
  size_t guess = bytes.size() * 4;
  if (bytes.size() >= 18) {
    uint32_t isize;
    std::memcpy(&isize, bytes.data() + bytes.size() - 4, 4);
    // A cut or corrupt file has no real trailer: trust it only within deflate's
    // maximum ratio (about 1032:1).
    if (isize >= bytes.size() && isize / 1032 <= bytes.size()) guess = size_t(isize) + 1;
  }
  out.data.resize(guess);
  size_t produced = 0;

  z_stream zs{};
  if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
    out.error = "zlib could not be initialised";
    return out;
  }
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  size_t in_left = bytes.size();
  while (true) {
    if (produced == out.data.size()) out.data.resize(out.data.size() * 2 + (1 << 20));
    size_t in_chunk = in_left > (1u << 30) ? (1u << 30) : in_left;
    size_t out_chunk = out.data.size() - produced;
    if (out_chunk > (1u << 30)) out_chunk = 1u << 30;
    zs.avail_in = static_cast<uInt>(in_chunk);
    zs.next_out = reinterpret_cast<Bytef*>(out.data.data() + produced);
    zs.avail_out = static_cast<uInt>(out_chunk);
    int rc = inflate(&zs, Z_NO_FLUSH);
    in_left -= in_chunk - zs.avail_in;
    produced += out_chunk - zs.avail_out;
    if (rc == Z_STREAM_END) {
      // Another member may follow (concatenated gzip files).
      size_t rest = in_left;
      if (rest >= 2 && looks_like_gzip({reinterpret_cast<const char*>(zs.next_in), rest})) {
        inflateReset(&zs);
        continue;
      }
      break;
    }
    if (rc == Z_BUF_ERROR && in_left == 0) {
      out.truncated = true;
      break;
    }
    if (rc != Z_OK && rc != Z_BUF_ERROR) {
      out.error = std::string("the gzip data is corrupt (") + (zs.msg ? zs.msg : "zlib error") +
                  ") after " + std::to_string(produced) + " decompressed bytes";
      break;
    }
  }
  inflateEnd(&zs);
  out.data.truncate(produced);
  return out;
}
#else
GunzipResult gunzip(std::string_view) {
  GunzipResult out;
  out.error =
      "this build cannot decompress gzip; decompress the trace first (the web page does this "
      "itself)";
  return out;
}
#endif

}  // namespace sollens
