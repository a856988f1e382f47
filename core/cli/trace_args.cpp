#include "cli/trace_args.h"

#include "cli/diagnostic_lines.h"

namespace sollens::cli {

bool parse_command_args(const char* command, const std::vector<std::string>& args, const ReadOption& option,
                        CommandInputs& inputs) {
  for (size_t i = 0; i < args.size(); ++i) {
    Status problem;
    const OptionRead read = option(i, problem);
    if (read == OptionRead::kRefused) {
      print_error(problem);
      return false;
    }
    if (read == OptionRead::kTaken) continue;
    const std::string& a = args[i];
    if (a.starts_with('-') && !(inputs.dash_is_input && a == "-")) {
      print_error(Status(Code::unknown_option,
                         "unknown option '" + a + "' for " + command + " (try: sollens " + command + " --help)"));
      return false;
    }
    if (inputs.one_trace && !inputs.paths.empty()) {
      print_error(Status(Code::too_many_inputs, std::string(command) + " takes one trace; got '" +
                                                    inputs.paths.back() + "' and '" + a + "'"));
      return false;
    }
    inputs.paths.push_back(a);
  }
  return true;
}

namespace {

bool has_a_trace(const char* command, const CommandInputs& inputs) {
  if (!inputs.paths.empty()) return true;
  print_error(Status(Code::missing_input, std::string(command) + " needs a trace file (try: sollens --help)"));
  return false;
}

}  // namespace

bool parse_trace_args(const char* command, const std::vector<std::string>& args, const ReadOption& option,
                      std::string& trace) {
  CommandInputs inputs;
  inputs.one_trace = true;
  if (!parse_command_args(command, args, option, inputs) || !has_a_trace(command, inputs)) return false;
  trace = inputs.paths.front();
  return true;
}

bool parse_traces_args(const char* command, const std::vector<std::string>& args, const ReadOption& option,
                       std::vector<std::string>& inputs) {
  CommandInputs read;
  if (!parse_command_args(command, args, option, read) || !has_a_trace(command, read)) return false;
  inputs = std::move(read.paths);
  return true;
}

bool parse_runs_args(const char* command, const std::vector<std::string>& args, const ReadOption& option,
                     std::vector<std::string>& inputs) {
  CommandInputs read;
  read.dash_is_input = true;
  if (!parse_command_args(command, args, option, read)) return false;
  inputs = std::move(read.paths);
  return true;
}

}  // namespace sollens::cli
