#include "writers/trace_splice.h"

#include <cstddef>
#include <optional>

namespace sollens {

namespace {

constexpr size_t kNotFound = std::string_view::npos;

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

size_t skip_space(std::string_view s, size_t i) {
  while (i < s.size() && is_space(s[i])) ++i;
  return i;
}

// `i` at a string's opening quote: the index just past its closing quote.
size_t skip_string(std::string_view s, size_t i) {
  for (++i; i < s.size(); ++i) {
    if (s[i] == '\\') ++i;
    else if (s[i] == '"') return i + 1;
  }
  return kNotFound;
}

// `i` at '[' or '{': the index of its matching bracket, strings skipped.
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

struct EventsArray {
  size_t open;
  size_t close;
};

// The top-level object's "traceEvents" array, its keys walked one by one.
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
    if (i >= s.size()) return std::nullopt;
    size_t value_end;
    if (s[i] == '"') value_end = skip_string(s, i);
    else if (s[i] == '[' || s[i] == '{') value_end = matching_bracket(s, i) + 1;
    else value_end = s.find_first_of(",}", i);
    if (value_end == kNotFound || value_end == 0) return std::nullopt;
    if (wanted && s[i] == '[') return EventsArray{i, value_end - 1};
    i = skip_space(s, value_end);
    if (i >= s.size() || s[i] != ',') return std::nullopt;
    ++i;
  }
}

std::optional<EventsArray> find_events_array(std::string_view s) {
  const size_t start = skip_space(s, 0);
  if (start >= s.size()) return std::nullopt;
  if (s[start] == '{') return trace_events_member(s, start);
  if (s[start] != '[') return std::nullopt;
  const size_t close = matching_bracket(s, start);
  if (close == kNotFound) return std::nullopt;
  return EventsArray{start, close};
}

}  // namespace

bool write_trace_with_extra_events(std::string_view trace_json, const std::vector<std::string>& extra_events,
                                   std::ostream& out) {
  const std::optional<EventsArray> events = find_events_array(trace_json);
  if (!events) return false;
  bool any = skip_space(trace_json, events->open + 1) < events->close;
  out << trace_json.substr(0, events->close);
  for (const std::string& event : extra_events) {
    out << (any ? ",\n" : "\n") << event;
    any = true;
  }
  out << trace_json.substr(events->close);
  return true;
}

}  // namespace sollens
