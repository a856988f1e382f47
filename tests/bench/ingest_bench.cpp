// Throughput and peak memory of ingest + tree + GPU timeline on real traces.
//   sollens_bench [--repeat N] TRACE.json[.gz] ...
//   sollens_bench --cycles [KERNELS]   (cycle detection, synthetic; cycles_bench.cpp)
//   sollens_bench --report [--threads N] [--repeat N] TRACE...   (every sheet; report_bench.cpp)
// Prints, per trace: JSON MB, best and median wall time, MB/s of JSON, events/s and
// the process's peak memory relative to the JSON size. Run one trace per process for
// a clean peak-memory figure (the peak is a high-water mark). gzip is undone before
// timing (natively only; the wasm build needs .json input).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "analyses/timeline/gpu_timeline.h"
#include "ingest/trace_reader.h"
#include "model/trace_tree.h"

#include "bench_util.h"

using sollens::bench::peak_memory_mb;
using sollens::bench::read_json;

int run_cycles_bench(size_t kernels);        // cycles_bench.cpp
int run_report_bench(int argc, char** argv);  // report_bench.cpp

int main(int argc, char** argv) {
  // sollens_bench --cycles [KERNELS]: cycle detection on a synthetic trace.
  if (argc >= 2 && !std::strcmp(argv[1], "--cycles"))
    return run_cycles_bench(argc >= 3 ? std::strtoull(argv[2], nullptr, 10) : 1000000);
  // sollens_bench --report [--threads N] [--repeat N] TRACE...: the whole report.
  if (argc >= 2 && !std::strcmp(argv[1], "--report")) return run_report_bench(argc - 2, argv + 2);
  const auto [repeat, ingest, traces] = sollens::bench::parse_trace_bench_options(argc - 1, argv + 1);
  if (traces.empty()) {
    std::fprintf(stderr, "usage: sollens_bench [--repeat N] [--threads N] TRACE.json[.gz] ...\n");
    return 2;
  }
  std::printf("%-44s %9s %9s %9s %9s %10s %9s %7s\n", "trace", "JSON MB", "best ms", "median ms",
              "MB/s", "events", "peak MB", "peak/x");
  for (const auto& path : traces) {
    std::vector<double> times;
    size_t json_bytes = 0, events = 0;
    unsigned loaded_threads = 1;
    for (int r = 0; r < repeat; ++r) {
      sollens::PaddedBuffer json;
      if (!read_json(path, json)) {
        std::fprintf(stderr, "cannot read %s\n", path.c_str());
        return 1;
      }
      json_bytes = json.size();
      const auto t0 = std::chrono::steady_clock::now();
      auto loaded = sollens::load_trace(std::move(json), ingest);
      if (!loaded.ok()) {
        std::fprintf(stderr, "%s: %s\n", path.c_str(), loaded.message().c_str());
        return 1;
      }
      const auto tree = sollens::TraceTree::build(*loaded.value());
      const auto timeline = sollens::compute_gpu_timeline(*loaded.value(), tree);
      const auto t1 = std::chrono::steady_clock::now();
      times.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
      events = loaded.value()->size();
      loaded_threads = loaded.value()->parse_threads;
      if (timeline.total_us < 0) return 1;  // keeps the work observable
    }
    std::sort(times.begin(), times.end());
    const double best = times.front(), median = times[times.size() / 2];
    const double mb = json_bytes / 1e6, peak = peak_memory_mb();
    std::string name = path.substr(path.find_last_of('/') + 1);
    if (name.size() > 44) name = name.substr(0, 41) + "...";
    if (name.size() > 40) name = name.substr(0, 37) + "...";
    name += " t" + std::to_string(loaded_threads);
    std::printf("%-44s %9.1f %9.1f %9.1f %9.0f %10zu %9.0f %7.2f\n", name.c_str(), mb, best, median,
                mb / (best / 1e3), events, peak, peak / (json_bytes / double(1 << 20)));
  }
  return 0;
}
