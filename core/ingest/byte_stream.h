#pragma once
// Bytes that one thread writes into a buffer while another parses them: how many
// are ready, whether the writer is done, and — decided by the writer as it finishes —
// where the parser must stop because the writer takes the rest of the events.
#include <condition_variable>
#include <cstddef>
#include <mutex>

namespace sollens {

class ByteStream {
 public:
  static constexpr size_t npos = static_cast<size_t>(-1);

  struct State {
    size_t ready = 0;
    bool finished = false;
    size_t stop = npos;  // meaningful once finished
  };

  // Writer: `ready` bytes are now written.
  void publish(size_t ready) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ready_ = ready;
    }
    changed_.notify_all();
  }

  // Writer: every byte is written. `choose_stop(claimed)` runs under the lock, so the
  // parser claims no further cut meanwhile; it returns where the parser must stop
  // (past `claimed`, the end of the last window the parser started), or npos.
  template <typename ChooseStop>
  size_t finish(size_t total, ChooseStop choose_stop) {
    size_t stop;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ready_ = total;
      finished_ = true;
      stop = stop_ = choose_stop(claimed_);
    }
    changed_.notify_all();
    return stop;
  }

  // Parser: blocks until `want` bytes are ready or the writer has finished.
  State wait_for(size_t want) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return finished_ || ready_ >= want; });
    return {ready_, finished_, stop_};
  }

  State wait_finished() { return wait_for(npos); }

  // Parser: about to parse up to `cut`. False once the writer has finished (the
  // parser then reads the final state and its stop).
  bool claim(size_t cut) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (finished_) return false;
    claimed_ = cut;
    return true;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  size_t ready_ = 0;
  bool finished_ = false;
  size_t claimed_ = 0;
  size_t stop_ = npos;
};

}  // namespace sollens
