#pragma once
// The diagnostics catalogue (base/diagnostics.def) as data: each code's id, severity,
// meaning and what the user can do, for `sollens explain`, the page's notices and the
// README's table; and counts of the diagnostics a run emitted.
#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace sollens {

struct DiagnosticEntry {
  Code code;
  std::string_view id;
  Severity severity;
  std::string_view meaning;
  std::string_view action;
};

// Every entry, in catalogue order (Code::ok is not one).
std::span<const DiagnosticEntry> diagnostic_catalogue();
const DiagnosticEntry& describe(Code code);  // Code::ok: an entry with id "ok"
std::optional<Code> code_named(std::string_view id);
std::string_view severity_name(Severity severity);  // "error", "warning", "note"
inline std::string_view code_id(Code code) { return describe(code).id; }

}  // namespace sollens
