#include "writers/trace_text.h"

namespace sollens::trace_text {

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

size_t skip_space(std::string_view s, size_t i) {
  while (i < s.size() && is_space(s[i])) ++i;
  return i;
}

size_t skip_string(std::string_view s, size_t i) {
  for (++i; i < s.size(); ++i) {
    if (s[i] == '\\') ++i;
    else if (s[i] == '"') return i + 1;
  }
  return kNotFound;
}

size_t matching_bracket(std::string_view s, size_t i) {
  int depth = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '"') {
      i = skip_string(s, i);
      if (i == kNotFound) return kNotFound;
      continue;
    }
    if (c == '[' || c == '{') ++depth;
    if ((c == ']' || c == '}') && --depth == 0) return i;
    ++i;
  }
  return kNotFound;
}

size_t value_end(std::string_view s, size_t i) {
  if (i >= s.size()) return kNotFound;
  if (s[i] == '"') return skip_string(s, i);
  if (s[i] == '[' || s[i] == '{') {
    const size_t close = matching_bracket(s, i);
    return close == kNotFound ? kNotFound : close + 1;
  }
  const size_t end = s.find_first_of(",}]", i);
  return end == kNotFound ? s.size() : end;
}

namespace {

std::optional<EventsArray> trace_events_member(std::string_view s, size_t i) {
  for (++i;;) {
    i = skip_space(s, i);
    if (i >= s.size() || s[i] != '"') return std::nullopt;
    const size_t key_end = skip_string(s, i);
    if (key_end == kNotFound) return std::nullopt;
    const bool wanted = s.substr(i, key_end - i) == "\"traceEvents\"";
    i = skip_space(s, key_end);
    if (i >= s.size() || s[i] != ':') return std::nullopt;
    i = skip_space(s, i + 1);
    const size_t end = value_end(s, i);
    if (end == kNotFound) return std::nullopt;
    if (wanted && s[i] == '[') return EventsArray{i, end - 1};
    i = skip_space(s, end);
    if (i >= s.size() || s[i] != ',') return std::nullopt;
    ++i;
  }
}

}  // namespace

std::optional<EventsArray> find_events_array(std::string_view s) {
  const size_t start = skip_space(s, 0);
  if (start >= s.size()) return std::nullopt;
  if (s[start] == '{') return trace_events_member(s, start);
  if (s[start] != '[') return std::nullopt;
  const size_t close = matching_bracket(s, start);
  if (close == kNotFound) return std::nullopt;
  return EventsArray{start, close};
}

}  // namespace sollens::trace_text
