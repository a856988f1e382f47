// sollens: GPU-trace analysis for PyTorch profiler (Kineto) traces.
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "api/api_guard.h"
#include "cli/command_help.h"
#include "cli/commands.h"
#include "cli/diagnostic_lines.h"
#include "cli/process_clock.h"

namespace {

// The command, its standard-library exceptions (memory) stopped here as an error line.
int run_guarded(const sollens::cli::Command& command, const std::vector<std::string>& args) {
  try {
    return command.run(args);
  } catch (...) {
    sollens::cli::print_error(sollens::status_of_exception("running sollens " + std::string(command.name)));
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace sollens::cli;
  start_process_clock();
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << overview_usage();
    return 2;
  }
  const std::string name = args[0];
  args.erase(args.begin());
  if (name == "--help" || name == "-h" || name == "help") {
    const Command* about = name == "help" && !args.empty() ? find_command(args[0]) : nullptr;
    std::cout << (about ? command_usage(*about) : overview_usage());
    return 0;
  }
  if (name == "--version") {
    std::cout << "sollens " << kVersion << "\n";
    return 0;
  }
  const Command* command = find_command(name);
  if (std::any_of(args.begin(), args.end(), [](const std::string& a) { return a == "--help" || a == "-h"; })) {
    std::cout << (command ? command_usage(*command) : overview_usage());
    return 0;
  }
  if (command) return run_guarded(*command, args);
  print_error(sollens::Status(sollens::Code::unknown_command, "unknown command '" + name + "' (try: sollens --help)"));
  return 2;
}
