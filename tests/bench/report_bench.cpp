// The whole report, as `sollens report` computes it before writing: read the file,
// parse it, build the tree, identify the GPU and build every sheet (build_report).
//   sollens_bench --report [--threads N] [--repeat N] TRACE.json[.gz] ...
// Prints, per trace, the median ms of each stage (read, parse, tree, then the report's
// own stages: timeline, ops and kernel sheets, perf-model sheets, coll_analysis, the
// Holistic Trace Analysis sheets), the
// best and median total, MB/s of JSON over the best total, the sheet count and the
// process's peak memory, also as a multiple of the JSON size. The read stage includes
// gunzip for .gz input: decompress first to time the JSON path alone. --threads is the
// parse's (the CLI uses 2 where there are 2 cores); the report itself is one thread.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "devices/device_identify.h"
#include "bench_util.h"
#include "ingest/trace_reader.h"
#include "model/trace_tree.h"
#include "report/report.h"

namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

enum Stage { kRead, kParse, kTree, kTimeline, kOps, kPerf, kCollectives, kHta, kTotal, kStages };
constexpr const char* kStageNames[kStages] = {"read", "parse", "tree", "timeline", "ops", "perf", "coll", "hta", "total"};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int run_report_bench(int argc, char** argv) {
  const auto [repeat, ingest, traces] = sollens::bench::parse_trace_bench_options(argc, argv);
  if (traces.empty()) {
    std::fprintf(stderr, "usage: sollens_bench --report [--threads N] [--repeat N] TRACE.json[.gz] ...\n");
    return 2;
  }
  std::printf("whole report: median ms per stage, %d runs, parse threads %u\n", repeat, ingest.threads);
  std::printf("%-30s %8s", "trace", "JSON MB");
  for (int s = 0; s < kStages; ++s) std::printf(" %8s", kStageNames[s]);
  std::printf(" %8s %7s %7s %8s %7s\n", "best", "MB/s", "sheets", "peak MB", "peak/x");
  for (const auto& path : traces) {
    std::vector<std::vector<double>> times(kStages);
    size_t json_bytes = 0, sheets = 0;
    for (int r = 0; r < repeat; ++r) {
      const auto t0 = Clock::now();
      sollens::PaddedBuffer json;
      if (!sollens::bench::read_json(path, json)) {
        std::fprintf(stderr, "cannot read %s\n", path.c_str());
        return 1;
      }
      json_bytes = json.size();
      const auto t1 = Clock::now();
      auto loaded = sollens::load_trace(std::move(json), ingest);
      if (!loaded.ok()) {
        std::fprintf(stderr, "%s: %s\n", path.c_str(), loaded.message().c_str());
        return 1;
      }
      const auto t2 = Clock::now();
      const auto tree = sollens::TraceTree::build(*loaded.value());
      const auto t3 = Clock::now();
      sollens::ReportOptions options;
      const sollens::DeviceIdentification device = sollens::identify_trace_device(*loaded.value(), "");
      options.device = device.roofline_spec();
      const sollens::Report report = sollens::build_report(*loaded.value(), tree, options);
      const auto t4 = Clock::now();
      times[kRead].push_back(ms_between(t0, t1));
      times[kParse].push_back(ms_between(t1, t2));
      times[kTree].push_back(ms_between(t2, t3));
      times[kTimeline].push_back(report.timings.timeline_ms);
      times[kOps].push_back(report.timings.ops_ms);
      times[kPerf].push_back(report.timings.perf_ms);
      times[kCollectives].push_back(report.timings.collectives_ms);
      times[kHta].push_back(report.timings.hta_ms);
      times[kTotal].push_back(ms_between(t0, t4));
      sheets = report.sheets.size();
    }
    const double best = *std::min_element(times[kTotal].begin(), times[kTotal].end());
    const double mb = json_bytes / 1e6, peak = sollens::bench::peak_memory_mb();
    std::printf("%-30s %8.1f", sollens::bench::short_name(path, 30).c_str(), mb);
    for (int s = 0; s < kStages; ++s) std::printf(" %8.1f", median(times[s]));
    std::printf(" %8.1f %7.0f %7zu %8.0f %7.2f\n", best, mb / (best / 1e3), sheets, peak,
                peak / (json_bytes / double(1 << 20)));
  }
  return 0;
}
