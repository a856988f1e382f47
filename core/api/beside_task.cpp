#include "api/beside_task.h"

#include <system_error>
#include <utility>

#include "base/stopwatch.h"

namespace sollens {

BesideTask::BesideTask(std::function<void()> work) : work_(std::move(work)) {
  try {
    thread_ = std::thread([this] { run(); });
  } catch (const std::system_error&) {
    // no second thread: wait() runs the work
  }
}

BesideTask::~BesideTask() {
  if (thread_.joinable()) thread_.join();
}

void BesideTask::run() noexcept {
  const auto t0 = std::chrono::steady_clock::now();
  try {
    work_();
  } catch (...) {
    thrown_ = std::current_exception();
  }
  work_ms_ = ms_since(t0);
}

void BesideTask::wait() {
  if (done_) return;
  const auto t0 = std::chrono::steady_clock::now();
  if (thread_.joinable()) thread_.join();
  else run();
  wait_ms_ = ms_since(t0);
  done_ = true;
  if (thrown_) std::rethrow_exception(std::exchange(thrown_, nullptr));
}

}  // namespace sollens
