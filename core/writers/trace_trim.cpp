#include "writers/trace_trim.h"

#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "writers/trace_text.h"

namespace sollens {
namespace {

using trace_text::EventsArray;
using trace_text::find_events_array;
using trace_text::is_space;
using trace_text::kNotFound;
using trace_text::skip_space;
using trace_text::skip_string;
using trace_text::value_end;

// The fields of one event the range is decided on (top-level keys only: an args key
// of the same name is not read).
struct EventFields {
  std::string_view ph;
  std::optional<double> ts;
  double dur = 0;
  std::string_view id, cat;
};

// A number's text (or a string holding one) as strtod reads it (the wasm build's
// library has no floating-point from_chars); nullopt when it is not one.
std::optional<double> number_at(std::string_view v) {
  if (!v.empty() && v.front() == '"') v = v.substr(1, v.size() >= 2 ? v.size() - 2 : 0);
  char text[64];
  if (v.empty() || v.size() >= sizeof text) return std::nullopt;
  std::memcpy(text, v.data(), v.size());
  text[v.size()] = '\0';
  char* end = nullptr;
  const double x = std::strtod(text, &end);
  if (end != text + v.size()) return std::nullopt;
  return x;
}

EventFields read_fields(std::string_view e) {
  EventFields f;
  if (e.empty() || e.front() != '{') return f;
  for (size_t i = 1;;) {
    i = skip_space(e, i);
    if (i >= e.size() || e[i] != '"') return f;
    const size_t key_end = skip_string(e, i);
    if (key_end == kNotFound) return f;
    const std::string_view key = e.substr(i + 1, key_end - i - 2);
    i = skip_space(e, key_end);
    if (i >= e.size() || e[i] != ':') return f;
    i = skip_space(e, i + 1);
    const size_t end = value_end(e, i);
    if (end == kNotFound) return f;
    std::string_view value = e.substr(i, end - i);
    while (!value.empty() && is_space(value.back())) value.remove_suffix(1);
    if (key == "ph") f.ph = value;
    else if (key == "ts") f.ts = number_at(value);
    else if (key == "dur") f.dur = number_at(value).value_or(0);
    else if (key == "id") f.id = value;
    else if (key == "cat") f.cat = value;
    i = skip_space(e, end);
    if (i >= e.size() || e[i] != ',') return f;
    ++i;
  }
}

bool is_flow(std::string_view ph) { return ph == "\"s\"" || ph == "\"t\"" || ph == "\"f\""; }

// Calls fn(text, fields) for each element of the array whose '[' is at `open` and ']'
// at `close`; false when the array is not well formed.
template <class Fn>
bool for_each_element(std::string_view s, size_t open, size_t close, Fn&& fn) {
  for (size_t i = skip_space(s, open + 1); i < close;) {
    const size_t end = value_end(s, i);
    if (end == kNotFound || end > close) return false;
    const std::string_view text = s.substr(i, end - i);
    fn(text, read_fields(text));
    i = skip_space(s, end);
    if (i < close && s[i] == ',') i = skip_space(s, i + 1);
  }
  return true;
}

bool inside(const EventFields& f, double start, double end) { return f.ts && *f.ts >= start && *f.ts <= end; }

bool keep(const EventFields& f, double start, double end) {
  if (f.ph == "\"M\"" || !f.ts) return true;
  if (f.ph == "\"X\"") return *f.ts <= end && *f.ts + f.dur >= start;
  return inside(f, start, end);
}

std::string flow_key(const EventFields& f) {
  std::string key(f.cat);
  key += '\x1f';
  key += f.id;
  return key;
}

}  // namespace

bool write_trimmed_trace(std::string_view s, double start, double end, std::ostream& out, TrimCounts* counts) {
  const std::optional<EventsArray> array = find_events_array(s);
  if (!array) return false;
  // A flow is kept whole or not at all: every event of its id inside the range.
  std::unordered_map<std::string, bool> flow_inside;
  size_t read = 0;
  const bool well_formed = for_each_element(s, array->open, array->close, [&](std::string_view, const EventFields& f) {
    ++read;
    if (!is_flow(f.ph)) return;
    auto [it, added] = flow_inside.try_emplace(flow_key(f), true);
    it->second = it->second && inside(f, start, end);
  });
  if (!well_formed) return false;
  out << s.substr(0, array->open + 1);
  size_t kept = 0;
  for_each_element(s, array->open, array->close, [&](std::string_view text, const EventFields& f) {
    if (!(is_flow(f.ph) ? flow_inside[flow_key(f)] : keep(f, start, end))) return;
    out << (kept ? ",\n" : "\n") << text;
    ++kept;
  });
  out << (kept ? "\n" : "") << s.substr(array->close);
  if (counts) *counts = {read, kept};
  return true;
}

}  // namespace sollens
