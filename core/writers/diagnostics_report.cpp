#include "writers/diagnostics_report.h"

#include <array>
#include <cstdint>
#include <vector>

#include "base/diagnostics.h"

namespace sollens {

namespace {

constexpr std::array kSeverities{Severity::Error, Severity::Warning, Severity::Note};

struct Counts {
  std::vector<int64_t> by_code;  // indexed by Code
  std::array<int64_t, kSeverities.size()> by_severity{};
};

Counts count(std::span<const Diagnostic> diagnostics) {
  Counts counts;
  counts.by_code.assign(diagnostic_catalogue().size() + 1, 0);
  for (const Diagnostic& d : diagnostics) {
    ++counts.by_code[static_cast<size_t>(d.code)];
    ++counts.by_severity[static_cast<size_t>(describe(d.code).severity)];
  }
  return counts;
}

}  // namespace

std::string emitted_diagnostics_json(std::span<const Diagnostic> diagnostics, JsonBuilder::Spacing spacing) {
  const Counts counts = count(diagnostics);
  JsonBuilder json(spacing);
  json.begin_object().key("emitted").begin_array();
  for (const Diagnostic& d : diagnostics) {
    const DiagnosticEntry& entry = describe(d.code);
    json.begin_object()
        .member("code", entry.id)
        .member("severity", severity_name(entry.severity))
        .member("message", d.message)
        .end_object();
  }
  json.end_array().key("counts").begin_object();
  for (const DiagnosticEntry& entry : diagnostic_catalogue())
    json.member(entry.id, counts.by_code[static_cast<size_t>(entry.code)]);
  json.end_object().key("severity_counts").begin_object();
  for (Severity severity : kSeverities)
    json.member(severity_name(severity), counts.by_severity[static_cast<size_t>(severity)]);
  return json.end_object().end_object().take();
}

std::string diagnostics_counts_line(std::span<const Diagnostic> diagnostics) {
  if (diagnostics.empty()) return "";
  const Counts counts = count(diagnostics);
  std::string line = std::to_string(diagnostics.size()) + (diagnostics.size() == 1 ? " diagnostic:" : " diagnostics:");
  bool first_severity = true;
  for (Severity severity : kSeverities) {
    const int64_t n = counts.by_severity[static_cast<size_t>(severity)];
    if (n == 0) continue;
    line += std::string(first_severity ? " " : ", ") + std::to_string(n) + " " + std::string(severity_name(severity)) +
            (n == 1 ? "" : "s") + " (";
    first_severity = false;
    bool first_code = true;
    for (const DiagnosticEntry& entry : diagnostic_catalogue()) {
      const int64_t of_code = counts.by_code[static_cast<size_t>(entry.code)];
      if (entry.severity != severity || of_code == 0) continue;
      line += std::string(first_code ? "" : ", ") + std::string(entry.id) + (of_code > 1 ? " x" + std::to_string(of_code) : "");
      first_code = false;
    }
    line += ")";
  }
  return line;
}

}  // namespace sollens
