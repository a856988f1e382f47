#pragma once
// Whether two texts hold the same bytes, eight at a time. Emscripten's libc memcmp,
// which std::string_view's == calls, compares one byte at a time unless both texts
// start on a 4-byte boundary (rare for names inside JSON): the string pool's and the
// event decoder's comparisons of kernel names took 7% of the page's parse so.
#include <cstdint>
#include <cstring>
#include <string_view>

namespace sollens {

namespace same_bytes_detail {
inline uint64_t word(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}
inline uint32_t half(const char* p) {
  uint32_t w;
  std::memcpy(&w, p, 4);
  return w;
}
}  // namespace same_bytes_detail

inline bool same_bytes(std::string_view a, std::string_view b) {
  using namespace same_bytes_detail;
  const size_t n = a.size();
  if (n != b.size()) return false;
  const char *p = a.data(), *q = b.data();
  if (n >= 8) {
    for (size_t i = 0; i + 8 <= n; i += 8)
      if (word(p + i) != word(q + i)) return false;
    return word(p + n - 8) == word(q + n - 8);  // the last 0-7 bytes, overlapping
  }
  if (n >= 4) return half(p) == half(q) && half(p + n - 4) == half(q + n - 4);
  for (size_t i = 0; i < n; ++i)
    if (p[i] != q[i]) return false;
  return true;
}

}  // namespace sollens
