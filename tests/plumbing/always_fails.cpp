// Deliberately failing test: ctest's *_exit_code_plumbing entry checks that it
// exits non-zero and that Catch reported the failure (see tests/CMakeLists.txt).
#include <catch2/catch.hpp>

TEST_CASE("exit-code plumbing: this test must fail", "[plumbing]") {
  REQUIRE(1 == 2);
}
