#include "writers/gate_report.h"

#include <cmath>
#include <cstdio>

namespace sollens {

namespace {

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

std::string gate_figure(std::optional<double> v) {
  if (!v) return "–";
  if (std::isinf(*v)) return *v > 0 ? "+inf" : "-inf";
  char buf[48];
  std::snprintf(buf, sizeof buf, std::fabs(*v) >= 1e4 ? "%.0f" : "%.4g", *v);
  return buf;
}

std::string gate_change(const GateResult& result) {
  std::string s = gate_figure(result.change);
  if (result.change > 0 && s[0] != '+') s = "+" + s;
  return s + (result.expr.percent ? "%" : "");
}

std::string gate_line(const GateResult& result) {
  if (!result.error.ok()) return "ERROR " + result.expr.text + ": " + result.error.message();
  return std::string(result.failed ? "FAIL  " : "ok    ") + result.expr.text + "  (" + gate_figure(result.baseline) +
         " → " + gate_figure(result.variant) + ", change " + gate_change(result) + ")";
}

void write_gate_junit(std::ostream& out, const std::vector<GateResult>& results) {
  size_t failures = 0, errors = 0;
  for (const GateResult& r : results) {
    errors += !r.error.ok();
    failures += r.error.ok() && r.failed;
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"sollens diff\" tests=\"" << results.size()
      << "\" failures=\"" << failures << "\" errors=\"" << errors << "\">\n";
  for (const GateResult& r : results) {
    out << "  <testcase classname=\"sollens.diff\" name=\"" << xml_escape(r.expr.text) << "\"";
    if (!r.error.ok()) out << ">\n    <error message=\"" << xml_escape(r.error.message()) << "\"/>\n  </testcase>\n";
    else if (r.failed) out << ">\n    <failure message=\"" << xml_escape(gate_line(r)) << "\"/>\n  </testcase>\n";
    else out << "/>\n";
  }
  out << "</testsuite>\n";
}

}  // namespace sollens
