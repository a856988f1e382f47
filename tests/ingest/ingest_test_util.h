#pragma once
// Helpers shared by the ingest tests (header only; not a test translation unit).
#include <string>
#include <string_view>

#include "base/diagnostics.h"
#include "ingest/trace_reader.h"

namespace sollens::test {

inline const size_t kDefaultWindow = IngestOptions{}.window_bytes;

inline Result<std::unique_ptr<EventStore>> load(std::string_view text, size_t window_bytes = kDefaultWindow) {
  IngestOptions options;
  options.window_bytes = window_bytes;
  return load_trace(PaddedBuffer::copy_of(text), options);
}

// By the code's id ("truncated"), the name scripts and the page test for.
inline bool has_warning(const EventStore& store, std::string_view code) {
  for (const auto& w : store.warnings)
    if (code_id(w.code) == code) return true;
  return false;
}

inline const Diagnostic* find_warning(const EventStore& store, std::string_view code) {
  for (const auto& w : store.warnings)
    if (code_id(w.code) == code) return &w;
  return nullptr;
}

// "code: message; code: message" for INFO() output.
inline std::string warning_list(const EventStore& store) {
  std::string s;
  for (const auto& w : store.warnings) {
    if (!s.empty()) s += "; ";
    s += std::string(code_id(w.code)) + ": " + w.message;
  }
  return s.empty() ? "(no warnings)" : s;
}

}  // namespace sollens::test
