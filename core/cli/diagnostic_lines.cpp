#include "cli/diagnostic_lines.h"

#include <iostream>

#include "base/diagnostics.h"

namespace sollens::cli {

std::string diagnostic_line(const Diagnostic& diagnostic) {
  const DiagnosticEntry& entry = describe(diagnostic.code);
  return "sollens: " + std::string(severity_name(entry.severity)) + ": " + diagnostic.message + " [" +
         std::string(entry.id) + "]";
}

void print_diagnostic(std::ostream& out, const Diagnostic& diagnostic) {
  out << diagnostic_line(diagnostic) << "\n";
}

void print_error(const Status& error) { print_diagnostic(std::cerr, error.diagnostic()); }

}  // namespace sollens::cli
