#pragma once
// The command line of a command that reads one trace: `sollens COMMAND [options] TRACE`.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace sollens::cli {

enum class OptionResult {
  kTaken,      // the command's option (and its value, if any) was read
  kNotMine,    // not one of the command's options
  kUsageError  // the command's option was wrong; the handler printed why
};

// Reads `args`: each one goes first to `option(i)` (the command's own options, read
// from args[i]), which may advance i over a value. Any other argument starting with
// '-' is an unknown option; the one other argument is the trace. False, with the
// reason on stderr, on any usage error (the command exits 2). report_command.cpp
// still parses by hand and can move onto this.
bool parse_trace_args(const char* command, const std::vector<std::string>& args,
                      const std::function<OptionResult(size_t& i)>& option,
                      std::string& trace);

}  // namespace sollens::cli
