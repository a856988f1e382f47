#pragma once
// The command line of a command that reads one trace: `sollens COMMAND [options] TRACE`.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "model/link_mode.h"

namespace sollens::cli {

enum class OptionResult {
  kTaken,      // the command's option (and its value, if any) was read
  kNotMine,    // not one of the command's options
  kUsageError  // the command's option was wrong; the handler printed why
};

// Reads `args`: each one goes first to `option(i)` (the command's own options, read
// from args[i]), which may advance i over a value. Any other argument starting with
// '-' is an unknown option; the one other argument is the trace. False, with the
// reason on stderr, on any usage error (the command exits 2).
bool parse_trace_args(const char* command, const std::vector<std::string>& args,
                      const std::function<OptionResult(size_t& i)>& option,
                      std::string& trace);

// As parse_trace_args, for a command that reads one or more traces (or folders or
// globs of them): every other argument goes into `inputs`.
bool parse_traces_args(const char* command, const std::vector<std::string>& args,
                       const std::function<OptionResult(size_t& i)>& option,
                       std::vector<std::string>& inputs);

// `--device NAME` at args[i] (report, info): a known device database name, read into
// `device_name`; a missing or unknown name is a usage error listing the known names.
OptionResult read_device_option(const std::vector<std::string>& args, size_t& i,
                                std::string& device_name);

// `--efficiency F` at args[i] (sol, report): the SOL efficiency factor, in (0, 1].
OptionResult read_efficiency_option(const std::vector<std::string>& args, size_t& i, double& efficiency);

// `--link flows|correlation|auto` at args[i] (report, info): how GPU events are tied to
// their launches (model/link_mode.h); another value is a usage error.
OptionResult read_link_option(const std::vector<std::string>& args, size_t& i, LinkMode& mode);

}  // namespace sollens::cli
