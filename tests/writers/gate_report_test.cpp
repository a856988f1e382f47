// The gate's console lines and JUnit XML, written by hand below.
#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>

#include "writers/gate_report.h"

using namespace sollens;

namespace {

GateResult result(const std::string& text, double base, double var, double change, bool failed) {
  GateResult r;
  r.expr.text = text;
  r.expr.percent = true;
  r.baseline = base;
  r.variant = var;
  r.change = change;
  r.failed = failed;
  return r;
}

GateResult unevaluated(const std::string& text, const std::string& why) {
  GateResult r;
  r.expr.text = text;
  r.error = Status(Code::gate_not_evaluable, why);
  return r;
}

}  // namespace

TEST_CASE("gate report: figures, changes and lines") {
  CHECK(gate_figure(std::nullopt) == "–");
  CHECK(gate_figure(INFINITY) == "+inf");
  CHECK(gate_figure(-INFINITY) == "-inf");
  CHECK(gate_figure(12345.6) == "12346");  // whole from 10⁴ up
  CHECK(gate_figure(1.0 / 3) == "0.3333");
  CHECK(gate_change(result("x", 10, 12.5, 25, true)) == "+25%");
  CHECK(gate_change(result("x", 10, 9, -10, false)) == "-10%");
  CHECK(gate_line(result("total time > +10%", 10, 12.5, 25, true)) ==
        "FAIL  total time > +10%  (10 → 12.5, change +25%)");
  CHECK(gate_line(result("total time > +30%", 10, 12.5, 25, false)) ==
        "ok    total time > +30%  (10 → 12.5, change +25%)");
  CHECK(gate_line(unevaluated("op x time > 1%", "'x' is in neither run")) == "ERROR op x time > 1%: 'x' is in neither run");
}

TEST_CASE("gate report: JUnit, a test case per gate, names escaped") {
  std::ostringstream out;
  write_gate_junit(out, {result("a < \"b\"", 1, 2, 100, true), result("ok", 1, 1, 0, false),
                         unevaluated("c & d", "none")});
  CHECK(out.str() ==
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<testsuite name=\"sollens diff\" tests=\"3\" failures=\"1\" errors=\"1\">\n"
        "  <testcase classname=\"sollens.diff\" name=\"a &lt; &quot;b&quot;\">\n"
        "    <failure message=\"FAIL  a &lt; &quot;b&quot;  (1 → 2, change +100%)\"/>\n"
        "  </testcase>\n"
        "  <testcase classname=\"sollens.diff\" name=\"ok\"/>\n"
        "  <testcase classname=\"sollens.diff\" name=\"c &amp; d\">\n"
        "    <error message=\"none\"/>\n"
        "  </testcase>\n"
        "</testsuite>\n");
}
