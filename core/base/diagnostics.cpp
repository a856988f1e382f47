#include "base/diagnostics.h"

namespace sollens {
namespace {

constexpr DiagnosticEntry kEntries[] = {
#define SOLLENS_DIAGNOSTIC(id, severity, meaning, action) {Code::id, #id, Severity::severity, meaning, action},
#include "base/diagnostics.def"
#undef SOLLENS_DIAGNOSTIC
};

constexpr DiagnosticEntry kOkEntry{Code::ok, "ok", Severity::Note, "Success.", "None needed."};

// The enum and the table come from the same list, so entry i has code i + 1.
constexpr bool table_in_code_order() {
  for (size_t i = 0; i < std::size(kEntries); ++i)
    if (static_cast<size_t>(kEntries[i].code) != i + 1) return false;
  return true;
}
static_assert(table_in_code_order());

}  // namespace

std::span<const DiagnosticEntry> diagnostic_catalogue() { return kEntries; }

const DiagnosticEntry& describe(Code code) {
  const size_t index = static_cast<size_t>(code);
  if (index == 0 || index > std::size(kEntries)) return kOkEntry;
  return kEntries[index - 1];
}

std::optional<Code> code_named(std::string_view id) {
  for (const auto& entry : kEntries)
    if (entry.id == id) return entry.code;
  return std::nullopt;
}

std::string_view severity_name(Severity severity) {
  switch (severity) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "note";
}

}  // namespace sollens
