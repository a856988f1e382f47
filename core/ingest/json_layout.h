#pragma once
// Small, string-aware scans over raw JSON text: finding the traceEvents member of
// the top-level object without parsing the whole document, and candidate places
// to cut the events array into windows.
#include <cstddef>
#include <optional>
#include <string_view>

namespace sollens::json_layout {

inline constexpr size_t npos = static_cast<size_t>(-1);

inline bool is_ws(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

size_t skip_ws(std::string_view text, size_t pos);
// pos at an opening quote; returns the index just past the closing quote, or npos.
size_t skip_string(std::string_view text, size_t pos);
// pos at the first character of a value; returns the index just past it, or npos.
size_t skip_value(std::string_view text, size_t pos);

struct Member {
  size_t key_begin;    // the key's opening quote
  size_t value_begin;  // first character of the value
};
// Finds `key` among the members of the object whose '{' is at `open`.
std::optional<Member> find_member(std::string_view text, size_t open, std::string_view key);

// First index >= from of a ',' that follows a '}' (whitespace allowed between):
// a place where one event of the array may end and the next begin. npos if none.
size_t next_event_boundary(std::string_view text, size_t from);

// Exact version, by a string-aware depth scan from `event_begin` (the first character
// of an element of the array): the first ',' between elements at or after `target`,
// else the array's closing ']', else npos when the input ends first.
size_t scan_to_boundary(std::string_view text, size_t event_begin, size_t target);

}  // namespace sollens::json_layout
