#include "cli/trace_args.h"

#include <cstdlib>
#include <iostream>

#include "devices/device_db.h"

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

bool parse_traces_args(const char* command, const std::vector<std::string>& args,
                       const std::function<OptionResult(size_t& i)>& option,
                       std::vector<std::string>& inputs) {
  for (size_t i = 0; i < args.size(); ++i) {
    const OptionResult result = option(i);
    if (result == OptionResult::kUsageError) return false;
    if (result == OptionResult::kTaken) continue;
    const std::string& a = args[i];
    if (!a.empty() && a[0] == '-') {
      std::cerr << "sollens: unknown option '" << a << "' for " << command << " (try: sollens --help)\n";
      return false;
    }
    inputs.push_back(a);
  }
  if (inputs.empty()) {
    std::cerr << "sollens: " << command << " needs a trace file (try: sollens --help)\n";
    return false;
  }
  return true;
}

OptionResult read_device_option(const std::vector<std::string>& args, size_t& i,
                                std::string& device_name) {
  if (i + 1 >= args.size() || !find_device(args[i + 1])) {
    std::cerr << "sollens: "
              << (i + 1 >= args.size() ? std::string("--device needs a GPU name")
                                       : "unknown device '" + args[i + 1] + "' for --device")
              << " (known, case-insensitive: " << known_device_names() << ")\n";
    return OptionResult::kUsageError;
  }
  device_name = args[++i];
  return OptionResult::kTaken;
}

OptionResult read_efficiency_option(const std::vector<std::string>& args, size_t& i, double& efficiency) {
  if (i + 1 < args.size()) {
    const std::string& v = args[i + 1];
    char* end = nullptr;
    const double f = std::strtod(v.c_str(), &end);
    if (end != v.c_str() && *end == '\0' && f > 0 && f <= 1) {
      efficiency = f;
      ++i;
      return OptionResult::kTaken;
    }
  }
  std::cerr << "sollens: --efficiency needs a factor in (0, 1], e.g. 0.8\n";
  return OptionResult::kUsageError;
}

OptionResult read_link_option(const std::vector<std::string>& args, size_t& i, LinkMode& mode) {
  const std::optional<LinkMode> read =
      i + 1 < args.size() ? link_mode_from_name(args[i + 1]) : std::nullopt;
  if (!read) {
    std::cerr << "sollens: --link is flows, correlation or auto"
              << (i + 1 < args.size() ? ", not '" + args[i + 1] + "'" : std::string()) << "\n";
    return OptionResult::kUsageError;
  }
  mode = *read;
  ++i;
  return OptionResult::kTaken;
}

}  // namespace sollens::cli
