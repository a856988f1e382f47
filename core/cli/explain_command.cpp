// sollens explain: the diagnostics catalogue (base/diagnostics.def) for the person
// who met a code: one entry, the list, or all of it as Markdown (DIAGNOSTICS.md) or JSON.
#include <algorithm>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "base/diagnostics.h"
#include "cli/commands.h"
#include "cli/diagnostic_lines.h"
#include "writers/diagnostics_catalogue.h"

namespace sollens::cli {

namespace {

enum class ExplainFormat { kText, kJson, kMarkdown };

struct ExplainArgs {
  ExplainFormat format = ExplainFormat::kText;
  std::string id;  // the code as typed; "" for every entry
};

// Levenshtein distance: how many one-letter edits turn a into b.
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The ids a mistyped code most likely meant: those that contain it or that it contains,
// else the closest by edits (at most a third of the word changed), up to three.
std::vector<std::string_view> nearest_ids(std::string_view typed) {
  std::vector<std::pair<size_t, std::string_view>> ranked;
  for (const DiagnosticEntry& entry : diagnostic_catalogue()) {
    const bool overlaps = entry.id.find(typed) != std::string_view::npos || typed.find(entry.id) != std::string_view::npos;
    const size_t distance = overlaps ? 0 : edit_distance(typed, entry.id);
    if (distance <= std::max<size_t>(2, typed.size() / 3)) ranked.emplace_back(distance, entry.id);
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string_view> ids;
  for (size_t i = 0; i < ranked.size() && i < 3; ++i) ids.push_back(ranked[i].second);
  return ids;
}

std::optional<ExplainArgs> parse_explain_args(const std::vector<std::string>& args) {
  ExplainArgs parsed;
  for (const std::string& arg : args) {
    if (arg == "--json") parsed.format = ExplainFormat::kJson;
    else if (arg == "--markdown") parsed.format = ExplainFormat::kMarkdown;
    else if (arg.starts_with("-")) {
      print_error(Status(Code::unknown_option, "unknown option '" + arg + "' (try: sollens explain --help)"));
      return std::nullopt;
    } else if (!parsed.id.empty()) {
      print_error(Status(Code::too_many_inputs, "sollens explain takes one code at a time ('" + parsed.id + "', then '" +
                                                    arg + "')"));
      return std::nullopt;
    } else {
      parsed.id = arg;
    }
  }
  if (parsed.format == ExplainFormat::kMarkdown && !parsed.id.empty()) {
    print_error(Status(Code::conflicting_options, "--markdown writes the whole catalogue; leave out the code"));
    return std::nullopt;
  }
  return parsed;
}

int explain_unknown(std::string_view typed) {
  std::string message = "no diagnostic has the code '" + std::string(typed) + "'";
  const std::vector<std::string_view> near = nearest_ids(typed);
  for (size_t i = 0; i < near.size(); ++i) message += std::string(i ? ", " : "; did you mean ") + std::string(near[i]);
  message += near.empty() ? " (sollens explain lists every code)" : "?";
  print_error(Status(Code::unknown_diagnostic_code, std::move(message)));
  return 2;
}

}  // namespace

std::string explain_options_usage() {
  return "  CODE          the diagnostic to explain (leave out to list them all)\n"
         "  --json        as JSON: the entry, or every entry in an array\n"
         "  --markdown    every entry as a Markdown table (DIAGNOSTICS.md is this)\n";
}

int run_explain(const std::vector<std::string>& args) {
  const std::optional<ExplainArgs> parsed = parse_explain_args(args);
  if (!parsed) return 2;
  const auto catalogue = diagnostic_catalogue();
  if (parsed->id.empty()) {
    switch (parsed->format) {
      case ExplainFormat::kMarkdown: std::cout << diagnostics_markdown(catalogue); break;
      case ExplainFormat::kJson: std::cout << diagnostics_catalogue_json(catalogue) << "\n"; break;
      case ExplainFormat::kText: std::cout << diagnostic_list_text(catalogue); break;
    }
    return 0;
  }
  const std::optional<Code> code = code_named(parsed->id);
  if (!code) return explain_unknown(parsed->id);
  const DiagnosticEntry& entry = describe(*code);
  std::cout << (parsed->format == ExplainFormat::kJson ? diagnostic_entry_json(entry) + "\n"
                                                       : diagnostic_entry_text(entry));
  return 0;
}

}  // namespace sollens::cli
