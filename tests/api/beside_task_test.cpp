// BesideTask: the work runs once, beside the caller; wait() returns after it and
// rethrows what it threw; the destructor waits for work running beside.
#include <catch2/catch.hpp>

#include <atomic>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "api/beside_task.h"

using sollens::BesideTask;

namespace {
bool threads_available() {
  try {
    std::thread([] {}).join();
    return true;
  } catch (const std::system_error&) {
    return false;
  }
}
}  // namespace

TEST_CASE("BesideTask: the work is done once wait() returns, and only once") {
  int runs = 0;
  std::thread::id worker;
  {
    BesideTask task([&] {
      ++runs;
      worker = std::this_thread::get_id();
    });
    task.wait();
    CHECK(runs == 1);
    task.wait();  // a second wait neither blocks nor runs it again
    CHECK(runs == 1);
    CHECK(task.work_ms() >= 0);
  }
  CHECK(runs == 1);
  // Beside this thread where a thread can be had; here and now where not (wasm).
  if (threads_available()) CHECK(worker != std::this_thread::get_id());
  else CHECK(worker == std::this_thread::get_id());
}

TEST_CASE("BesideTask: what the work threw comes out of wait(), once") {
  BesideTask task([] { throw std::runtime_error("no room"); });
  CHECK_THROWS_WITH(task.wait(), "no room");
  CHECK_NOTHROW(task.wait());
}

TEST_CASE("BesideTask: destroyed without wait(), work running beside finishes first") {
  std::atomic<bool> finished = false;
  {
    BesideTask task([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      finished = true;
    });
  }
  CHECK(finished == threads_available());  // with no thread, work nobody waited for is not done
  // ... and an exception nobody collected does not escape the destructor.
  CHECK_NOTHROW([] { BesideTask task([] { throw std::runtime_error("dropped"); }); }());
}
