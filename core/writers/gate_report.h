#pragma once
// The CI gate's results as people and CI servers read them: one console line per gate
// (sollens diff prints them) and a JUnit XML test suite, a test case per gate.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "analyses/diff/gate.h"

namespace sollens {

enum class GateVerdict { kWithin, kRegression, kNotEvaluated };

// A figure in a gate's line: "–" when absent, ±inf, whole numbers from 10⁴ up, else 4
// significant digits.
std::string gate_figure(std::optional<double> v);
// The change with its sign and unit: "+25%", "-3.2".
std::string gate_change(const GateResult& result);

// "ok    EXPR  (base → new, change +x%)", "FAIL  …" or "ERROR EXPR: why".
std::string gate_line(const GateResult& result);

void write_gate_junit(std::ostream& out, const std::vector<GateResult>& results);

}  // namespace sollens
