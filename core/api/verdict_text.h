#pragma once
// The verdict's headline of a report (analyses/verdict: "launch-bound: 94 % idle; …"),
// for a front end that prints it beside its summary.
#include <string>

namespace sollens {

struct Report;

// "" when the report has no verdict sheet.
std::string report_headline(const Report& report);

}  // namespace sollens
