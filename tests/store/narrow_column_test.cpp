// NarrowColumn: 64-bit ids in 32 bits while they fit, every value kept when one does not.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

#include "store/event_columns.h"
#include "store/narrow_column.h"

using namespace sollens;

namespace {
constexpr int64_t kLargestNarrow = int64_t(UINT32_MAX) - 2;  // value + 2 must fit in 32 bits
}

TEST_CASE("ids that fit stay narrow: absent, -1, 0 and 2^32 - 3 round-trip in 4 bytes a row",
          "[store][narrow_column]") {
  NarrowColumn<int64_t> c;
  for (int64_t v : {kNoValue, int64_t(-1), int64_t(0), int64_t(7), kLargestNarrow}) c.push_back(v);
  CHECK_FALSE(c.is_wide());
  REQUIRE(c.size() == 5);
  CHECK(c[0] == kNoValue);
  CHECK(c[1] == -1);
  CHECK(c[2] == 0);
  CHECK(c[3] == 7);
  CHECK(c[4] == kLargestNarrow);
  c.shrink_to_fit();
  CHECK(c.heap_bytes() == 5 * sizeof(uint32_t));
  CHECK(c.used_bytes() == 5 * sizeof(uint32_t));
}

TEST_CASE("the first value that does not fit widens the column and keeps every value before it",
          "[store][narrow_column]") {
  for (int64_t big : {kLargestNarrow + 1, int64_t(-2), std::numeric_limits<int64_t>::max(),
                      std::numeric_limits<int64_t>::min() + 1}) {
    INFO("value " << big);
    NarrowColumn<int64_t> c;
    c.push_back(3);
    c.push_back(kNoValue);
    c.push_back(big);
    c.push_back(4);
    CHECK(c.is_wide());
    REQUIRE(c.size() == 4);
    CHECK(c[0] == 3);
    CHECK(c[1] == kNoValue);
    CHECK(c[2] == big);
    CHECK(c[3] == 4);
    CHECK(c.used_bytes() == 4 * sizeof(int64_t));
  }
}

TEST_CASE("set widens too; resize fills with the absent value", "[store][narrow_column]") {
  NarrowColumn<int64_t> c;
  c.push_back(1);
  c.push_back(2);
  c.set(1, int64_t(1) << 40);
  CHECK(c.is_wide());
  CHECK(c[0] == 1);
  CHECK(c[1] == int64_t(1) << 40);
  c.resize(3);
  CHECK(c[2] == kNoValue);
  NarrowColumn<int64_t> narrow;
  narrow.resize(2);
  CHECK(narrow[1] == kNoValue);
  c.resize(1);
  CHECK(c.size() == 1);
}

TEST_CASE("unsigned offsets: 0 .. 2^32 - 1 narrow, 2^32 wide", "[store][narrow_column]") {
  NarrowColumn<uint64_t> c;
  c.push_back(0);
  c.push_back(UINT32_MAX);
  CHECK_FALSE(c.is_wide());
  CHECK(c[1] == UINT32_MAX);
  c.set(0, uint64_t(UINT32_MAX) + 1);
  CHECK(c.is_wide());
  CHECK(c[0] == uint64_t(UINT32_MAX) + 1);
  CHECK(c[1] == UINT32_MAX);
  c.resize(3);
  CHECK(c[2] == 0);
}

TEST_CASE("columns compare by value whatever their storage, and append across storages",
          "[store][narrow_column]") {
  NarrowColumn<int64_t> narrow, wide;
  narrow.push_back(5);
  wide.push_back(int64_t(1) << 40);
  wide.set(0, 5);  // wide storage holding a narrow value
  REQUIRE(wide.is_wide());
  CHECK(narrow == wide);

  NarrowColumn<int64_t> tail;
  tail.push_back(-7);  // does not fit: -1 is the least narrow value
  narrow.append(std::move(tail));
  CHECK(narrow.is_wide());
  REQUIRE(narrow.size() == 2);
  CHECK(narrow[0] == 5);
  CHECK(narrow[1] == -7);
  CHECK(tail.empty());

  NarrowColumn<int64_t> to, from;
  to.push_back(1);
  from.push_back(2);
  append_column(to, std::move(from));
  CHECK_FALSE(to.is_wide());
  CHECK(to[1] == 2);
  CHECK(from.empty());
}

TEST_CASE("append_column_bytes reads unaligned 64-bit values into either storage", "[store][narrow_column]") {
  const int64_t values[] = {9, kNoValue, int64_t(1) << 35};
  char bytes[sizeof values + 1];
  std::memcpy(bytes + 1, values, sizeof values);  // off by one byte: unaligned
  NarrowColumn<int64_t> c;
  append_column_bytes(c, bytes + 1, 3);
  REQUIRE(c.size() == 3);
  CHECK(c[0] == 9);
  CHECK(c[1] == kNoValue);
  CHECK(c[2] == int64_t(1) << 35);
}
