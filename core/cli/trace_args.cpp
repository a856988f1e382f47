#include "cli/trace_args.h"

#include <iostream>

namespace sollens::cli {

bool parse_trace_args(const char* command, const std::vector<std::string>& args,
                      const std::function<OptionResult(size_t& i)>& option,
                      std::string& trace) {
  for (size_t i = 0; i < args.size(); ++i) {
    const OptionResult result = option(i);
    if (result == OptionResult::kUsageError) return false;
    if (result == OptionResult::kTaken) continue;
    const std::string& a = args[i];
    if (!a.empty() && a[0] == '-') {
      std::cerr << "sollens: unknown option '" << a << "' for " << command << " (try: sollens --help)\n";
      return false;
    }
    if (!trace.empty()) {
      std::cerr << "sollens: " << command << " takes one trace; got '" << trace << "' and '" << a << "'\n";
      return false;
    }
    trace = a;
  }
  if (trace.empty()) {
    std::cerr << "sollens: " << command << " needs a trace file (try: sollens --help)\n";
    return false;
  }
  return true;
}

}  // namespace sollens::cli
