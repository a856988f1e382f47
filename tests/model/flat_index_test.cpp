// FlatIndex: the tree's link indexes (last insert wins, absent keys, growth).
#include <catch2/catch.hpp>

#include "model/flat_index.h"

using sollens::FlatIndex;
using sollens::IdHash;

TEST_CASE("FlatIndex keeps the last value per key through growth", "[model]") {
  FlatIndex<int64_t, IdHash> index;  // starts at 16 slots: 5000 keys force rehashes
  for (int64_t k = 0; k < 5000; ++k) index.insert_or_assign(k * 1024, static_cast<uint32_t>(k));
  index.insert_or_assign(7 * 1024, 99);  // the last event for a key wins
  CHECK(*index.find(7 * 1024) == 99);
  CHECK(*index.find(4999 * 1024) == 4999);
  CHECK(*index.find(0) == 0);
  CHECK_FALSE(index.find(1));
  CHECK_FALSE(index.find(-1024));
}
