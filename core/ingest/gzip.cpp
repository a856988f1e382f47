#include "ingest/gzip.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(SOLLENS_HAVE_ISAL)
#include <isa-l/igzip_lib.h>
#elif defined(SOLLENS_HAVE_ZLIB)
#include <zlib.h>
#endif

namespace sollens {

#if defined(SOLLENS_HAVE_ISAL) || defined(SOLLENS_HAVE_ZLIB)
namespace {

// The decompressors take 32-bit counts.
constexpr size_t kMaxStep = size_t(1) << 30;

Status corrupt(const std::string& why, size_t produced) {
  return Status(Code::gzip_corrupt, "the gzip data is corrupt (" + why + ") after " + std::to_string(produced) +
                                        " decompressed bytes");
}

}  // namespace
#endif

bool looks_like_gzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

size_t Inflater::size_hint(std::string_view bytes) {
  if (bytes.size() < 18) return 0;
  uint32_t isize;
  std::memcpy(&isize, bytes.data() + bytes.size() - 4, 4);
  // A cut or corrupt file has no real trailer: trust it only within deflate's
  // maximum ratio (about 1032:1).
  if (isize >= bytes.size() && isize / 1032 <= bytes.size()) return isize;
  return 0;
}

#if defined(SOLLENS_HAVE_ISAL)

struct Inflater::State {
  inflate_state isal;
  const char* in;
  size_t in_left;
  size_t produced = 0;
};

Inflater::Inflater(std::string_view bytes) : state_(std::make_unique<State>()) {
  isal_inflate_init(&state_->isal);
  state_->isal.crc_flag = ISAL_GZIP;
  state_->in = bytes.data();
  state_->in_left = bytes.size();
}

Inflater::~Inflater() = default;

namespace {
std::string isal_problem(int rc) {
  switch (rc) {
    case ISAL_INVALID_BLOCK: return "invalid block";
    case ISAL_INVALID_SYMBOL: return "invalid symbol";
    case ISAL_INVALID_LOOKBACK: return "invalid distance";
    case ISAL_INVALID_WRAPPER: return "invalid gzip header";
    case ISAL_UNSUPPORTED_METHOD: return "unknown compression method";
    case ISAL_INCORRECT_CHECKSUM: return "incorrect checksum";
    default: return "igzip error " + std::to_string(rc);
  }
}
}  // namespace

size_t Inflater::inflate(char* out, size_t room) {
  State& st = *state_;
  inflate_state& s = st.isal;
  size_t written = 0;
  while (!finished_ && written < room) {
    const size_t in_step = std::min(st.in_left, kMaxStep);
    const size_t out_step = std::min(room - written, kMaxStep);
    s.next_in = reinterpret_cast<uint8_t*>(const_cast<char*>(st.in));
    s.avail_in = static_cast<uint32_t>(in_step);
    s.next_out = reinterpret_cast<uint8_t*>(out + written);
    s.avail_out = static_cast<uint32_t>(out_step);
    const int rc = isal_inflate(&s);
    const size_t consumed = in_step - s.avail_in;
    st.in += consumed;
    st.in_left -= consumed;
    written += out_step - s.avail_out;
    st.produced += out_step - s.avail_out;
    if (rc != ISAL_DECOMP_OK) {
      status_ = corrupt(isal_problem(rc), st.produced);
      finished_ = true;
    } else if (s.block_state == ISAL_BLOCK_FINISH) {
      // Another member may follow (concatenated gzip files).
      if (looks_like_gzip({st.in, st.in_left})) {
        isal_inflate_reset(&s);
        s.crc_flag = ISAL_GZIP;
      } else {
        finished_ = true;
      }
    } else if (st.in_left == 0 && s.avail_out > 0) {
      truncated_ = finished_ = true;  // everything the input holds is out
    }
  }
  return written;
}

#elif defined(SOLLENS_HAVE_ZLIB)

struct Inflater::State {
  z_stream zs{};
  size_t in_left = 0;
  size_t produced = 0;
};

Inflater::Inflater(std::string_view bytes) : state_(std::make_unique<State>()) {
  if (inflateInit2(&state_->zs, 16 + MAX_WBITS) != Z_OK) {
    status_ = Status(Code::out_of_memory, "zlib could not be initialised");
    finished_ = true;
    state_.reset();
    return;
  }
  state_->zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  state_->in_left = bytes.size();
}

Inflater::~Inflater() {
  if (state_) inflateEnd(&state_->zs);
}

size_t Inflater::inflate(char* out, size_t room) {
  size_t written = 0;
  while (!finished_ && written < room) {
    z_stream& zs = state_->zs;
    const size_t in_step = std::min(state_->in_left, kMaxStep);
    const size_t out_step = std::min(room - written, kMaxStep);
    zs.avail_in = static_cast<uInt>(in_step);
    zs.next_out = reinterpret_cast<Bytef*>(out + written);
    zs.avail_out = static_cast<uInt>(out_step);
    const int rc = ::inflate(&zs, Z_NO_FLUSH);
    state_->in_left -= in_step - zs.avail_in;
    written += out_step - zs.avail_out;
    state_->produced += out_step - zs.avail_out;
    if (rc == Z_STREAM_END) {
      // Another member may follow (concatenated gzip files).
      if (looks_like_gzip({reinterpret_cast<const char*>(zs.next_in), state_->in_left}))
        inflateReset(&zs);
      else
        finished_ = true;
    } else if (rc == Z_BUF_ERROR && state_->in_left == 0) {
      truncated_ = finished_ = true;
    } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
      status_ = corrupt(zs.msg ? zs.msg : "zlib error", state_->produced);
      finished_ = true;
    }
  }
  return written;
}

#else

struct Inflater::State {};

Inflater::Inflater(std::string_view) {
  status_ = Status(Code::gzip_unsupported,
                   "this build cannot decompress gzip; decompress the trace first (the web page does this "
                   "itself)");
  finished_ = true;
}

Inflater::~Inflater() = default;

size_t Inflater::inflate(char*, size_t) { return 0; }

#endif

Result<Gunzipped> gunzip(std::string_view bytes) {
  Gunzipped out;
  Inflater inflater(bytes);
  const size_t hint = Inflater::size_hint(bytes);
  if (!inflater.finished()) out.data.resize(hint ? hint + 1 : bytes.size() * 4);
  size_t produced = 0;
  while (!inflater.finished()) {
    if (produced == out.data.size()) out.data.resize(out.data.size() * 2 + (1 << 20));
    produced += inflater.inflate(out.data.data() + produced, out.data.size() - produced);
  }
  if (!inflater.status().ok()) return inflater.status();
  out.truncated = inflater.truncated();
  out.data.truncate(produced);
  return out;
}

}  // namespace sollens
