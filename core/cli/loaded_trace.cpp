#include "cli/loaded_trace.h"

#include <thread>

#include "cli/diagnostic_lines.h"
#include "cli/read_file.h"

namespace sollens::cli {

bool load_and_model(const std::string& path, const TreeOptions& tree_options, LoadedTrace& out,
                    unsigned threads, bool compact) {
  const auto t0 = std::chrono::steady_clock::now();
  PaddedBuffer bytes;
  bool mapped = false;
  if (const Status read = read_file(path, bytes, /*prefault=*/!compact, &mapped); !read.ok()) {
    print_error(read);
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
  const Result<LoadStats> loaded = out.session.load(std::move(bytes), options);
  if (!loaded.ok()) {
    print_error(Status(loaded.code(), path + ": " + loaded.message()));
    return false;
  }
  out.parse_ms = loaded->parse_ms;
  out.tree_ms = loaded->tree_ms;
  return true;
}

bool load_capture_trace(const std::string& path, LoadedTrace& loaded) {
  PaddedBuffer bytes;
  if (const Status read = read_file(path, bytes); !read.ok()) {
    print_error(read);
    return false;
  }
  LoadOptions options;
  options.threads = std::thread::hardware_concurrency() >= 2 ? 2 : 1;
  const Result<LoadStats> capture = loaded.session.load_capture(std::move(bytes), options);
  if (!capture.ok()) {
    print_error(Status(capture.code(), path + ": " + capture.message()));
    return false;
  }
  return true;
}

void print_warnings(const Session& session, std::ostream& log) {
  for (const Diagnostic& w : session.warnings()) print_diagnostic(log, w);
}

}  // namespace sollens::cli
