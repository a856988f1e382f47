#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>

#include "base/number_format.h"

using sollens::format_python_float;

TEST_CASE("floats print as Python's repr does") {
  // Each expected string is what CPython's repr() prints for the value.
  CHECK(format_python_float(100.0) == "100.0");
  CHECK(format_python_float(0.0) == "0.0");
  CHECK(format_python_float(0.1) == "0.1");
  CHECK(format_python_float(0.0739968) == "0.0739968");
  CHECK(format_python_float(7.2192e-05) == "7.2192e-05");
  CHECK(format_python_float(1e-05) == "1e-05");
  CHECK(format_python_float(0.0001) == "0.0001");
  CHECK(format_python_float(1e16) == "1e+16");
  CHECK(format_python_float(1234567890123456.0) == "1234567890123456.0");
  CHECK(format_python_float(98.718017578125) == "98.718017578125");
  CHECK(format_python_float(5.8069411764705885) == "5.8069411764705885");
  CHECK(format_python_float(-2.5) == "-2.5");
  CHECK(format_python_float(1.123046875e-05) == "1.123046875e-05");
  CHECK(format_python_float(1.0 / 3.0) == "0.3333333333333333");
  CHECK(format_python_float(2.0 / 3.0) == "0.6666666666666666");
  CHECK(format_python_float(1e22) == "1e+22");
  CHECK(format_python_float(123456.789) == "123456.789");
}

TEST_CASE("the to_chars and the printf-search paths print the same digits") {
  // Doubles from every exponent range, with long and short shortest forms.
  uint64_t x = 0x9e3779b97f4a7c15ULL;
  for (int i = 0; i < 20000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    double v;
    if (i % 2) {
      uint64_t bits = x & 0x7fefffffffffffffULL;  // finite
      std::memcpy(&v, &bits, sizeof v);
    } else {
      v = static_cast<double>(x % 100000000) / 1000.0;  // Kineto-like µs values
    }
    INFO(sollens::format_python_float_by_search(v));
    REQUIRE(format_python_float(v) == sollens::format_python_float_by_search(v));
    REQUIRE(format_python_float(-v) == sollens::format_python_float_by_search(-v));
  }
}
