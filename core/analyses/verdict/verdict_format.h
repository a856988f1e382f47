#pragma once
// Numbers as the verdict's words write them: three significant digits, no exponent.
#include <string>

namespace sollens::verdict {

std::string fmt_num(double value);  // 17.1, 0.518, 516, 1234
std::string fmt_pct(double value);  // 94, 3.1, 0.05
// A count and its noun: "1 launch", "17 launches".
std::string counted(double count, const char* one, const char* many);

}  // namespace sollens::verdict
