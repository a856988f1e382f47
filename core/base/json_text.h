#pragma once
// The one JSON string escape (writers/json_builder.h writes JSON with it) and the one
// whitespace rule raw JSON tokens need. No parsing here; simdjson reads JSON.
#include <string>
#include <string_view>

namespace sollens {

// With the quotes; ", \ and control characters escaped, other UTF-8 passed through.
std::string json_string(std::string_view text);

// A raw JSON token (as simdjson hands it out) without the whitespace after it.
// Inline: called for every raw arg token read.
inline std::string_view trim_json_token(std::string_view token) {
  while (!token.empty() && (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' || token.back() == '\t'))
    token.remove_suffix(1);
  return token;
}

}  // namespace sollens
