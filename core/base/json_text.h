#pragma once
// JSON text for values every layer writes: a string literal with its escapes and an
// object from (key, JSON text) members; and the one whitespace rule raw JSON
// tokens need. No parsing here; simdjson reads JSON.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sollens {

// With the quotes; ", \ and control characters escaped, other UTF-8 passed through.
std::string json_string(std::string_view text);

using JsonMembers = std::vector<std::pair<std::string, std::string>>;  // key, JSON text

// An object from members ("{}" when empty).
std::string json_object(const JsonMembers& members);

// A raw JSON token (as simdjson hands it out) without the whitespace after it.
// Inline: called for every raw arg token read.
inline std::string_view trim_json_token(std::string_view token) {
  while (!token.empty() && (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' || token.back() == '\t'))
    token.remove_suffix(1);
  return token;
}

}  // namespace sollens
