#include "cli/loaded_trace.h"

#include <iostream>
#include <thread>

#include "cli/read_file.h"

namespace sollens::cli {

double elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since)
      .count();
}

bool load_and_model(const std::string& path, const TreeOptions& tree_options, LoadedTrace& out) {
  auto t0 = std::chrono::steady_clock::now();
  PaddedBuffer bytes;
  std::string error;
  if (!read_file(path, bytes, error)) {
    std::cerr << "sollens: " << error << "\n";
    return false;
  }
  out.read_ms = elapsed_ms(t0);
  t0 = std::chrono::steady_clock::now();
  IngestOptions ingest;
  // Two halves of a large trace at once where there are cores for it.
  ingest.threads = std::thread::hardware_concurrency() >= 2 ? 2 : 1;
  LoadResult loaded = load_trace(std::move(bytes), ingest);
  out.parse_ms = elapsed_ms(t0);
  if (!loaded.store) {
    std::cerr << "sollens: " << path << ": " << loaded.error << "\n";
    return false;
  }
  out.store = std::move(loaded.store);
  t0 = std::chrono::steady_clock::now();
  out.tree = TraceTree::build(*out.store, tree_options);
  out.tree_ms = elapsed_ms(t0);
  return true;
}

void print_warnings(const EventStore& store) {
  for (const auto& w : store.warnings) std::cerr << "sollens: warning: " << w.message << "\n";
}

}  // namespace sollens::cli
