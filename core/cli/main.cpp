// sollens: GPU-trace analysis for PyTorch profiler (Kineto) traces.
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command_help.h"
#include "cli/commands.h"
#include "cli/process_clock.h"

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
  if (command) return command->run(args);
  std::cerr << "sollens: unknown command '" << name << "' (try: sollens --help)\n";
  return 2;
}
