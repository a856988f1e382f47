#pragma once
// The number a cell holds when it has none (written as an empty CSV cell).
#include <limits>

namespace sollens {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace sollens
