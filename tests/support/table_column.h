#pragma once
// A sheet's column by name for the unit tests: a missing column fails the test case
// there instead of crashing on a null pointer.
#include <catch2/catch.hpp>

#include <string_view>

#include "table/table.h"

namespace sollens::test {

inline const Column& col(const Table& t, std::string_view name) {
  const Column* c = t.find(name);
  REQUIRE(c != nullptr);
  return *c;
}

}  // namespace sollens::test
