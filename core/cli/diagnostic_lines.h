#pragma once
// How the command line says what went wrong: one line per diagnostic,
//   sollens: error: <message> [<code>]
// ("warning" / "note" by the code's severity in the catalogue, base/diagnostics.def), so
// that a user can look the code up (sollens explain CODE) and a script can match it.
#include <ostream>
#include <string>

#include "base/status.h"

namespace sollens::cli {

std::string diagnostic_line(const Diagnostic& diagnostic);
// The line on `out`.
void print_diagnostic(std::ostream& out, const Diagnostic& diagnostic);
// An error's line on stderr.
void print_error(const Status& error);

}  // namespace sollens::cli
