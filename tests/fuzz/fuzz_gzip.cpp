// The gzip path: the input itself taken as gzip (decompressed whole, in small steps, and
// loaded as a trace), and a gzip member made of the input (loaded whole and cut short
// at a point the input chooses), so that both broken streams and good streams of odd
// JSON reach the trace reader.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <zlib.h>

#include "ingest/gzip.h"
#include "ingest/trace_reader.h"

namespace {

std::string gzip_member(std::string_view text) {
  z_stream stream{};
  deflateInit2(&stream, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);  // +16: gzip wrapper
  std::string out(deflateBound(&stream, text.size()) + 32, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  stream.avail_in = static_cast<uInt>(text.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

void load(std::string_view bytes) { (void)sollens::load_trace(sollens::PaddedBuffer::copy_of(bytes)); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view raw(reinterpret_cast<const char*>(data), size);
  (void)sollens::gunzip(raw);
  sollens::Inflater inflater(raw);
  char step[61];  // small steps: output cut at odd places
  while (!inflater.finished() && inflater.inflate(step, sizeof step) > 0) {
  }
  sollens::Inflater::size_hint(raw);
  if (sollens::looks_like_gzip(raw)) load(raw);

  const std::string member = gzip_member(raw);
  load(member);
  load(std::string_view(member).substr(0, size == 0 ? 0 : data[0] % member.size()));
  return 0;
}
