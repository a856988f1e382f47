#pragma once
// Numbers written the way Python's repr writes floats (what TraceLens's pandas CSVs
// contain): shortest round-trip digits, exponent form below 1e-4 or from 1e16 on,
// and a ".0" on integral values.
#include <cstdint>
#include <string>

namespace sollens {

std::string format_python_float(double value);

// An integer's decimal digits appended to `out` (the writers' rows, without a string each).
void append_integer(std::string& out, int64_t value);

// The same text found with printf/strtod only (what builds without floating-point
// std::to_chars use); exposed so tests can hold the two paths to each other.
std::string format_python_float_by_search(double value);

}  // namespace sollens
