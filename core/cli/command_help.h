#pragma once
// The commands of `sollens`: each one's name, what it reads, what it does and the
// usage `sollens COMMAND --help` prints (its options listed from its api/*_flags.def).
#include <string>
#include <string_view>
#include <vector>

namespace sollens::cli {

struct Command {
  std::string_view name;
  std::string_view inputs;       // the words after the options, as the synopsis shows them
  std::string_view summary;      // one line, for the overview
  std::string_view description;  // a paragraph, wrapped, indented two spaces
  std::string (*options_usage)();
  int (*run)(const std::vector<std::string>& args);
};

// null for a name that is no command.
const Command* find_command(std::string_view name);
// `sollens COMMAND --help`: synopsis, description and every option.
std::string command_usage(const Command& command);
// `sollens --help`: the commands, the inputs and the exit codes.
std::string overview_usage();

}  // namespace sollens::cli
