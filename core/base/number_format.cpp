#include "base/number_format.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace sollens {

namespace {

// The shortest round-trip digits of a finite, positive v and its decimal exponent.
struct ShortestDigits {
  char digits[24];
  int count = 0;
  int exponent = 0;
};

// "d.ddde±XX" (printf's %e or to_chars' scientific form) into digits and exponent,
// trailing zeros dropped.
void split_scientific(const char* s, ShortestDigits& out) {
  const char* e = std::strchr(s, 'e');
  out.count = 0;
  for (const char* p = s; p < e; ++p)
    if (*p != '.') out.digits[out.count++] = *p;
  while (out.count > 1 && out.digits[out.count - 1] == '0') --out.count;
  out.exponent = std::atoi(e + 1);
}

// With printf only: the fewest digits that read back to v. A p-digit rounding that
// round-trips stays valid with more digits (the closest (p+1)-digit decimal is at
// least as close), so the smallest working precision is found by bisection.
void shortest_by_search(double v, ShortestDigits& out) {
  char buf[40];
  int lo = 1, hi = 17;  // 17 significant digits always round-trip
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    std::snprintf(buf, sizeof buf, "%.*e", mid - 1, v);
    if (std::strtod(buf, nullptr) == v) hi = mid;
    else lo = mid + 1;
  }
  std::snprintf(buf, sizeof buf, "%.*e", lo - 1, v);
  split_scientific(buf, out);
}

void shortest_digits(double v, ShortestDigits& out) {
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
  // Shortest round-trip, ties to the closest: the digits Python's repr picks.
  char buf[40];
  const auto r = std::to_chars(buf, buf + sizeof buf - 1, v, std::chars_format::scientific);
  *r.ptr = '\0';
  split_scientific(buf, out);
#else
  shortest_by_search(v, out);  // Emscripten 3.1.6's libc++ has no floating-point to_chars
#endif
}

std::string layout(bool negative, const ShortestDigits& d) {
  std::string out = negative ? "-" : "";
  const std::string_view digits(d.digits, static_cast<size_t>(d.count));
  const int exponent = d.exponent;
  if (exponent < -4 || exponent >= 16) {
    out += digits[0];
    if (digits.size() > 1) {
      out += '.';
      out.append(digits.substr(1));
    }
    char exp[16];
    std::snprintf(exp, sizeof exp, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
    return out + exp;
  }
  if (exponent < 0) {
    out += "0.";
    out.append(static_cast<size_t>(-exponent - 1), '0');
    out.append(digits);
    return out;
  }
  const size_t int_digits = static_cast<size_t>(exponent) + 1;
  if (digits.size() <= int_digits) {
    out.append(digits);
    out.append(int_digits - digits.size(), '0');
    return out + ".0";
  }
  out.append(digits.substr(0, int_digits));
  out += '.';
  out.append(digits.substr(int_digits));
  return out;
}

std::string special(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return std::signbit(v) ? "-0.0" : "0.0";
}

}  // namespace

std::string format_python_float(double v) {
  if (std::isnan(v) || std::isinf(v) || v == 0) return special(v);
  ShortestDigits d;
  shortest_digits(std::fabs(v), d);
  return layout(std::signbit(v), d);
}

std::string format_python_float_by_search(double v) {
  if (std::isnan(v) || std::isinf(v) || v == 0) return special(v);
  ShortestDigits d;
  shortest_by_search(std::fabs(v), d);
  return layout(std::signbit(v), d);
}

void append_integer(std::string& out, int64_t value) {
  char digits[24];
  const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
  (void)ec;  // 24 characters hold every int64_t
  out.append(digits, end);
}

}  // namespace sollens
