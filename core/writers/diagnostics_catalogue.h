#pragma once
// The diagnostics catalogue (base/diagnostics.def) for people and scripts: one entry or
// the whole list as console text (`sollens explain`), as a Markdown table
// (DIAGNOSTICS.md) and as JSON (`sollens explain --json`, the page's Diagnostics view).
#include <span>
#include <string>

#include "base/diagnostics.h"
#include "writers/json_builder.h"

namespace sollens {

// "truncated (warning)\n  <meaning>\n  What to do: <action>\n"
std::string diagnostic_entry_text(const DiagnosticEntry& entry);
// One line per entry: id, severity and meaning in aligned columns.
std::string diagnostic_list_text(std::span<const DiagnosticEntry> entries);
// The whole of DIAGNOSTICS.md: a line saying how it is generated, then one table row per entry.
std::string diagnostics_markdown(std::span<const DiagnosticEntry> entries);
// {"id", "severity", "meaning", "action"}
std::string diagnostic_entry_json(const DiagnosticEntry& entry,
                                  JsonBuilder::Spacing spacing = JsonBuilder::Spacing::kSpaced);
// [entry, ...] in catalogue order.
std::string diagnostics_catalogue_json(std::span<const DiagnosticEntry> entries,
                                       JsonBuilder::Spacing spacing = JsonBuilder::Spacing::kSpaced);

}  // namespace sollens
