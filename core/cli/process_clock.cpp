#include "cli/process_clock.h"

#include <time.h>

#include "base/stopwatch.h"

namespace sollens::cli {

namespace {
std::chrono::steady_clock::time_point main_began = std::chrono::steady_clock::now();
}  // namespace

void start_process_clock() { main_began = std::chrono::steady_clock::now(); }

double wall_ms_since_main() { return ms_since(main_began); }

double process_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

}  // namespace sollens::cli
