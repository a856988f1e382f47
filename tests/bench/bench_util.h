#pragma once
// What every sollens_bench mode shares: its options, reading a trace file the way
// the CLI does and the process's peak memory.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "ingest/gzip.h"
#include "ingest/trace_reader.h"
#include "store/padded_buffer.h"

#ifdef __EMSCRIPTEN__
#include <emscripten/heap.h>
#else
#include <sys/resource.h>

#include "cli/read_file.h"
#endif

namespace sollens::bench {

// The options of the modes that time real traces: --repeat N (runs per trace, at
// least 1), --threads N (the parse's), and every other argument a trace.
struct TraceBenchOptions {
  int repeat = 5;
  IngestOptions ingest;
  std::vector<std::string> traces;
};

inline TraceBenchOptions parse_trace_bench_options(int argc, char** argv) {
  TraceBenchOptions o;
  for (int i = 0; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) o.repeat = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) o.ingest.threads = std::max(1, std::atoi(argv[++i]));
    else o.traces.push_back(argv[i]);
  }
  return o;
}

inline double peak_memory_mb() {
#ifdef __EMSCRIPTEN__
  return static_cast<double>(emscripten_get_heap_size()) / (1 << 20);  // wasm memory only grows
#else
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;
#endif
}

// The file's JSON (gzip undone) in one padded buffer, read as the CLI reads it
// (natively a private file mapping, cli/read_file.h); no stream copies to inflate
// the peak.
inline bool read_json(const std::string& path, PaddedBuffer& out) {
  PaddedBuffer bytes;
#ifdef __EMSCRIPTEN__
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  std::fseek(f, 0, SEEK_END);
  const long size = std::ftell(f);
  std::fseek(f, 0, SEEK_SET);
  bytes = PaddedBuffer(size > 0 ? static_cast<size_t>(size) : 0);
  const bool ok = size > 0 && std::fread(bytes.data(), 1, bytes.size(), f) == bytes.size();
  std::fclose(f);
  if (!ok) return false;
#else
  if (const Status read = cli::read_file(path, bytes); !read.ok()) {
    std::fprintf(stderr, "%s\n", read.message().c_str());
    return false;
  }
#endif
  if (looks_like_gzip(bytes.view())) {
    auto unzipped = gunzip(bytes.view());
    if (!unzipped.ok()) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(), unzipped.message().c_str());
      return false;
    }
    out = std::move(unzipped->data);
  } else {
    out = std::move(bytes);
  }
  return true;
}

// The file name, cut to `width` characters.
inline std::string short_name(const std::string& path, size_t width) {
  std::string name = path.substr(path.find_last_of('/') + 1);
  if (name.size() > width) name = name.substr(0, width - 3) + "...";
  return name;
}

}  // namespace sollens::bench
