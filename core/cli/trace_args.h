#pragma once
// A command's words: its options (read through the tables generated from the
// api/*_flags.def lists) and its inputs, in one loop for every command.
#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "api/option_table.h"

namespace sollens::cli {

// Reads the command's own options at args[i] (moving i past a value); kRefused sets
// the problem (its message without "sollens: ").
using ReadOption = std::function<OptionRead(size_t& i, Status& problem)>;

// Where the words that are not options go.
struct CommandInputs {
  std::vector<std::string> paths;
  bool one_trace = false;      // a second one is a usage error at once
  bool dash_is_input = false;  // "-" is a path (diff), not an unknown option
};

// Reads `args`: each word goes first to `option`; any other word starting with '-' is
// an unknown option; the rest are inputs. False, with the reason on stderr (its code:
// bad_option_value, unknown_device, bad_run_names, unknown_option, too_many_inputs,
// missing_input), on any usage error (the command exits 2).
bool parse_command_args(const char* command, const std::vector<std::string>& args, const ReadOption& option,
                        CommandInputs& inputs);

// `sollens COMMAND [options] TRACE`: exactly one trace.
bool parse_trace_args(const char* command, const std::vector<std::string>& args, const ReadOption& option,
                      std::string& trace);

// As parse_trace_args, for a command that reads one or more traces (or folders or
// globs of them).
bool parse_traces_args(const char* command, const std::vector<std::string>& args, const ReadOption& option,
                       std::vector<std::string>& inputs);

// For a command that reads runs (traces or reports): any number of inputs, "-" among
// them; the command checks their count.
bool parse_runs_args(const char* command, const std::vector<std::string>& args, const ReadOption& option,
                     std::vector<std::string>& inputs);

// One generated option table and the struct it fills.
template <typename Options>
struct OptionGroup {
  std::span<const OptionSpec<Options>> specs;
  Options& options;
};

template <typename Options>
OptionGroup<Options> options_in(std::span<const OptionSpec<Options>> specs, Options& options) {
  return {specs, options};
}

// A ReadOption trying each group in turn.
template <typename... Options>
ReadOption option_reader(const std::vector<std::string>& args, OptionGroup<Options>... groups) {
  return [&args, groups...](size_t& i, Status& problem) {
    OptionRead read = OptionRead::kNotMine;
    ((read = read == OptionRead::kNotMine ? read_option(groups.specs, args, i, groups.options, problem) : read), ...);
    return read;
  };
}

}  // namespace sollens::cli
