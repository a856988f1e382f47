#pragma once
// A Kineto trace's JSON text scanned byte by byte, without parsing it: the writers that
// write a trace again (trace_splice, trace_trim) keep every byte they do not change, so
// they find the traceEvents array and its elements by brackets and quotes alone.
#include <cstddef>
#include <optional>
#include <string_view>

namespace sollens::trace_text {

constexpr size_t kNotFound = std::string_view::npos;

bool is_space(char c);
size_t skip_space(std::string_view s, size_t i);
// `i` at a string's opening quote: the index just past its closing quote.
size_t skip_string(std::string_view s, size_t i);
// `i` at '[' or '{': the index of its matching bracket, strings skipped.
size_t matching_bracket(std::string_view s, size_t i);
// `i` at a value: the index just past it (a number or literal ends at ',', '}' or ']').
size_t value_end(std::string_view s, size_t i);

// The traceEvents array: the index of its '[' and of its ']'.
struct EventsArray {
  size_t open = 0;
  size_t close = 0;
};
// The top-level object's "traceEvents" array (its keys walked one by one), or the
// top-level array itself; nullopt when there is none or the text is not well formed.
std::optional<EventsArray> find_events_array(std::string_view s);

}  // namespace sollens::trace_text
