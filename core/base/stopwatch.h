#pragma once
// Wall-clock milliseconds since a point, for the per-stage timings reports print.
#include <chrono>

namespace sollens {

inline double ms_since(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace sollens
