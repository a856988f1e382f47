#pragma once
// Inflates a gzip file on a thread of its own into a buffer reserved at its final
// address, announcing each piece through a ByteStream: parsing starts on the first
// bytes while the rest is still being inflated.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <thread>

#include "ingest/byte_stream.h"
#include "ingest/gzip.h"
#include "store/padded_buffer.h"

namespace sollens {

class StreamedGunzip {
 public:
  // Runs on the inflating thread once every byte is out, under the stream's lock:
  // gets the end of the last window the parser claimed and the whole text; returns
  // where the parser must stop (npos: nowhere).
  using ChooseStop = std::function<size_t(size_t claimed, std::string_view text)>;
  // Then, still on that thread, with the stop chosen (not called for npos).
  using AfterStop = std::function<void(size_t stop)>;

  StreamedGunzip(std::string_view compressed, PaddedBuffer& target);
  ~StreamedGunzip();
  StreamedGunzip(const StreamedGunzip&) = delete;
  StreamedGunzip& operator=(const StreamedGunzip&) = delete;

  // False when no buffer could be reserved or no thread started: nothing ran, and
  // the caller inflates the usual way.
  bool start(ChooseStop choose_stop, AfterStop after_stop);
  ByteStream& stream() { return stream_; }
  // Waits for the thread; then the target holds every byte inflated.
  void join();

  const Status& status() const { return status_; }
  bool truncated() const { return truncated_; }
  double inflate_ms() const { return inflate_ms_; }  // wall time of the inflate alone

 private:
  void run(ChooseStop choose_stop, AfterStop after_stop);

  std::string_view compressed_;
  PaddedBuffer& target_;
  ByteStream stream_;
  std::thread thread_;
  Status status_;
  bool truncated_ = false;
  double inflate_ms_ = 0;
};

// True where this build can inflate on a second thread into reserved memory.
bool streamed_gunzip_available();

}  // namespace sollens
