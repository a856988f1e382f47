#pragma once
// Numbers written the way Python's repr writes floats (what TraceLens's pandas CSVs
// contain): shortest round-trip digits, exponent form below 1e-4 or from 1e16 on,
// and a ".0" on integral values.
#include <string>

namespace sollens {

std::string format_python_float(double value);

}  // namespace sollens
