// RowMap: sparse row → value, -1 where a row has none; checked against a plain vector.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "model/row_map.h"

using namespace sollens;

TEST_CASE("row map: empty, absent rows and rows past the end read -1", "[model][row_map]") {
  const RowMap empty;
  CHECK(empty[0] == -1);
  const RowMap m = RowMap::from_pairs(200, {{3, 7}, {64, 0}, {199, -5}});
  CHECK(m.rows() == 200);
  CHECK(m.values() == 3);
  CHECK(m[3] == 7);
  CHECK(m[64] == 0);
  CHECK(m[199] == -5);
  CHECK(m[0] == -1);
  CHECK(m[63] == -1);
  CHECK(m[65] == -1);
  CHECK(m[200] == -1);
  CHECK(m[1000000] == -1);
}

TEST_CASE("row map: pairs in any order, the later of a row's pairs wins, as a vector written in that order",
          "[model][row_map]") {
  std::mt19937 rng(7);
  for (size_t rows : {size_t(1), size_t(63), size_t(64), size_t(65), size_t(1000), size_t(4099)}) {
    INFO("rows " << rows);
    std::vector<int32_t> dense(rows, -1);
    std::vector<std::pair<uint32_t, int32_t>> pairs;
    for (size_t k = 0; k < rows / 3 + 2; ++k) {
      const uint32_t row = static_cast<uint32_t>(rng() % rows);
      const int32_t value = static_cast<int32_t>(rng() % 1000);
      pairs.emplace_back(row, value);
      dense[row] = value;
    }
    const RowMap m = RowMap::from_pairs(rows, pairs);
    for (size_t r = 0; r < rows; ++r) REQUIRE(m[r] == dense[r]);
    std::vector<std::pair<uint32_t, int32_t>> seen;
    m.for_each([&](uint32_t row, int32_t value) { seen.emplace_back(row, value); });
    std::vector<std::pair<uint32_t, int32_t>> expected;
    for (size_t r = 0; r < rows; ++r)
      if (dense[r] != -1) expected.emplace_back(static_cast<uint32_t>(r), dense[r]);
    CHECK(seen == expected);
  }
}
