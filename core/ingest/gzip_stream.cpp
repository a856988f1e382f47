#include "ingest/gzip_stream.h"

#include <algorithm>
#include <chrono>
#include <system_error>

#include "base/stopwatch.h"

#if defined(SOLLENS_HAVE_ZLIB)
#include <sys/mman.h>
#define SOLLENS_STREAMED_GUNZIP 1
#endif

namespace sollens {

namespace {

// Pieces small enough that the parser starts early, large enough that announcing
// them costs nothing.
constexpr size_t kPiece = size_t(256) << 10;

#if defined(SOLLENS_STREAMED_GUNZIP)
void unmap(char* data, size_t capacity) { munmap(data, capacity); }

// Address space for the largest text `compressed` can inflate to (deflate's ratio is
// at most about 1032:1), reserved without committing memory: only the pages written
// become resident, and the buffer never moves while the parser reads it. Huge pages
// where the kernel gives them: a 55 MB trace otherwise takes 13,000 page faults.
bool reserve(size_t compressed, PaddedBuffer& out) {
  const size_t max_text = std::min(compressed * 1032 + (size_t(1) << 20), size_t(1) << 45);
  const size_t capacity = (max_text + PaddedBuffer::kPadding + 4095) / 4096 * 4096;
  void* base = mmap(nullptr, capacity, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) return false;
  madvise(base, capacity, MADV_HUGEPAGE);
  out = PaddedBuffer::adopt(static_cast<char*>(base), 0, capacity, unmap);
  return true;
}
#endif

}  // namespace

bool streamed_gunzip_available() {
#if defined(SOLLENS_STREAMED_GUNZIP)
  return true;
#else
  return false;
#endif
}

StreamedGunzip::StreamedGunzip(std::string_view compressed, PaddedBuffer& target)
    : compressed_(compressed), target_(target) {}

StreamedGunzip::~StreamedGunzip() { join(); }

bool StreamedGunzip::start(ChooseStop choose_stop, AfterStop after_stop) {
#if defined(SOLLENS_STREAMED_GUNZIP)
  if (!reserve(compressed_.size(), target_)) return false;
  try {
    thread_ = std::thread([this, choose_stop, after_stop] { run(choose_stop, after_stop); });
  } catch (const std::system_error&) {
    target_ = PaddedBuffer();
    return false;
  }
  return true;
#else
  (void)choose_stop;
  (void)after_stop;
  return false;
#endif
}

void StreamedGunzip::join() {
  if (thread_.joinable()) thread_.join();
}

void StreamedGunzip::run(ChooseStop choose_stop, AfterStop after_stop) {
  const auto t0 = std::chrono::steady_clock::now();
  Inflater inflater(compressed_);
  char* out = target_.data();
  const size_t room = target_.capacity() - PaddedBuffer::kPadding;
  size_t produced = 0;
  while (!inflater.finished() && produced < room) {
    produced += inflater.inflate(out + produced, std::min(kPiece, room - produced));
    stream_.publish(produced);
  }
  status_ = inflater.status();
  truncated_ = inflater.truncated();
  inflate_ms_ = ms_since(t0);
  target_.extend(produced);
  const std::string_view text(out, produced);
  const size_t stop = stream_.finish(produced, [&](size_t claimed) {
    return status_.ok() ? choose_stop(claimed, text) : ByteStream::npos;
  });
  if (stop != ByteStream::npos) after_stop(stop);
}

}  // namespace sollens
