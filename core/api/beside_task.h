#pragma once
// Work run on a second thread while the caller goes on, collected with wait(). Where no
// thread can be had (a WebAssembly build without pthreads), wait() runs it there and then,
// so callers need no second path.
#include <chrono>
#include <exception>
#include <functional>
#include <thread>

namespace sollens {

class BesideTask {
 public:
  explicit BesideTask(std::function<void()> work);
  // Waits for work already running beside; work that had no thread and was never waited
  // for is not done. What the work threw and nobody collected is dropped.
  ~BesideTask();
  BesideTask(const BesideTask&) = delete;
  BesideTask& operator=(const BesideTask&) = delete;

  // Returns once the work is done, rethrowing what it threw (once).
  void wait();
  double work_ms() const { return work_ms_; }  // the work's own wall time, after wait()
  double wait_ms() const { return wait_ms_; }  // how long wait() blocked (or ran it)

 private:
  void run() noexcept;

  std::function<void()> work_;
  std::thread thread_;
  std::exception_ptr thrown_;
  bool done_ = false;
  double work_ms_ = 0;
  double wait_ms_ = 0;
};

}  // namespace sollens
