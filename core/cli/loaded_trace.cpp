#include "cli/loaded_trace.h"

#include <iostream>
#include <thread>

#include "cli/read_file.h"

namespace sollens::cli {

bool load_and_model(const std::string& path, const TreeOptions& tree_options, LoadedTrace& out,
                    unsigned threads, bool compact) {
  const auto t0 = std::chrono::steady_clock::now();
  PaddedBuffer bytes;
  std::string error;
  bool mapped = false;
  if (!read_file(path, bytes, error, /*prefault=*/!compact, &mapped)) {
    std::cerr << "sollens: " << error << "\n";
    return false;
  }
  out.read_ms = ms_since(t0);
  LoadOptions options;
  // Two halves of a large trace at once where there are cores for it.
  options.threads = threads != 0 ? threads : std::thread::hardware_concurrency() >= 2 ? 2 : 1;
  options.tree = tree_options;
  if (compact) {
    options.compact_input = true;
    if (mapped) options.release_input = release_pages;
  }
  const LoadOutcome loaded = out.session.load(std::move(bytes), options);
  out.parse_ms = loaded.parse_ms;
  out.tree_ms = loaded.tree_ms;
  if (!loaded.ok) {
    std::cerr << "sollens: " << path << ": " << loaded.error << "\n";
    return false;
  }
  return true;
}

bool load_capture_trace(const std::string& path, LoadedTrace& loaded) {
  PaddedBuffer bytes;
  std::string error;
  if (!read_file(path, bytes, error)) {
    std::cerr << "sollens: " << error << "\n";
    return false;
  }
  LoadOptions options;
  options.threads = std::thread::hardware_concurrency() >= 2 ? 2 : 1;
  const LoadOutcome outcome = loaded.session.load_capture(std::move(bytes), options);
  if (!outcome.ok) {
    std::cerr << "sollens: " << path << ": " << outcome.error << "\n";
    return false;
  }
  return true;
}

void print_warnings(const Session& session, std::ostream& log) {
  for (const auto& w : session.warnings()) log << "sollens: warning: " << w.message << "\n";
}

}  // namespace sollens::cli
