// The words SOL gives a user for an op it cannot estimate: no empty quotes where the
// model knows no data type for the op.
#include <catch2/catch.hpp>

#include <string>

#include "analyses/sol/sol_ops.h"
#include "devices/device_db.h"

using namespace sollens;

TEST_CASE("sol messages: an op whose data type maps to no peak says so in words", "[sol][messages]") {
  const DeviceSpec* h100 = find_device("H100_SXM5_80GB");
  REQUIRE(h100 != nullptr);
  // 1 GFLOP and 1 MB: work the estimate needs a compute peak for, of no known type.
  const RooflineEstimate r = roofline_estimate(1e9, 1e6, "", *h100, 1.0);
  CHECK_FALSE(r.ok);
  CHECK(r.why_not == "no dense peak for this op's data type on H100_SXM5_80GB: the model maps it to no "
                     "compute peak (an integer or unknown type)");
  CHECK(r.why_not.find("''") == std::string::npos);
}

TEST_CASE("sol messages: a named data type without a dense peak is named", "[sol][messages]") {
  const DeviceSpec* h100 = find_device("H100_SXM5_80GB");
  REQUIRE(h100 != nullptr);
  const RooflineEstimate r = roofline_estimate(1e9, 1e6, "no_such_unit", *h100, 1.0);
  CHECK_FALSE(r.ok);
  CHECK(r.why_not == "no dense no_such_unit peak on H100_SXM5_80GB");
}
