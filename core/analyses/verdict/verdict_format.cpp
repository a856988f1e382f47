#include "analyses/verdict/verdict_format.h"

#include <cmath>
#include <cstdint>
#include <cstdio>

namespace sollens::verdict {

namespace {

std::string printf_str(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

}  // namespace

std::string fmt_num(double value) {
  if (!std::isfinite(value)) return "?";
  const double a = std::fabs(value);
  if (a >= 100 || a == 0) return printf_str("%.0f", value);
  if (a >= 10) return printf_str("%.1f", value);
  if (a >= 1) return printf_str("%.2f", value);
  return printf_str("%.3g", value);
}

std::string fmt_pct(double value) {
  if (!std::isfinite(value)) return "?";
  if (std::fabs(value) >= 10) return printf_str("%.0f", value);
  return fmt_num(value);
}

std::string counted(double count, const char* one, const char* many) {
  const auto n = static_cast<int64_t>(count);
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace sollens::verdict
