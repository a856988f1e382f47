#include "analyses/cycles/signature.h"

#include <array>

namespace sollens {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// ^\d+x\d+$ with exactly one 'x'.
bool is_tile_shape(std::string_view s) {
  const size_t x = s.find('x');
  if (x == std::string_view::npos || x == 0 || x + 1 == s.size()) return false;
  for (size_t i = 0; i < s.size(); ++i)
    if (i != x && !is_digit(s[i])) return false;
  return true;
}

}  // namespace

uint64_t fnv1a64(std::string_view text) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string kernel_signature(std::string_view name) {
  std::string_view s = name;
  // 1. template arguments
  if (const size_t lt = s.find('<'); lt != std::string_view::npos && lt > 0) s = s.substr(0, lt);
  // 2. configuration suffixes, in this order, each at its first occurrence
  static constexpr std::array<std::string_view, 12> kConfig = {
      "_GROUP_K_",       "_GROUP_N_",    "_GROUP_SIZE_",   "_BLOCK_SIZE_",
      "_SPLITK_BLOCK_SIZE_", "_NUM_KSPLIT_", "_ACTUAL_KSPLIT_", "_MAX_KSPLIT_",
      "_GRID_MN_",       "_GRID_",       "_EVEN_K_",       "_cache_modifier_"};
  for (std::string_view marker : kConfig)
    if (const size_t at = s.find(marker); at != std::string_view::npos && at > 0)
      s = s.substr(0, at);
  // 3. the rightmost "_<digits>x<digits>" remainder
  for (size_t i = s.size(); i-- > 0;) {
    if (s[i] != '_') continue;
    if (is_tile_shape(s.substr(i + 1))) {
      s = s.substr(0, i);
      break;
    }
  }
  // 4. variant suffixes, each at its last occurrence
  static constexpr std::array<std::string_view, 5> kVariant = {"_1tg_ps", "_1tg", "_ps", "_novs",
                                                               "_vs"};
  for (std::string_view marker : kVariant)
    if (const size_t at = s.rfind(marker); at != std::string_view::npos && at > 0)
      s = s.substr(0, at);
  // 5. trailing "_<one digit>", repeatedly ("_12" stays)
  while (s.size() >= 2 && is_digit(s.back()) && s[s.size() - 2] == '_') s.remove_suffix(2);
  // 6. trailing underscores; too short → a hashed placeholder
  while (!s.empty() && s.back() == '_') s.remove_suffix(1);
  if (s.size() < 3) return "other_" + std::to_string(fnv1a64(name) % 1000);
  return std::string(s);
}

std::string normalize_kernel_name(std::string_view name) {
  if (!name.starts_with("triton_")) return std::string(name);
  size_t end = name.size();
  while (end > 0 && is_digit(name[end - 1])) --end;
  if (end < name.size() && end > 0 && name[end - 1] == '_') return std::string(name.substr(0, end - 1));
  return std::string(name);
}

}  // namespace sollens
