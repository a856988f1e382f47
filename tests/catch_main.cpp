// The one translation unit that compiles Catch2's runner and main(); built once
// as an object library (tests/CMakeLists.txt) and linked into every test binary.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
