// same_bytes against std::string_view's == on every length to 40, with the one
// differing byte at every place (the overlapping tail loads must see each).
#include <catch2/catch.hpp>

#include <string>

#include "base/same_bytes.h"

using sollens::same_bytes;

TEST_CASE("same_bytes: equal texts, and one differing byte anywhere") {
  for (size_t n = 0; n <= 40; ++n) {
    std::string a(n, 'x'), b(n + 3, 'x');
    for (size_t i = 0; i < n; ++i) a[i] = b[i + 3] = char('a' + i % 26);
    const std::string_view left(a), right(b.data() + 3, n);  // unaligned the one to the other
    INFO("length " << n);
    CHECK(same_bytes(left, right));
    for (size_t at = 0; at < n; ++at) {
      std::string c(a);
      c[at] = char(c[at] ^ 0x20);
      INFO("differs at " << at);
      CHECK_FALSE(same_bytes(std::string_view(c), right));
    }
  }
  CHECK_FALSE(same_bytes("abc", "abcd"));
  CHECK(same_bytes(std::string_view(), std::string_view("", 0)));
}
