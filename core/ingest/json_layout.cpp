#include "ingest/json_layout.h"

#include <cstring>

namespace sollens::json_layout {

size_t skip_ws(std::string_view text, size_t pos) {
  while (pos < text.size() && is_ws(text[pos])) ++pos;
  return pos;
}

size_t skip_string(std::string_view text, size_t pos) {
  const char* d = text.data();
  size_t i = pos + 1;
  while (i < text.size()) {
    const void* hit = std::memchr(d + i, '"', text.size() - i);
    if (!hit) return npos;
    size_t q = static_cast<const char*>(hit) - d;
    size_t backslashes = 0;
    while (q - backslashes > pos + 1 && d[q - backslashes - 1] == '\\') ++backslashes;
    if (backslashes % 2 == 0) return q + 1;
    i = q + 1;
  }
  return npos;
}

size_t skip_value(std::string_view text, size_t pos) {
  if (pos >= text.size()) return npos;
  char c = text[pos];
  if (c == '"') return skip_string(text, pos);
  if (c != '{' && c != '[') {
    while (pos < text.size() && !is_ws(text[pos]) && text[pos] != ',' && text[pos] != '}' &&
           text[pos] != ']')
      ++pos;
    return pos;
  }
  size_t depth = 0;
  while (pos < text.size()) {
    c = text[pos];
    if (c == '"') {
      pos = skip_string(text, pos);
      if (pos == npos) return npos;
      continue;
    }
    if (c == '{' || c == '[') ++depth;
    if (c == '}' || c == ']') {
      if (--depth == 0) return pos + 1;
    }
    ++pos;
  }
  return npos;
}

std::optional<Member> find_member(std::string_view text, size_t open, std::string_view key) {
  size_t pos = open + 1;
  while (true) {
    pos = skip_ws(text, pos);
    if (pos >= text.size() || text[pos] != '"') return std::nullopt;
    size_t key_begin = pos;
    size_t key_end = skip_string(text, pos);
    if (key_end == npos) return std::nullopt;
    pos = skip_ws(text, key_end);
    if (pos >= text.size() || text[pos] != ':') return std::nullopt;
    pos = skip_ws(text, pos + 1);
    if (text.substr(key_begin + 1, key_end - key_begin - 2) == key)
      return Member{key_begin, pos};
    pos = skip_value(text, pos);
    if (pos == npos) return std::nullopt;
    pos = skip_ws(text, pos);
    if (pos >= text.size() || text[pos] != ',') return std::nullopt;
    ++pos;
  }
}

size_t next_event_boundary(std::string_view text, size_t from) {
  const char* d = text.data();
  // A '}' just before `from` (whitespace between) still makes a boundary at or after it.
  size_t back = from < text.size() ? from : text.size();
  while (back > 0 && is_ws(d[back - 1])) --back;
  size_t i = back > 0 && d[back - 1] == '}' ? back - 1 : from;
  while (i < text.size()) {
    const void* hit = std::memchr(d + i, '}', text.size() - i);
    if (!hit) return npos;
    size_t brace = static_cast<const char*>(hit) - d;
    size_t after = skip_ws(text, brace + 1);
    if (after < text.size() && text[after] == ',') return after;
    i = brace + 1;
  }
  return npos;
}

size_t scan_to_boundary(std::string_view text, size_t event_begin, size_t target) {
  long depth = 0;
  size_t i = event_begin;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '"') {
      i = skip_string(text, i);
      if (i == npos) return npos;
      continue;
    }
    if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (--depth < 0) return i;  // the array's own ']'
    } else if (c == ',' && depth == 0 && i >= target) {
      return i;
    }
    ++i;
  }
  return npos;
}

}  // namespace sollens::json_layout
